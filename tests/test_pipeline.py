"""The whole DVC pipeline end to end with the ``smoke`` preset, in a temporary copy of the repository."""

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

pytestmark = pytest.mark.slow  # runs the whole DVC pipeline (`make test-fast` leaves it out)

ROOT = Path(__file__).resolve().parents[1]
BIN = Path(sys.executable).parent


def _env():
    # the smoke preset trains on one thread; a passive OpenMP wait lets two pipelines share 2 cores
    return dict(
        os.environ,
        PATH=f"{BIN}{os.pathsep}{os.environ['PATH']}",
        DVC_NO_ANALYTICS="1",
        OMP_WAIT_POLICY="PASSIVE",
    )


def _run(args, cwd, check=True):
    r = subprocess.run(args, cwd=cwd, env=_env(), capture_output=True, text=True)
    if check and r.returncode:
        raise AssertionError(f"{args} failed:\n{r.stdout}\n{r.stderr}")
    return r


def _copy(dest):
    """The repository's files (less data, tests, examples and the demo's dvc.lock: the smoke study
    runs from scratch) with the smoke preset, committed. (DVC re-reads and rewrites the whole lock
    after each stage: about 1.3 s a stage with the demo's 208 KB lock.)"""
    files = _run(["git", "ls-files", "--cached", "--others", "--exclude-standard"], ROOT).stdout.split()
    for f in files:
        if (f.startswith(("data/", "tests/", "examples/")) and f != "data/raw/README.md") or f == "dvc.lock":
            continue
        if (ROOT / f).is_file():
            (dest / f).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ROOT / f, dest / f)
    _run([str(BIN / "synthdeid"), "preset", "smoke"], dest)
    _run(["git", "init", "-q"], dest)
    _run(["git", "add", "-A"], dest)
    _run(["git", "-c", "user.email=t@t", "-c", "user.name=t", "commit", "-qm", "init"], dest)
    return dest


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    """The whole study run twice from scratch, side by side, in two copies at different paths
    (the twin's outputs are compared with the first's byte for byte)."""
    first, twin = _copy(tmp_path_factory.mktemp("repo")), _copy(tmp_path_factory.mktemp("twin"))
    proc = subprocess.Popen(
        ["dvc", "repro"], cwd=twin, env=_env(), stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True
    )
    try:
        _run(["dvc", "repro"], first)
    finally:
        out, _ = proc.communicate()
    assert proc.returncode == 0, f"dvc repro in the twin copy failed:\n{out}"
    return first, twin


@pytest.fixture(scope="module")
def repo(runs):
    return runs[0]


def _metrics(repo, stage):
    return json.loads((repo / "data" / "metrics" / f"{stage}.json").read_text())


def test_every_stage_accounts_for_every_document(repo):
    corpus = _metrics(repo, "corpus")
    n = yaml.safe_load((repo / "params.yaml").read_text())["corpus"]["demo"]["n_docs"]
    assert corpus["documents_in"] == corpus["documents_out"] == n
    prepare = _metrics(repo, "prepare")
    assert prepare["documents_in"] == prepare["documents_out"] + prepare["documents_rejected"] == n
    assert sum(prepare[s]["documents"] for s in ("train", "dev", "test")) == prepare["documents_out"]
    lm_docs = prepare["train"]["documents"] + prepare["dev"]["documents"]
    for stage in ("annotate", "pseudonymize", "inline"):
        m = _metrics(repo, stage)
        assert m["documents_in"] == m["documents_out"] + m["documents_rejected"] == lm_docs


def test_inline_text_and_prompts(repo):
    lines = (repo / "data/inline/train.txt").read_text(encoding="utf-8").splitlines()
    assert len(lines) == _metrics(repo, "prepare")["train"]["documents"]
    assert all(line.endswith("<EOD>") for line in lines)
    assert any("<NameSTART>" in line for line in lines)
    prompts = [json.loads(x) for x in (repo / "data/inline/prompts.jsonl").read_text().splitlines()]
    assert len(prompts) == _metrics(repo, "prepare")["dev"]["documents"]
    assert all(1 <= len(p["prompt"].split()) <= 3 for p in prompts)


