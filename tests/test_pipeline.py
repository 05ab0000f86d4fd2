"""The DVC pipeline end to end in a temporary copy of the repository, on a small demo corpus."""

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[1]
BIN = Path(sys.executable).parent


def _run(args, cwd, check=True):
    env = dict(os.environ, PATH=f"{BIN}{os.pathsep}{os.environ['PATH']}", DVC_NO_ANALYTICS="1")
    r = subprocess.run(args, cwd=cwd, env=env, capture_output=True, text=True)
    if check and r.returncode:
        raise AssertionError(f"{args} failed:\n{r.stdout}\n{r.stderr}")
    return r


@pytest.fixture(scope="module")
def repo(tmp_path_factory):
    dest = tmp_path_factory.mktemp("repo")
    files = _run(["git", "ls-files", "--cached", "--others", "--exclude-standard"], ROOT).stdout.split()
    for f in files:
        if f.startswith(("data/", "tests/", "examples/")) and f != "data/raw/README.md":
            continue
        if (ROOT / f).is_file():
            (dest / f).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ROOT / f, dest / f)
    params = yaml.safe_load((dest / "params.yaml").read_text())
    params["corpus"]["demo"]["n_docs"] = 120
    (dest / "params.yaml").write_text(yaml.safe_dump(params, sort_keys=False))
    _run(["git", "init", "-q"], dest)
    _run(["git", "-c", "user.email=t@t", "-c", "user.name=t", "commit", "-qam", "init", "--allow-empty"], dest, check=False)
    _run(["git", "add", "-A"], dest)
    _run(["git", "-c", "user.email=t@t", "-c", "user.name=t", "commit", "-qm", "init"], dest)
    _run(["dvc", "repro"], dest)
    return dest


def _metrics(repo, stage):
    return json.loads((repo / "data" / "metrics" / f"{stage}.json").read_text())


def test_every_stage_accounts_for_every_document(repo):
    corpus = _metrics(repo, "corpus")
    assert corpus["documents_in"] == corpus["documents_out"] == 120
    prepare = _metrics(repo, "prepare")
    assert prepare["documents_in"] == prepare["documents_out"] + prepare["documents_rejected"] == 120
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
    from synthdeid.formats import read_jsonl

    before = {d.id: d for d in read_jsonl(repo / "data/annotated/train.jsonl")}
    after = {d.id: d for d in read_jsonl(repo / "data/pseudonymized/train.jsonl")}
    assert before.keys() == after.keys()
    for doc_id, d in before.items():
        a = after[doc_id]
        assert [s.label for s in a.spans] == [s.label for s in d.spans]
        for s, t in zip(d.spans, a.spans):
            assert d.surface(s).lower() != a.surface(t).lower()


def test_second_repro_does_nothing_and_outputs_are_byte_identical(repo):
    lock = (repo / "dvc.lock").read_text()
    r = _run(["dvc", "repro"], repo)
    assert "Running stage" not in r.stdout
    _run(["dvc", "repro", "--force"], repo)
    assert (repo / "dvc.lock").read_text() == lock


def test_exp_run_with_a_changed_seed(repo):
    r = _run(["dvc", "exp", "run", "-S", "prepare.seed=1"], repo)
    assert "Running stage 'prepare'" in r.stdout
    assert "Running stage 'corpus'" not in r.stdout
    shown = _run(["dvc", "exp", "show", "--json"], repo).stdout
    assert '"prepare.seed"' in shown or "prepare" in shown
