"""``bench/lm.py`` smoke run: two LSTM setups on the same toy text, one table with the time each
needs to reach the reference's validation loss."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from toy_notes import toy_docs

from synthdeid.corpus.formats.conll import default_tokenize
from synthdeid.corpus.inline import encode

ROOT = Path(__file__).resolve().parent.parent
TINY = ["layers=1", "embedding_size=16", "hidden_size=16", "max_epochs=3", "min_count=1", "threads=1", "patience=0"]


def test_bench_lm_smoke(tmp_path: Path) -> None:
    for split, seed, n in (("train", 0, 40), ("dev", 1, 8)):
        lines = [encode(d, default_tokenize) for d in toy_docs(n, seed=seed)]
        (tmp_path / f"{split}.txt").write_text("\n".join(lines) + "\n", encoding="utf-8")
    sets = [f"{setup}.{kv}" for setup in ("lstm_0.1", "lstm_big") for kv in TINY]
    out = subprocess.run(
        [
            sys.executable,
            str(ROOT / "bench" / "lm.py"),
            "--data",
            str(tmp_path),
            "--setups",
            "lstm_0.1",
            "lstm_big",
            "--add",
            "lstm_big=lstm",
            "--set",
            *sets,
            "lstm_big.batch_size=4",
            "--json",
            str(tmp_path / "r.json"),
        ],
        capture_output=True,
        text=True,
        cwd=tmp_path,
    )
    assert out.returncode == 0, out.stderr
    results = json.loads((tmp_path / "r.json").read_text())
    assert set(results) == {"lstm_0.1", "lstm_big"}
    for r in results.values():
        assert r["epochs"] == 3 and len(r["val_loss_per_epoch"]) == 3 and r["train_tokens_per_s"] > 0
    ref = results["lstm_0.1"]
    assert ref["seconds_to_reference_loss"] is not None  # the reference reaches its own best loss
    row = next(line.split() for line in out.stdout.splitlines() if line.startswith("lstm_0.1 "))
    assert row[-1] == "1.00"  # its ratio to itself


def test_bench_lm_without_data_names_the_fix(tmp_path: Path) -> None:
    out = subprocess.run(
        [sys.executable, str(ROOT / "bench" / "lm.py"), "--data", str(tmp_path / "none")],
        capture_output=True,
        text=True,
        cwd=tmp_path,
    )
    assert out.returncode != 0 and "dvc repro inline" in out.stderr


def test_the_default_setups_include_the_studys_lstm_and_gpt2() -> None:
    """The default ``--setups`` name the study's LSTM and GPT-2: the demo's params have no GPT-2
    since it moved to the ``full`` preset, so the bench reads the study with that preset applied."""
    code = "import sys; sys.path.insert(0, 'bench'); import lm; print(' '.join(sorted(lm.setups())))"
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["gpt2_0.1", "lstm_0.1", "study_gpt2", "study_lstm"]
