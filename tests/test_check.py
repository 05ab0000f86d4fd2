"""``synthdeid check``: the corpus and params read before any training; sizes, labels after mapping,
splits, auto settings resolved on this corpus, warnings for a small test split, and problems (with
their fixes) for what will not run."""

from __future__ import annotations

import math

import pytest
import yaml
from stage_runner import repo_params
from toy_notes import toy_docs

from synthdeid import Document, InputError, Span
from synthdeid.cli import main
from synthdeid.corpus.formats import write_jsonl
from synthdeid.tools.check import CheckReport, check_file, f1_halfwidth, inline_length


def check(params: dict, tmp_path=None) -> CheckReport:
    """``synthdeid check`` of ``params`` written to a params file (as the command reads it)."""
    import tempfile
    from pathlib import Path

    folder = Path(tmp_path or tempfile.mkdtemp())
    (folder / "checked.yaml").write_text(yaml.safe_dump(params), encoding="utf-8")
    return check_file(folder / "checked.yaml")


def _project(tmp_path, docs, **corpus) -> dict:
    write_jsonl(docs, tmp_path / "notes.jsonl")
    params = repo_params()
    params["corpus"] |= {"source": "files", "path": str(tmp_path / "notes.jsonl"), "format": "jsonl", **corpus}
    return params


def _with_numbers(docs: list[Document]) -> list[Document]:
    """Each note gets a phone-like run of numbers, so the canaries find a pool."""
    out = []
    for i, d in enumerate(docs):
        extra = " Tel 06 " + " ".join(str(10 + (i + k) % 12) for k in range(4)) + "."
        out.append(Document.create(d.id, d.text + extra, list(d.spans)))
    return out


def test_a_small_corpus_is_described_and_its_settings_resolved(tmp_path) -> None:
    docs = _with_numbers(toy_docs(300, seed=1))
    report = check(_project(tmp_path, docs))
    assert report.facts["documents"] == 300
    assert report.facts["PHI spans"] == sum(len(d.spans) for d in docs)
    assert report.labels == {
        "Date": sum(s.label == "Date" for d in docs for s in d.spans),
        "Name": sum(s.label == "Name" for d in docs for s in d.spans),
    }
    assert report.facts["train split"].startswith("240 documents")
    stream = report.facts["training stream (LSTM tokens: words, tags, <EOD>)"]
    assert stream == sum(inline_length(d) for d in docs if d.id in _train_ids(tmp_path, docs))
    # the LSTM's budget over this stream, capped by max_epochs (params.yaml: 0.9M tokens, 100 epochs)
    lstm = repo_params()["generators"]["lstm"]["config"]
    epochs = min(lstm["max_epochs"], math.ceil(lstm["max_train_tokens"] / stream))
    assert report.resolved["generators.lstm"].startswith(
        f"at most {epochs} epochs by its token budget over the {stream}-token stream, fewer by patience"
    )
    assert "corpora.lstm_p" in report.resolved and "tokens in all" in report.resolved["corpora.lstm_p"]
    assert any("PHI entities" in w and "95% interval" in w for w in report.warnings)  # a few hundred at most
    assert report.problems == []


def _train_ids(tmp_path, docs) -> set[str]:
    from synthdeid.corpus.accounting import Counts
    from synthdeid.corpus.split import prepare_splits

    params = repo_params()
    parts = prepare_splits(docs, [], params["prepare"]["split"], params["prepare"]["seed"], Counts("t"))
    return {d.id for d in parts["train"]}


def test_what_will_not_work_is_a_problem_with_its_fix(tmp_path, capsys) -> None:
    names = ["Jansen", "de Vries", "Bakker", "Visser", "Smit"]  # no numbers at all: the canaries have
    docs = [
        Document.create(f"n{i}", f"Mw. {n} kwam langs.", [Span(4, 4 + len(n), "Name")])  # nothing to
        for i, n in enumerate(names * 8)
    ]  # hide a secret among
    docs = [Document.create(d.id, d.text + f" Kamer {chr(97 + i % 26)}.", list(d.spans)) for i, d in enumerate(docs)]
    bad = Document.create("bad", "Gezien door Piet.", [Span(12, 16, "Arts")])  # a label nobody mapped
    params = _project(tmp_path, [*docs, bad])
    report = check(params)
    assert any("unknown label" in p and "Arts" in p for p in report.problems)
    assert any(
        p.startswith("generators.lstm.canaries:") and "fix: set this generator's canaries to null" in p
        for p in report.problems
    )
    (tmp_path / "params.yaml").write_text(yaml.safe_dump(params), encoding="utf-8")
    assert main(["check", "--params", str(tmp_path / "params.yaml")]) == 1
    out = capsys.readouterr().out
    assert "problem(s): the study will not run as configured" in out and "Arts" in out