def test_pseudonymized_text_holds_no_original_phi(repo):
    from synthdeid.corpus.formats import read_jsonl

    before = {d.id: d for d in read_jsonl(repo / "data/annotated/train.jsonl")}
    after = {d.id: d for d in read_jsonl(repo / "data/pseudonymized/train.jsonl")}
    assert before.keys() == after.keys()
    for doc_id, d in before.items():
        a = after[doc_id]
        assert [s.label for s in a.spans] == [s.label for s in d.spans]
        for s, t in zip(d.spans, a.spans):
            assert d.surface(s).lower() != a.surface(t).lower()


def test_second_repro_does_nothing_and_outputs_are_byte_identical(runs):
    first, twin = runs
    lock = (first / "dvc.lock").read_text()
    r = _run(["dvc", "repro"], first)
    assert "Running stage" not in r.stdout
    assert (first / "dvc.lock").read_text() == lock
    # the lock holds the md5 of every output: an independent run elsewhere wrote the same bytes
    assert (twin / "dvc.lock").read_text() == lock


CORPORA = ("lstm_p", "lstm_temp", "gpt_p", "gpt_beam", "lstm_dp_p")
MACHINE = "lstm_m"  # lstm_raw_p (an untagged LSTM's notes) annotated by the tagger trained on real gold


def test_synthetic_corpora_and_their_statistics(repo):
    for corpus in CORPORA:
        m = json.loads((repo / f"data/metrics/postprocess/{corpus}.json").read_text())
        assert m["documents_in"] == m["documents_out"] + m["documents_rejected"] > 0
        assert m["tags"]["malformed"] == 0  # tag-safe decoding is on
        assert m["synthetic"]["tokens"] > 0 and m["real"]["phi_instances"] > 0
        rows = (repo / f"data/plots/phi_distribution/{corpus}.csv").read_text().splitlines()
        assert rows[0] == "tag,real_pct,synthetic_pct,difference_pct" and len(rows) >= 17


def test_utility_tables(repo):
    summary = json.loads((repo / "data/metrics/utility_summary.json").read_text())
    settings = summary["settings"]
    assert set(settings) == {"real", "rule", *(f"synthetic-{c}" for c in (*CORPORA, MACHINE)), "augmented-lstm_p"}
    for row in settings.values():
        assert 0.0 <= row["precision"] <= 1.0 and 0.0 <= row["recall"] <= 1.0 and 0.0 <= row["f1"] <= 1.0
    assert settings["real"]["tp"] + settings["real"]["fn"] == summary["gold_entities"] > 0
    report = (repo / "data/reports/utility.md").read_text()
    assert "Table 6" in report and "Table 7" in report and "| real |" in report


def test_privacy_reports_and_review_pages(repo):
    for corpus in (*CORPORA, MACHINE):
        m = json.loads((repo / f"data/metrics/privacy/{corpus}.json").read_text())
        assert 0.0 <= m["rouge"]["rouge3"]["recall"]["mean"] <= 1.0
        assert {"n3", "n5", "n10"} <= set(m["ngram_recall"])
        assert "phi" in m["leakage"] and "passed" in m["gate"]
        assert (repo / f"data/reports/review/{corpus}.html").read_text().startswith("<!DOCTYPE html>")


def test_privacy_by_construction(repo):
    """The DP generator's epsilon, fresh surrogates' leakage before and after, the name probe."""
    dp = json.loads((repo / "data/metrics/train_lm/lstm_dp.json").read_text())["dp"]
    assert 0 < dp["epsilon"] < float("inf") and dp["privacy_unit"] == "note"
    fresh = json.loads((repo / "data/metrics/postprocess/lstm_dp_p.json").read_text())["fresh_surrogates"]
    assert fresh["spans_replaced"] > 0
    assert fresh["phi_leakage_after"]["phi_strings"] == fresh["phi_leakage_before"]["phi_strings"] > 0
    for name in ("lstm", "gpt2", "lstm_dp"):
        probe = json.loads((repo / f"data/metrics/privacy_model/{name}.json").read_text())["name_probe"]
        assert probe["predictions"] > 0 and 0.0 <= probe["train_phi_rate"] <= 1.0


