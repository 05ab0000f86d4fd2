"""A small real corpus through the pipeline to its synthetic corpus: the first 50 MEDDOCAN training
notes (45 train, 5 dev), a small LSTM and a 30k-token ``lstm_p`` corpus. The rare words of the
synthetic notes must be PHI about as often as the real notes' are (``rare_words`` of the
postprocess metrics): with ``generate.unknown_words: never`` (the LM never writes ``<unk>``, what
synthdeid did before) nearly every rare word is a surrogate, and a tagger trained on the corpus
learns "unseen word = PHI"; with the default the LM's ``<unk>`` are filled with ordinary words.

MEDDOCAN (CC BY 4.0) is read from ../shared/data/meddocan and copied only into a temporary
folder; the test skips when it is absent."""

from __future__ import annotations

import importlib
import json
import shutil
import sys
from pathlib import Path
from typing import Any

import pytest
from stage_runner import FIRST_STAGES, ROOT, repo_params, run_stages

from synthdeid.corpus.formats import read_jsonl
from synthdeid.plugin_system.manager import registry

MEDDOCAN = ROOT.parent / "shared" / "data" / "meddocan"
TRAIN_NOTES, TEST_NOTES = 50, 5

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(not MEDDOCAN.is_dir(), reason="MEDDOCAN is not in ../shared/data/meddocan"),
]


def _params() -> dict[str, Any]:
    params = repo_params()
    params["corpus"] |= {"source": "files", "path": "sample/train", "format": "brat", "test_path": "sample/dev"}
    params["language"] = "es"
    params["tags"]["mapping"] = "meddocan"
    params["prepare"]["split"] = [0.9, 0.1, 0.0]
    params["prepare"]["min_dev_notes"] = 0  # the study: 45 train and 5 dev notes
    params["utility"]["rule_baseline"] = None
    small = {"max_epochs": 20, "threads": 1}  # the demo's LSTM, fewer epochs (the study's stops near 20 by patience)
    params["generators"]["lstm"]["config"] = small
    params["generators"]["lstm_raw"]["config"] = small
    params["corpora"]["lstm_p"]["target_tokens"] = 30_000
    return params


def _stage(ws: Path, params: dict[str, Any], module: str, arg: str, monkeypatch: pytest.MonkeyPatch) -> None:
    (ws / "params.yaml").write_text(json.dumps(params), encoding="utf-8")
    monkeypatch.chdir(ws)
    monkeypatch.setattr(sys, "argv", [module, arg])
    importlib.import_module(f"synthdeid.stages.{module}").main()


@pytest.fixture(scope="module")
def study(tmp_path_factory: pytest.TempPathFactory) -> Path:
    ws = tmp_path_factory.mktemp("small-meddocan")
    for split, n in (("train", TRAIN_NOTES), ("dev", TEST_NOTES)):
        (ws / "sample" / split).mkdir(parents=True)
        for stem in sorted(p.stem for p in (MEDDOCAN / split).glob("*.txt"))[:n]:
            for ext in (".txt", ".ann"):
                shutil.copy(MEDDOCAN / split / f"{stem}{ext}", ws / "sample" / split)
    run_stages(ws, _params(), FIRST_STAGES)
    with pytest.MonkeyPatch.context() as mp:
        _stage(ws, _params(), "train_lm", "lstm", mp)
    return ws


def _corpus(study: Path, unknown_words: str, monkeypatch: pytest.MonkeyPatch) -> tuple[dict[str, Any], list[Any]]:
    params = _params()
    params["generate"]["unknown_words"] = unknown_words
    for stage in ("generate", "postprocess"):
        _stage(study, params, stage, "lstm_p", monkeypatch)
    metrics = json.loads((study / "data/metrics/postprocess/lstm_p.json").read_text(encoding="utf-8"))
    return metrics, list(read_jsonl(study / "data/synthetic/lstm_p/documents.jsonl"))


def test_the_rare_words_of_a_small_corpus_are_as_often_phi_as_the_real_notes(
    study: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    never, _ = _corpus(study, "never", monkeypatch)
    rare = never["rare_words"]
    assert 0.05 < rare["real"]["phi_share"] < 0.3  # MEDDOCAN's rare words are mostly ordinary
    assert rare["synthetic_singletons"]["phi_share"] > 0.75  # without <unk>: mostly surrogates
    assert rare["gap_points"] > 40 and never["unknown_words"]["filled"] == 0

    filled, docs = _corpus(study, "auto", monkeypatch)
    rare = filled["rare_words"]
    assert abs(rare["gap_points"]) <= 15, rare
    assert rare["synthetic_singletons"]["phi_share"] < 0.3
    fills = filled["unknown_words"]
    assert fills["filled"] > 1000 and fills["by_shape"]["lower"] > fills["by_shape"].get("title", 0)
    text = " ".join(d.text for d in docs)
    assert "<unk>" not in text
    words = set(registry("language").create("es").ordinary_words())
    train = {w.lower() for d in read_jsonl(study / "data/prepared/train.jsonl") for w in d.text.split()}
    synthetic = {w for w in text.lower().split() if w.isalpha()}
    filled_words = synthetic & words - train
    assert len(filled_words) > 500  # ordinary words none of the training notes hold