def test_an_empty_test_split_is_a_problem(tmp_path) -> None:
    params = _project(tmp_path, _with_numbers(toy_docs(60, seed=3)))
    params["prepare"]["split"] = [0.9, 0.1, 0.0]
    report = check(params)
    assert any("test split is empty" in p and "corpus.test_path" in p for p in report.problems)


def test_f1_halfwidth() -> None:
    assert f1_halfwidth(100) == pytest.approx(1.96 * 0.04)
    assert f1_halfwidth(41) > 0.12 > f1_halfwidth(44)


def test_check_warns_when_common_ages_would_dominate_the_raw_phi_leakage(tmp_path) -> None:
    """The Norwegian-like corpus of issue #28: Age is a third of the distinct multi-token PHI, most
    of it ages under 90 or common values; check says so, and that the gate's figure leaves them out."""
    from norwegian_notes import real_notes

    params = _project(tmp_path, real_notes())
    age = [w for w in check(params).warnings if w.startswith("Age: ")]
    assert len(age) == 1 and "raw PHI leakage figure (leakage.phi.multi_token_rate)" in age[0]
    assert "the privacy gate limits the identifying figure, which leaves them out" in age[0]
    del params["privacy"]["metrics"]["leakage"]  # no leakage measured: nothing to warn about
    params["privacy"]["gate"] = {"override": True}  # (the gate's thresholds are leakage figures)
    assert not any(w.startswith("Age: ") for w in check(params).warnings)


@pytest.mark.parametrize(
    ("key", "value", "message"),
    [
        ("prepare.seed", "abc", "prepare.seed: must be a whole number, not 'abc'"),
        ("prepare.split", "abc", "prepare.split: must be a list, e.g. [a, b], not 'abc'"),
        ("corpus.demo.n_docs", -5, "corpus.demo.n_docs: must be greater than or equal to 1, not -5"),
        (
            "taggers.bilstm_crf.config.max_epochs",
            "ten",
            "taggers.bilstm_crf.config.max_epochs: must be a whole number, not 'ten'",
        ),
    ],
)
def test_a_badly_typed_value_is_an_error_naming_its_key(key, value, message, tmp_path) -> None:
    params = repo_params()
    params["corpus"]["demo"]["n_docs"] = 60
    *parents, last = key.split(".")
    node = params
    for part in parents:
        node = node[part]
    node[last] = value
    with pytest.raises(InputError) as caught:
        check(params, tmp_path)
    assert caught.value.problem == message and caught.value.path == str(tmp_path / "checked.yaml")
    assert caught.value.fix and caught.value.line


def test_records_with_one_problem_are_one_problem_with_their_count(tmp_path) -> None:
    docs = toy_docs(40, seed=4)
    bad = [Document.create(f"bad{i}", f"Gezien door Piet {i}.", [Span(12, 16, "Arts")]) for i in range(7)]
    other = Document.create("bad-other", "Gezien in Zwolle.", [Span(10, 16, "Stad")])
    report = check(_project(tmp_path, [*docs, *bad, other]))
    arts = [p for p in report.problems if "'Arts'" in p]
    assert len(arts) == 1 and arts[0].startswith("7 records: ") and arts[0].count("fix:") == 1
    assert "document 'bad0'" in arts[0] and "document 'bad4'" in arts[0] and "and 2 more" in arts[0]
    assert "document 'bad5'" not in arts[0]
    stad = [p for p in report.problems if "'Stad'" in p]
    assert len(stad) == 1 and not stad[0].startswith("1 records") and "bad-other" in stad[0]


def test_a_tagger_annotator_without_a_trained_tagger_is_a_problem(tmp_path) -> None:
    params = _project(tmp_path, _with_numbers(toy_docs(60, seed=5)))
    (tmp_path / "empty-model").mkdir()
    params["annotate"] = {"annotator": "tagger", "config": {"model": str(tmp_path / "empty-model"), "language": "nl"}}
    report = check(params)
    found = [p for p in report.problems if p.startswith("annotate.annotator: 'tagger' cannot be built")]
    assert len(found) == 1 and "tagger.json" in found[0] and "empty-model" in found[0], report.problems
