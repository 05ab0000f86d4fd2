"""Loading never unpickles what a shared DVC remote could have replaced: every checkpoint we
write is read with ``torch.load(weights_only=True)`` (or is safetensors), a model folder a tagger
or generator reads is never unpickled (a booby-trapped folder of each is refused with an error
naming the file; flair pickles load only with ``--trust-model``), a broken folder is a clear
error, and DVC neither phones home nor checks for updates."""

from __future__ import annotations

import configparser
import json
import os
import re
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from tiny_taggers import TAGGERS

ROOT = Path(__file__).resolve().parents[1]
CALL = re.compile(r"torch\.load\(([^()]*(?:\([^()]*\)[^()]*)*)\)")


def test_every_torch_load_is_weights_only() -> None:
    calls = []
    for folder in ("core", "plugins", "stages", "bench"):
        for path in (ROOT / folder).rglob("*.py"):
            for m in CALL.finditer(path.read_text(encoding="utf-8")):
                calls.append((path.relative_to(ROOT), m.group(1)))
    assert len(calls) >= 4  # the LSTM, mlm_fill, hf_lm and DP checkpoints
    assert [(str(p), args) for p, args in calls if "weights_only=True" not in args] == []


def test_dvc_config_turns_off_analytics_and_update_checks() -> None:
    config = configparser.ConfigParser()
    config.read(ROOT / ".dvc" / "config")
    assert config["core"]["analytics"] == "false"
    assert config["core"]["check_update"] == "false"


# ---- booby-trapped and broken model folders ---------------------------------------------------
# Each trap is a pickle whose unpickling creates a marker file, as a crafted model file could run
# any command. No loader may create the marker; each must raise an InputError naming the file.


class Trap:
    """Unpickled, it creates ``marker``."""

    def __init__(self, marker: Path) -> None:
        self.marker = str(marker)

    def __reduce__(self) -> tuple[Any, tuple[str, str]]:
        return (open, (self.marker, "a"))


def set_trap(path: Path, marker: Path) -> Path:
    """A torch checkpoint (a pickle) at ``path`` that creates ``marker`` when unpickled."""
    import torch

    path.parent.mkdir(parents=True, exist_ok=True)
    torch.save({"state_dict": Trap(marker)}, path)
    return path


def test_the_trap_goes_off_when_unpickled(tmp_path: Path) -> None:
    import torch

    trap = set_trap(tmp_path / "m.pt", tmp_path / "marker")
    torch.load(trap, weights_only=False)  # what flair's SequenceTagger.load does
    assert (tmp_path / "marker").exists()


@pytest.fixture(scope="module")
def taggers(tiny_taggers: dict[str, Path]) -> dict[str, Path]:
    return tiny_taggers


def copy(taggers: dict[str, Path], name: str, tmp_path: Path) -> Path:
    return shutil.copytree(taggers[name], tmp_path / name)


def trapped_torch(taggers: dict[str, Path], tmp_path: Path, marker: Path) -> tuple[Path, str]:
    d = copy(taggers, "torch_bilstm_crf", tmp_path)
    set_trap(d / "model.safetensors", marker)  # a pickle under the safetensors name
    return d, "model.safetensors"


def trapped_flair(taggers: dict[str, Path], tmp_path: Path, marker: Path) -> tuple[Path, str]:
    d = copy(taggers, "legacy_flair", tmp_path)
    set_trap(d / "best-model.pt", marker)
    return d, "best-model.pt"


def trapped_flair_weights(taggers: dict[str, Path], tmp_path: Path, marker: Path) -> tuple[Path, str]:
    d = copy(taggers, "flair_bilstm_crf", tmp_path)
    set_trap(d / "model.safetensors", marker)
    return d, "model.safetensors"


def trapped_hf(taggers: dict[str, Path], tmp_path: Path, marker: Path) -> tuple[Path, str]:
    d = copy(taggers, "hf_token_classification", tmp_path)
    (d / "model" / "model.safetensors").unlink()
    set_trap(d / "model" / "pytorch_model.bin", marker)
    return d, "pytorch_model.bin"


TRAPPED_TAGGERS = [trapped_torch, trapped_flair, trapped_flair_weights, trapped_hf]


