"""The first pipeline stages (corpus -> prepare -> annotate -> pseudonymize -> inline) on a small
sample of the real MEDDOCAN files with the Spanish pack and the MEDDOCAN preset: every document
is accounted for, and no real name of the gold spans survives pseudonymization.

MEDDOCAN (CC BY 4.0) is read from ../shared/data/meddocan and copied only into a temporary
folder; the test skips when it is absent."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest
import yaml
from stage_runner import FIRST_STAGES, ROOT, repo_params, run_stages, stage_metrics

from synthdeid.corpus.formats import read_jsonl
from synthdeid.corpus_io import read_documents
from synthdeid.tools.presets import load_preset, merge

MEDDOCAN = ROOT.parent / "shared" / "data" / "meddocan"
SAMPLE = {"train": 16, "dev": 8}
NAME_LABELS = ("NOMBRE_SUJETO_ASISTENCIA", "NOMBRE_PERSONAL_SANITARIO")

pytestmark = pytest.mark.skipif(not MEDDOCAN.is_dir(), reason="MEDDOCAN is not in ../shared/data/meddocan")


@pytest.fixture(scope="module")
def workspace(tmp_path_factory: pytest.TempPathFactory) -> Path:
    ws = tmp_path_factory.mktemp("meddocan")
    for split, n in SAMPLE.items():
        (ws / "sample" / split).mkdir(parents=True)
        for stem in sorted(p.stem for p in (MEDDOCAN / split).glob("*.txt"))[:n]:
            for ext in (".txt", ".ann"):
                shutil.copy(MEDDOCAN / split / f"{stem}{ext}", ws / "sample" / split)
    params = repo_params()
    merge(params, json.loads(json.dumps(load_preset("meddocan", ROOT))))  # plain types for PyYAML
    params["corpus"]["path"], params["corpus"]["test_path"] = "sample/train", "sample/dev"
    params["prepare"]["min_dev_notes"] = 0  # a sample of a few notes: its 2 dev notes as the split gives them
    run_stages(ws, params)
    return ws


def test_every_stage_accounts_for_every_document(workspace: Path) -> None:
    n = sum(SAMPLE.values())
    for stage in FIRST_STAGES:
        m = stage_metrics(workspace, stage)
        assert m["documents_in"] == m["documents_out"] + m["documents_rejected"], stage
    assert stage_metrics(workspace, "corpus")["documents_in"] == n
    prepare = stage_metrics(workspace, "prepare")
    assert prepare["documents_in"] == n
    assert prepare["test"]["documents"] == SAMPLE["dev"]  # MEDDOCAN dev is the test split
    lm = prepare["train"]["documents"] + prepare["dev"]["documents"]
    assert lm + prepare["test"]["documents"] + prepare["documents_rejected"] == n
    for stage in ("annotate", "pseudonymize", "inline"):
        assert stage_metrics(workspace, stage)["documents_in"] == lm, stage
    assert set(prepare["test"]["spans_per_label"]) <= {
        "Name",
        "Age",
        "Date",
        "Address",
        "Other",
        "ID",
        "SSN",
        "Email",
        "Hospital",
        "Phone_fax",
        "Organization_Company",
        "Care_Institute",
        "Profession",
    }


def _gold_names() -> dict[str, list[tuple[str, int]]]:
    """Per document: its gold name strings and how often each occurs outside any gold span (a
    mention the annotators missed, which no span-based pseudonymizer can see)."""
    out = {}
    for doc in read_documents(MEDDOCAN / "train", "brat"):
        names = {doc.text[s.start : s.end] for s in doc.spans if s.label in NAME_LABELS}
        counts = []
        for name in names:
            hits = [m.start() for m in re.finditer(rf"\b{re.escape(name)}\b", doc.text)]
            missed = [h for h in hits if not any(s.start <= h < s.end for s in doc.spans)]
            counts.append((name, len(missed)))
        out[doc.id] = counts
    return out


def test_no_real_name_survives_pseudonymization(workspace: Path) -> None:
    gold = _gold_names()
    checked = 0
    for split in ("train", "dev"):
        for doc in read_jsonl(workspace / f"data/pseudonymized/{split}.jsonl"):
            for name, missed in gold[doc.id]:
                assert len(re.findall(rf"\b{re.escape(name)}\b", doc.text)) <= missed, (doc.id, name)
                checked += 1
    assert checked > 20
    prompts = (workspace / "data/inline/prompts.jsonl").read_text(encoding="utf-8")
    for counts in gold.values():
        for name, _ in counts:
            assert not re.search(rf"\b{re.escape(name)}\b", prompts)


def test_inline_text_keeps_every_tag_whole(workspace: Path) -> None:
    pseudo = list(read_jsonl(workspace / "data/pseudonymized/train.jsonl"))
    lines = (workspace / "data/inline/train.txt").read_text(encoding="utf-8").splitlines()
    assert len(lines) == len(pseudo)
    for doc, line in zip(pseudo, lines):
        tokens = line.split()
        assert tokens[-1] == "<EOD>"
        starts = [t for t in tokens if t.endswith("START>")]
        assert len(starts) == len(doc.spans) == len([t for t in tokens if t.endswith("END>")])
        assert all(re.fullmatch(r"<[A-Za-z_]+(?:START|END)>|<PAR>|<EOD>", t) for t in tokens if "<" in t and ">" in t)


def test_pseudonymize_is_deterministic(workspace: Path) -> None:
    before = (workspace / "data/pseudonymized/train.jsonl").read_bytes()
    run_stages(workspace, yaml.safe_load((workspace / "params.yaml").read_text(encoding="utf-8")), ["pseudonymize"])
    assert (workspace / "data/pseudonymized/train.jsonl").read_bytes() == before
