"""A crafted model folder is a clear error naming its file and the fix (issue #41), never "this is a
bug" nor a terabyte allocation: JSON nested 100k deep, absurd sizes, labels without ``O``, a FIFO
or folder where a file belongs, a peft adapter without its safetensors, an LSTM checkpoint that is
a trapped pickle. ``--trust-model`` says so on stderr when it really unpickles."""

from __future__ import annotations

import json
import os
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from test_safe_loading import deidentify_cli, set_trap

from synthdeid import InputError

DEEP = "[" * 100_000 + "]" * 100_000


@pytest.fixture(scope="module")
def taggers(tiny_taggers: dict[str, Path]) -> dict[str, Path]:
    return tiny_taggers


def edit(change: Callable[[dict[str, Any]], Any]) -> Callable[[Path], None]:
    def apply(path: Path) -> None:
        data = json.loads(path.read_text(encoding="utf-8"))
        change(data)
        path.write_text(json.dumps(data), encoding="utf-8")

    return apply


def config(**values: Any) -> Callable[[Path], None]:
    return edit(lambda meta: meta["config"].update(values))


def replace(make: Callable[[Path], Any]) -> Callable[[Path], None]:
    def apply(path: Path) -> None:
        path.unlink()
        make(path)

    return apply


def relabel(change: Callable[[str, str], str]) -> Callable[[Path], None]:
    return edit(lambda c: c.update(id2label={k: change(k, v) for k, v in c["id2label"].items()}))


TORCH, FLAIR, HF = "torch_bilstm_crf", "flair_bilstm_crf", "hf_token_classification"
ATTACKS: list[tuple[str, str, str, Callable[[Path], None], str]] = [
    # C1: JSON nested 100k deep
    ("deep tagger.json", TORCH, "tagger.json", lambda p: p.write_text(DEEP), "nests its JSON deeper"),
    ("deep vocab.json", TORCH, "vocab.json", lambda p: p.write_text('{"words": ' + DEEP + "}"), "nests its JSON"),
    ("deep embeddings.json", FLAIR, "embeddings.json", lambda p: p.write_text(DEEP), "nests its JSON deeper"),
    ("deep config.json", HF, "model/config.json", lambda p: p.write_text(DEEP), "nests its JSON deeper"),
    ("deep tokenizer", HF, "model/tokenizer_config.json", lambda p: p.write_text(DEEP), "nests its JSON deeper"),
    # C2: absurd sizes, refused with their bounds before anything is allocated
    ("hidden 1e12", TORCH, "tagger.json", config(hidden_size=10**12), "from 0 to 65,536"),
    ("hidden float", TORCH, "tagger.json", config(hidden_size=1e12), "hidden_size"),
    ("embedding negative", TORCH, "tagger.json", config(embedding_size=-5), "embedding_size"),
    ("too many layers", TORCH, "tagger.json", config(layers=10**6), "from 0 to 256"),
    ("big within bounds", TORCH, "tagger.json", config(hidden_size=60_000), "describes a network of"),
    ("flair hidden 1e12", FLAIR, "tagger.json", config(hidden_size=10**12), "from 0 to 65,536"),
    ("flair big within", FLAIR, "tagger.json", config(hidden_size=60_000), "describes a network of"),
    ("hf hidden 1e12", HF, "model/config.json", edit(lambda c: c.update(hidden_size=10**12)), "from 0 to 65,536"),
    ("hf hidden float", HF, "model/config.json", edit(lambda c: c.update(hidden_size=1e12)), "hidden_size"),
    ("hf layers", HF, "model/config.json", edit(lambda c: c.update(num_hidden_layers=10**9)), "from 0 to 256"),
    ("hf vocab negative", HF, "model/config.json", edit(lambda c: c.update(vocab_size=-3)), "vocab_size"),
    (
        "hf big within",
        HF,
        "model/config.json",
        edit(lambda c: c.update(hidden_size=60_000, intermediate_size=60_000, num_attention_heads=2)),
        "describes a network of",
    ),
    # C3: labels that are no BIO tag set
    ("hf without O", HF, "model/config.json", relabel(lambda k, v: "X" if v == "O" else v), "has no 'O' tag"),
    ("hf not BIO", HF, "model/config.json", relabel(lambda k, v: "Name" if v == "B-Name" else v), "not BIO tags"),
    ("hf O twice", HF, "model/config.json", relabel(lambda k, v: "O" if k == "1" else v), "more than once"),
    ("hf ids gap", HF, "model/config.json", edit(lambda c: c["id2label"].pop("1")), "ids 0 to n-1"),
    ("torch without O", TORCH, "vocab.json", edit(lambda v: v.update(tags=["X", *v["tags"][1:]])), "no 'O' tag"),
    # no regular file where one belongs
    ("fifo weights", TORCH, "model.safetensors", replace(os.mkfifo), "not a regular file"),
    ("folder weights", TORCH, "model.safetensors", replace(Path.mkdir), "not a regular file"),
    ("folder tagger.json", TORCH, "tagger.json", replace(Path.mkdir), "not a regular file"),
    ("fifo tagger.json", FLAIR, "tagger.json", replace(os.mkfifo), "not a regular file"),
    ("fifo embeddings", FLAIR, "embeddings.json", replace(os.mkfifo), "not a regular file"),
    ("hf folder weights", HF, "model/model.safetensors", replace(Path.mkdir), "not a regular file"),
    ("hf fifo config", HF, "model/config.json", replace(os.mkfifo), "not a regular file"),
]