def test_machine_annotation_route(repo):
    from synthdeid.corpus.formats import read_jsonl

    assert json.loads((repo / "data/metrics/train_lm/lstm_raw.json").read_text())["tags"] is False
    vocab = json.loads((repo / "data/models/lstm_raw/vocab.json").read_text())
    assert "<PAR>" in vocab and not any(t.endswith(("START>", "END>")) for t in vocab)
    raw = list(read_jsonl(repo / "data/synthetic/lstm_raw_p/documents.jsonl"))
    assert raw and not any(d.spans for d in raw)
    m = json.loads((repo / f"data/metrics/machine_annotate/{MACHINE}.json").read_text())
    assert m["documents_in"] == len(raw) == m["documents_out"] + m["documents_rejected"]
    annotated = list(read_jsonl(repo / f"data/synthetic/{MACHINE}/documents.jsonl"))
    # every raw note, less those rejected; a note differs only where a span outside the training
    # bounds was removed with its text (counted)
    assert len(raw) - len(annotated) == m["documents_rejected"] == sum(m["rejected_reasons"].values())
    changed = len({d.text for d in annotated} - {d.text for d in raw})
    assert changed <= sum(m["spans_dropped"].values())
    assert m["spans"] == sum(m["spans_per_tag"].values()) == sum(len(d.spans) for d in annotated) > 0
    rows = (repo / f"data/plots/phi_distribution/{MACHINE}.csv").read_text().splitlines()
    assert rows[0] == "tag,real_pct,synthetic_pct,difference_pct"


def test_learning_curve(repo):
    from synthdeid.evaluation.metrics.curves import COLUMNS

    utility = yaml.safe_load((repo / "params.yaml").read_text())["utility"]
    curve = utility["learning_curve"]
    settings = json.loads((repo / "data/metrics/utility_summary.json").read_text())["settings"]
    for corpus in curve["corpora"]:
        rows = (repo / f"data/plots/learning_curve/{corpus}.csv").read_text().splitlines()
        assert rows[0] == ",".join(COLUMNS)
        assert [float(r.split(",")[0]) for r in rows[1:]] == sorted(curve["fractions"])
        m = json.loads((repo / f"data/metrics/learning_curve/{corpus}.json").read_text())
        assert len(m["runs"]) == len(curve["fractions"]) * len(curve["seeds"])
        assert all(0.0 <= r["f1"] <= 1.0 for r in m["runs"])
        # all notes with seed utility.seed is the synthetic-only utility setting: its tagger, scored
        full = [r for r in m["runs"] if r["fraction"] == 1.0 and r["seed"] == utility["seed"]]
        assert [r["f1"] for r in full] == [settings[f"synthetic-{corpus}"]["f1"]]
        assert [r["setting"] for r in m["runs"]] == [f"synthetic-{corpus}" if r in full else None for r in m["runs"]]
    kept = {p.name for p in (repo / "data/taggers").iterdir() if p.is_dir()}  # no subset model is kept
    assert kept == {"real", "augmented-lstm_p", *(f"synthetic-{c}" for c in (*CORPORA, MACHINE))}


def test_exp_run_on_a_decoding_setting_reruns_only_generation_and_after(repo):
    r = _run(["dvc", "exp", "run", "-S", "corpora.lstm_p.config.top_p=0.8"], repo)
    assert "Running stage 'generate@lstm_p'" in r.stdout
    ran = re.findall(r"Running stage '([^']+)'", r.stdout)
    # only lstm_p's stages and the summaries: another corpus's audit, taggers or curve stay cached
    assert {s for s in ran if "@" in s and not s.endswith("@lstm_p")} == set(), ran
    assert "privacy@lstm_p" in ran and "train_tagger_synthetic@lstm_p" in ran
    assert "Running stage 'train_lm@lstm'" not in r.stdout
    assert "Running stage 'generate@gpt_p'" not in r.stdout
    shown = json.loads(_run(["dvc", "exp", "show", "--json"], repo).stdout)
    exps = [rev for row in shown for e in (row.get("experiments") or []) for rev in e["revs"]]
    assert any(
        rev["data"]["params"]["params.yaml"]["data"]["corpora"]["lstm_p"]["config"]["top_p"] == 0.8 for rev in exps
    )
