"""``bench/tagger.py`` smoke run: every tagger on the same toy notes, one table with ratios to the
flair reference measured in the same run."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from toy_notes import toy_docs

from synthdeid.corpus.formats import write_jsonl

pytestmark = pytest.mark.slow  # trains every tagger (`make test-fast` leaves it out)

ROOT = Path(__file__).resolve().parent.parent


def test_bench_tagger_smoke(tmp_path: Path) -> None:
    write_jsonl(toy_docs(12, seed=0), tmp_path / "train.jsonl")
    write_jsonl(toy_docs(4, seed=1), tmp_path / "dev.jsonl")
    out = subprocess.run(
        [
            sys.executable,
            str(ROOT / "bench" / "tagger.py"),
            "--data",
            str(tmp_path),
            "--language",
            "nl",
            "--epochs",
            "1",
            "--torch-max-epochs",
            "2",
            "--threads",
            "1",
            "--json",
            str(tmp_path / "r.json"),
            "--taggers",
            "flair_chars",
            "torch_0.1",
            "torch",
            "small",
            "--baseline",
            "HEAD",  # any commit: a clone may hold no other
            "--add",
            "small=torch",
            "--set",
            "small.hidden_size=8",
        ],
        capture_output=True,
        text=True,
        check=True,
        cwd=tmp_path,
    )
    results = json.loads((tmp_path / "r.json").read_text())
    assert set(results) == {"flair_chars", "torch_0.1", "torch", "small"}
    assert results["small"]["config"] == {**results["torch"]["config"], "hidden_size": 8}  # a copy, changed
    assert "hidden_size" not in results["torch"]["config"]
    assert results["flair_chars"]["epochs"] == 1 and results["torch_0.1"]["epochs"] == 2
    for r in results.values():
        assert r["train_tokens_per_s"] > 0 and r["predict_tokens_per_s"] > 0 and 0 <= r["dev_f1"] <= 1
        assert len(r["dev_f1_per_epoch"]) == r["epochs"]
    rows = {
        line.split()[0]: line.split()
        for line in out.stdout.splitlines()
        if line.split()[:1] in (["flair_chars"], ["torch_0.1"], ["torch"]) and len(line.split()) == 8
    }
    assert rows["torch_0.1"][4] == "1.00" and rows["torch_0.1"][6] == "1.00"  # the reference against itself
    ratio = results["torch"]["train_tokens_per_s"] / results["torch_0.1"]["train_tokens_per_s"]
    assert rows["torch"][4] == f"{ratio:.2f}"


def test_bench_tagger_without_data_names_the_fix(tmp_path: Path) -> None:
    out = subprocess.run(
        [sys.executable, str(ROOT / "bench" / "tagger.py"), "--data", str(tmp_path / "none"), "--language", "nl"],
        capture_output=True,
        text=True,
        cwd=tmp_path,
    )
    assert out.returncode != 0 and "dvc repro prepare" in out.stderr


def test_bench_tagger_names_the_setups_on_an_unknown_one(tmp_path: Path) -> None:
    write_jsonl(toy_docs(2, seed=0), tmp_path / "train.jsonl")
    write_jsonl(toy_docs(2, seed=1), tmp_path / "dev.jsonl")
    bench = [sys.executable, str(ROOT / "bench" / "tagger.py"), "--data", str(tmp_path), "--language", "nl"]
    for extra, says in (
        (["--add", "small=nonesuch"], "no setup 'nonesuch'; setups: torch_0.1, torch"),
        (["--set", "nonesuch.hidden_size=8"], "no setup 'nonesuch'; setups: torch_0.1, torch"),
    ):
        out = subprocess.run([*bench, *extra], capture_output=True, text=True, cwd=tmp_path)
        assert out.returncode != 0 and says in out.stderr


def test_rounds_take_turns_and_report_medians_and_ratio_ranges(tmp_path: Path) -> None:
    write_jsonl(toy_docs(8, seed=0), tmp_path / "train.jsonl")
    write_jsonl(toy_docs(3, seed=1), tmp_path / "dev.jsonl")
    out = subprocess.run(
        [
            *(sys.executable, str(ROOT / "bench" / "tagger.py"), "--data", str(tmp_path), "--language", "nl"),
            *("--torch-max-epochs", "1", "--threads", "1", "--baseline", "HEAD", "--rounds", "3"),
            *("--taggers", "torch_0.1", "torch", "--json", str(tmp_path / "r.json")),
        ],
        capture_output=True,
        text=True,
        check=True,
        cwd=tmp_path,
    )
    order = [line.split(":")[1].strip() for line in out.stdout.splitlines() if line.startswith("round ")]
    assert order == ["torch_0.1", "torch"] * 3  # the setups take turns within each round
    results = json.loads((tmp_path / "r.json").read_text())
    for name, r in results.items():
        assert r["rounds"] == 3
        for key in ("train_tokens_per_s", "predict_tokens_per_s"):
            speeds = r[f"{key}_rounds"]
            assert len(speeds) == 3 and r[key] == sorted(speeds)[1]  # the median of the three
            ratio = r[f"{key}_ratio"]
            assert ratio["min"] <= ratio["median"] <= ratio["max"]
            if name == "torch_0.1":
                assert ratio == {"median": 1.0, "min": 1.0, "max": 1.0}
        assert "dev_f1_rounds" not in r  # the same training three times gives the same tagger
    assert "medians of 3 rounds" in out.stdout