@pytest.mark.parametrize(("name", "tagger", "file", "attack", "says"), ATTACKS, ids=[a[0] for a in ATTACKS])
def test_a_crafted_tagger_folder_is_a_clear_error(
    taggers: dict[str, Path],
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    name: str,
    tagger: str,
    file: str,
    attack: Callable[[Path], None],
    says: str,
) -> None:
    folder = shutil.copytree(taggers[tagger], tmp_path / tagger)
    attack(folder / file)
    assert deidentify_cli(folder, tmp_path / "run") == 1
    out, err = capsys.readouterr()
    assert f"error: {folder / file}: " in err and says in err, err
    assert "fix:" in err and "bug" not in err and "Traceback" not in out + err
    assert not (tmp_path / "run" / "out.jsonl").exists()


def test_trust_model_says_when_it_unpickles(
    taggers: dict[str, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A line on stderr when --trust-model unpickles a file, none when there was nothing to unpickle."""
    assert deidentify_cli(taggers["legacy_flair"], tmp_path / "legacy", "--trust-model") == 0
    err = capsys.readouterr().err
    assert f"warning: unpickling {taggers['legacy_flair'] / 'best-model.pt'} (--trust-model)" in err
    assert deidentify_cli(taggers[FLAIR], tmp_path / "safe", "--trust-model") == 0
    assert "unpickling" not in capsys.readouterr().err


# ---- peft adapters ------------------------------------------------------------------------------


def adapter(tmp_path: Path, *files: str) -> Path:
    folder = tmp_path / "adapter"
    folder.mkdir()
    for name in files:
        (folder / name).write_text("{}" if name.endswith(".json") else "x")
    return folder


def test_a_peft_adapter_needs_its_safetensors_not_any(tmp_path: Path) -> None:
    """peft unpickles ``adapter_model.bin`` when ``adapter_model.safetensors`` is missing: another
    ``*.safetensors`` beside it does not make the folder safe."""
    from synthdeid.model_files import adapter_folder

    folder = adapter(tmp_path, "adapter_config.json", "other.safetensors")
    set_trap(folder / "adapter_model.bin", tmp_path / "marker")
    with pytest.raises(InputError, match="adapter_model.bin: is a pickle") as e:
        adapter_folder(folder, "retrain")
    assert "fix: retrain" in str(e.value) and not (tmp_path / "marker").exists()


@pytest.mark.parametrize(
    ("files", "named", "says"),
    [
        (("adapter_model.safetensors",), "adapter_config.json", "is missing"),
        (("adapter_config.json", "other.safetensors"), "adapter_model.safetensors", "is missing"),
    ],
)
def test_a_peft_adapter_lacking_a_file_names_it(tmp_path: Path, files: tuple[str, ...], named: str, says: str) -> None:
    from synthdeid.model_files import adapter_folder

    with pytest.raises(InputError, match=f"{named}: {says}"):
        adapter_folder(adapter(tmp_path, *files), "retrain")


def test_a_peft_adapter_rank_is_bounded(tmp_path: Path) -> None:
    from synthdeid.model_files import adapter_folder

    folder = adapter(tmp_path, "adapter_model.safetensors")
    (folder / "adapter_config.json").write_text(json.dumps({"r": 10**12}))
    with pytest.raises(InputError, match="adapter_config.json: sets r to 1000000000000"):
        adapter_folder(folder, "retrain")


# ---- the LSTM generator's model folder ---------------------------------------------------------


@pytest.fixture(scope="module")
def lstm(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from test_lstm import generator, toy_data

    out = tmp_path_factory.mktemp("lstm")
    generator(max_epochs=1).train(toy_data(60, 10), out)
    return out


LSTM_ATTACKS: list[tuple[str, str, Callable[[Path], Any], str]] = [
    ("trapped model.pt", "model.pt", lambda p: set_trap(p, p.parent / "marker"), "is a pickle that holds more than"),
    ("deep vocab.json", "vocab.json", lambda p: p.write_text(DEEP), "nests its JSON deeper"),
    ("deep config.json", "config.json", lambda p: p.write_text(DEEP), "nests its JSON deeper"),
    ("hidden 1e12", "config.json", edit(lambda c: c.update(hidden_size=10**12, tied=False)), "from 0 to 65,536"),
    ("big within", "config.json", edit(lambda c: c.update(hidden_size=60_000, tied=False)), "describes a network"),
    ("vocab not a list", "vocab.json", lambda p: p.write_text('{"a": 1}'), "not a list of token strings"),
]


@pytest.mark.parametrize(("name", "file", "attack", "says"), LSTM_ATTACKS, ids=[a[0] for a in LSTM_ATTACKS])
def test_a_crafted_lstm_folder_is_a_clear_error(
    lstm: Path, tmp_path: Path, name: str, file: str, attack: Callable[[Path], Any], says: str
) -> None:
    """No advice to retry with ``weights_only=False``: synthdeid refuses pickles, it does not
    suggest loading them."""
    from synthdeid.plugins.lstm.sampler import load

    folder = shutil.copytree(lstm, tmp_path / "lstm")
    attack(folder / file)
    with pytest.raises(InputError) as e:
        load(folder)
    message = str(e.value)
    assert message.startswith(f"{folder / file}: ") and says in message and "fix:" in message, message
    assert "weights_only" not in message and "\x1b" not in message
    assert not (folder / "marker").exists()