@pytest.mark.parametrize("trapped", TRAPPED_TAGGERS, ids=lambda f: f.__name__)
def test_a_trapped_tagger_folder_is_refused(taggers: dict[str, Path], tmp_path: Path, trapped: Any) -> None:
    from synthdeid import InputError
    from synthdeid.phi.deidentify import load_annotator
    from synthdeid.spec.build import annotator

    marker = tmp_path / "marker"
    folder, name = trapped(taggers, tmp_path, marker)
    with pytest.raises(InputError) as e:
        load_annotator(folder, None, "nl", create=annotator)
    assert name in str(e.value) and "fix:" in str(e.value)
    assert not marker.exists()


@pytest.mark.parametrize("trapped", TRAPPED_TAGGERS, ids=lambda f: f.__name__)
def test_the_cli_refuses_a_trapped_tagger_folder(
    taggers: dict[str, Path], tmp_path: Path, trapped: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    marker = tmp_path / "marker"
    folder, name = trapped(taggers, tmp_path, marker)
    assert deidentify_cli(folder, tmp_path) == 1
    out, err = capsys.readouterr()
    assert name in err and "fix:" in err and "Traceback" not in out + err
    assert not marker.exists() and not (tmp_path / "out.jsonl").exists()


def test_the_pickle_refusal_names_the_trust_flag(
    taggers: dict[str, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder, _ = trapped_flair(taggers, tmp_path, tmp_path / "marker")
    assert deidentify_cli(folder, tmp_path) == 1
    assert "--trust-model" in capsys.readouterr().err


def test_trust_model_loads_an_old_flair_pickle_with_the_same_predictions(
    taggers: dict[str, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A flair pickle an older synthdeid wrote: refused by default, loaded with --trust-model, and
    it predicts exactly what the same weights saved safely predict."""
    from synthdeid.corpus_io import read_documents

    assert deidentify_cli(taggers["legacy_flair"], tmp_path) == 1
    assert "best-model.pt" in capsys.readouterr().err
    assert deidentify_cli(taggers["legacy_flair"], tmp_path, "--trust-model") == 0
    trusted = list(read_documents(tmp_path / "out.jsonl"))
    assert deidentify_cli(taggers["flair_bilstm_crf"], tmp_path / "safe") == 0
    assert trusted == list(read_documents(tmp_path / "safe" / "out.jsonl"))


def test_trust_model_really_unpickles(
    taggers: dict[str, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The flag is the one way to a pickle (so the trap goes off), and a pickle that is no flair
    model is still a clear error."""
    marker = tmp_path / "marker"
    folder, _ = trapped_flair(taggers, tmp_path, marker)
    assert deidentify_cli(folder, tmp_path, "--trust-model") == 1
    assert marker.exists()
    out, err = capsys.readouterr()
    assert "best-model.pt" in err and "Traceback" not in out + err


@pytest.mark.slow  # the CLI in a subprocess
def test_the_command_refuses_a_trapped_folder_without_a_traceback(taggers: dict[str, Path], tmp_path: Path) -> None:
    """The installed ``synthdeid`` command, in its own process."""
    marker = tmp_path / "marker"
    folder, _ = trapped_flair(taggers, tmp_path, marker)
    write_notes(tmp_path / "in.jsonl")
    env = {**os.environ, "HF_HUB_OFFLINE": "1", "OMP_NUM_THREADS": "1"}
    run = subprocess.run(
        [
            str(Path(sys.executable).parent / "synthdeid"),
            "deidentify",
            str(tmp_path / "in.jsonl"),
            str(tmp_path / "out.jsonl"),
            "--model",
            str(folder),
            "--language",
            "nl",
        ],
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
    )
    assert run.returncode == 1
    assert "best-model.pt" in run.stderr and "Traceback" not in run.stdout + run.stderr
    assert not marker.exists() and not (tmp_path / "out.jsonl").exists()


def write_notes(path: Path) -> Path:
    from toy_notes import toy_docs

    from synthdeid.corpus_io import write_documents

    path.parent.mkdir(parents=True, exist_ok=True)
    write_documents(toy_docs(3, seed=7), path)
    return path


def deidentify_cli(model: Path, folder: Path, *extra: str) -> int:
    from synthdeid.cli import main

    notes = write_notes(folder / "in.jsonl")
    return main(
        ["deidentify", str(notes), str(folder / "out.jsonl"), "--model", str(model), "--language", "nl", *extra]
    )


# ---- broken tagger folders (issue #28): an InputError naming the file, never a traceback -------


def edit_json(path: Path, change: Callable[[dict[str, Any]], Any]) -> None:
    data = json.loads(path.read_text(encoding="utf-8"))
    change(data)
    path.write_text(json.dumps(data), encoding="utf-8")


def truncate(path: Path) -> None:
    path.write_bytes(path.read_bytes()[: path.stat().st_size // 2])


BROKEN: list[tuple[str, str, Callable[[Path], None]]] = [
    ("torch_bilstm_crf", "tagger.json", lambda p: p.write_text('{"tagger": "torch_bilstm_crf", ')),
    ("torch_bilstm_crf", "tagger.json", lambda p: edit_json(p, lambda d: d.pop("tagger"))),
    ("torch_bilstm_crf", "tagger.json", lambda p: edit_json(p, lambda d: d.pop("config"))),
    ("torch_bilstm_crf", "tagger.json", lambda p: edit_json(p, lambda d: d["config"].update(hidden_size="big"))),
    ("torch_bilstm_crf", "vocab.json", lambda p: p.write_text("[1, 2")),
    ("torch_bilstm_crf", "vocab.json", lambda p: edit_json(p, lambda d: d.pop("words"))),
    (
        "torch_bilstm_crf",
        "model.safetensors",
        lambda p: edit_json(
            p.with_name("vocab.json"),  # fewer words than rows
            lambda d: d.update(words=d["words"][:3]),
        ),
    ),
    ("torch_bilstm_crf", "model.safetensors", truncate),
    ("flair_bilstm_crf", "tagger.json", lambda p: edit_json(p, lambda d: d.pop("labels"))),
    ("flair_bilstm_crf", "embeddings.json", lambda p: p.write_text("{")),
    ("flair_bilstm_crf", "embeddings.json", lambda p: edit_json(p, lambda d: d.pop("embeddings"))),
    ("flair_bilstm_crf", "embeddings.json", lambda p: edit_json(p, lambda d: d["embeddings"][0].pop("vocab"))),
    ("flair_bilstm_crf", "model.safetensors", truncate),
    ("legacy_flair", "best-model.pt", truncate),
    ("hf_token_classification", "tagger.json", lambda p: p.write_text("not json")),
    ("hf_token_classification", "model/config.json", lambda p: p.write_text("{")),
    ("hf_token_classification", "model/model.safetensors", truncate),
]


@pytest.mark.parametrize("tagger, name, damage", BROKEN, ids=[f"{t}-{n}-{i}" for i, (t, n, _) in enumerate(BROKEN)])
def test_a_broken_tagger_folder_names_the_file(
    taggers: dict[str, Path],
    tmp_path: Path,
    tagger: str,
    name: str,
    damage: Callable[[Path], None],
    capsys: pytest.CaptureFixture[str],
) -> None:
    folder = copy(taggers, tagger, tmp_path)
    damage(folder / name)
    assert deidentify_cli(folder, tmp_path, "--trust-model") == 1
    out, err = capsys.readouterr()
    assert str(folder / name) in err and "fix:" in err and "Traceback" not in out + err


@pytest.mark.parametrize("tagger", sorted(TAGGERS))
def test_the_intact_folders_load(taggers: dict[str, Path], tmp_path: Path, tagger: str) -> None:
    """The folders the broken ones were made from work (so each failure above is its damage's)."""
    assert deidentify_cli(taggers[tagger], tmp_path) == 0


# ---- generators: pretrained and trained model folders ------------------------------------------


def hf_trap(folder: Path, marker: Path, weights: str = "model.safetensors", pickle: str = "pytorch_model.bin") -> Path:
    """``folder`` with its safetensors weights replaced by a trapped pickle."""
    (folder / weights).unlink(missing_ok=True)
    return set_trap(folder / pickle, marker)


def gpt2_pretrained(tmp_path: Path, marker: Path) -> Callable[[], Any]:
    from hf_tiny import save_tiny_gpt2, training_data

    from synthdeid.plugin_system.manager import registry

    src = save_tiny_gpt2(tmp_path / "english")
    hf_trap(src, marker)
    return lambda: (
        registry("generator").create("gpt2", {"pretrained": str(src), "vocab_size": 400}).build(training_data(10, 2))
    )


def gpt2_trained(tmp_path: Path, marker: Path) -> Callable[[], Any]:
    from hf_tiny import save_tiny_gpt2

    from synthdeid.plugin_system.manager import registry

    save_tiny_gpt2(tmp_path / "out" / "model")
    (tmp_path / "out" / "generator.json").write_text(json.dumps({"generator": "gpt2", "special_tokens": []}))
    hf_trap(tmp_path / "out" / "model", marker)
    return lambda: registry("generator").create("gpt2", {"threads": 1}).load(tmp_path / "out")


def causal_lm_model(tmp_path: Path, marker: Path) -> Callable[[], Any]:
    from hf_tiny import save_tiny_llama, training_data

    from synthdeid.plugin_system.manager import registry

    base = save_tiny_llama(tmp_path / "llama")
    hf_trap(base, marker)
    return lambda: (
        registry("generator").create("causal_lm", {"model": str(base), "threads": 1}).prepare(training_data(10, 2))
    )


def causal_lm_adapter(tmp_path: Path, marker: Path) -> Callable[[], Any]:
    from hf_tiny import save_tiny_llama

    from synthdeid.plugin_system.manager import registry

    base = save_tiny_llama(tmp_path / "llama")
    adapter = tmp_path / "out" / "adapter"
    adapter.mkdir(parents=True)
    for f in base.glob("*token*"):
        shutil.copy(f, adapter)
    (adapter / "adapter_config.json").write_text("{}")
    set_trap(adapter / "adapter_model.bin", marker)
    (tmp_path / "out" / "generator.json").write_text(
        json.dumps(
            {"generator": "causal_lm", "new_token_ids": [], "n_old_tokens": 0, "special_tokens": [], "start_id": 1}
        )
    )
    return lambda: registry("generator").create("causal_lm", {"model": str(base), "threads": 1}).load(tmp_path / "out")


def mlm_fill_model(tmp_path: Path, marker: Path) -> Callable[[], Any]:
    from transformers import RobertaConfig

    from synthdeid.plugins.mlm_fill import MLMFillConfig, MLMFillGenerator

    out = tmp_path / "out"
    RobertaConfig(
        vocab_size=50, hidden_size=16, num_hidden_layers=1, num_attention_heads=2, intermediate_size=32
    ).save_pretrained(out / "model")
    set_trap(out / "model" / "pytorch_model.bin", marker)
    (out / "mlm_fill.json").write_text(json.dumps({"window": 8}))
    return lambda: MLMFillGenerator(MLMFillConfig()).load(out)


def mlm_fill_pretrained(tmp_path: Path, marker: Path) -> Callable[[], Any]:
    from synthdeid.plugins.mlm_fill.model import load_model

    folder = tmp_path / "pretrained"
    folder.mkdir()
    (folder / "config.json").write_text(json.dumps({"model_type": "roberta"}))
    set_trap(folder / "pytorch_model.bin", marker)
    return lambda: load_model(folder)  # what train_mlm reads `pretrained` with


@pytest.mark.parametrize(
    "trapped",
    [gpt2_pretrained, gpt2_trained, causal_lm_model, causal_lm_adapter, mlm_fill_model, mlm_fill_pretrained],
    ids=lambda f: f.__name__,
)
def test_a_trapped_generator_folder_is_refused(tmp_path: Path, trapped: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    from synthdeid import InputError

    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    marker = tmp_path / "marker"
    load = trapped(tmp_path, marker)
    with pytest.raises(InputError) as e:
        load()
    assert ("pytorch_model.bin" in str(e.value) or "adapter_model.bin" in str(e.value)) and "fix:" in str(e.value)
    assert not marker.exists()


def test_a_tokenizer_pickle_is_not_unpickled(tmp_path: Path) -> None:
    """transformers' one tokenizer that unpickles its vocabulary (TransfoXL) stays refused."""
    import pickle

    from synthdeid import InputError
    from synthdeid.plugins.hf_tagger.encoding import load_tokenizer

    marker = tmp_path / "marker"
    with open(tmp_path / "vocab.pkl", "wb") as f:
        pickle.dump(Trap(marker), f)
    (tmp_path / "tokenizer_config.json").write_text(json.dumps({"tokenizer_class": "TransfoXLTokenizer"}))
    with pytest.raises(InputError, match="tokenizer"):
        load_tokenizer(tmp_path)
    assert not marker.exists()
