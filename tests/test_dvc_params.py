"""Each stage depends on the params it reads for its own item: a stage of one corpus, generator or
tagger names that entry (``corpora.${key}``, ``taggers.${utility.tagger}``), never the whole
section, so that ``dvc exp run -S corpora.lstm_p.config.top_p=0.8`` re-runs only ``lstm_p``'s
stages. Stages reading a corpus by name (a matrix item that may be a machine-annotated corpus) read
its generator and fresh-surrogate setting from its ``origin.json`` instead (a dep that
``tests/test_paths.py`` holds)."""

from __future__ import annotations

from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[1]
SECTIONS = ("corpora", "machine_annotated", "generators", "taggers")
"""Sections of one entry per corpus, generator or tagger."""
WHOLE_OK = {"report": "summarizes every corpus, generator and tagger"}


def _stages() -> dict[str, dict]:
    stages = yaml.safe_load((ROOT / "dvc.yaml").read_text(encoding="utf-8"))["stages"]
    return {name: stage.get("do", stage) for name, stage in stages.items()}


def _param_names(stage: dict) -> list[str]:
    return [p if isinstance(p, str) else next(iter(p)) for p in stage.get("params", [])]


def test_no_stage_but_the_report_depends_on_a_whole_section_of_entries() -> None:
    wide = {
        name: [p for p in _param_names(stage) if p in SECTIONS]
        for name, stage in _stages().items()
        if name not in WHOLE_OK
    }
    wide = {name: params for name, params in wide.items() if params}
    assert not wide, (
        f"stages depending on whole sections: {wide}; name the entry the stage reads "
        "(corpora.${key}, taggers.${utility.tagger}) or read it from the corpus's origin.json"
    )


def test_the_check_fails_on_a_whole_section() -> None:
    stage = {"params": ["language", "corpora", {"params.yaml": ["x"]}]}
    assert [p for p in _param_names(stage) if p in SECTIONS] == ["corpora"]
