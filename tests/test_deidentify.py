"""``synthdeid deidentify``: a trained tagger (or an annotator) over new notes, writing them
annotated, with surrogates or redacted; predictions equal the tagger's own, notes stream."""

from __future__ import annotations

import itertools
import json
from pathlib import Path

import pytest
from toy_notes import toy_docs

from synthdeid import Document, InputError, Span
from synthdeid.cli import main
from synthdeid.corpus_io import read_documents, write_documents
from synthdeid.phi.deidentify import DeidCounts, deidentify, load_annotator, redact
from synthdeid.phi.every_occurrence import add_every_occurrence
from synthdeid.phi.surrogate_key import SurrogateKey
from synthdeid.plugin_system.manager import registry
from synthdeid.plugins.torch_tagger import create
from synthdeid.spec.build import annotator as build_annotator

FAST = {"threads": 1, "batch_size": 8, "hidden_size": 32, "embedding_size": 32, "char_filters": 16}


@pytest.fixture(scope="module")
def model(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("deid_tagger")
    pack = registry("language").create("nl")
    create({**FAST, "max_epochs": 12, "patience": 4}).train(
        toy_docs(40, seed=0), toy_docs(10, seed=1), out, pack.tokenize
    )
    return out


@pytest.fixture(scope="module")
def notes() -> list[Document]:
    return toy_docs(70, seed=5)  # more than one batch of 64 notes


def test_annotate_gives_the_taggers_own_predictions(model: Path, notes: list[Document]) -> None:
    pack = registry("language").create("nl")
    predicted = create({}).load(model, pack.tokenize).predict(notes)
    counts = DeidCounts()
    out = list(deidentify(notes, load_annotator(model, None, "nl", create=build_annotator), "annotate", counts=counts))
    assert [d.id for d in out] == [d.id for d in notes] and [d.text for d in out] == [d.text for d in notes]
    expected = _with_every_occurrence(notes, predicted)
    assert [list(d.spans) for d in out] == [list(e.spans) for e in expected]
    assert all(set(p) <= set(d.spans) for p, d in zip(predicted, out))  # the tagger's own spans, and more
    assert counts.notes == 70 and counts.spans_in == sum(len(d.spans) for d in notes)
    assert counts.spans_found == sum(len(p) for p in predicted) > 0
    assert counts.added == sum(len(e.spans) - len(p) for e, p in zip(expected, predicted))


def _with_every_occurrence(notes: list[Document], predicted: list) -> list[Document]:
    return [
        add_every_occurrence(Document.create(d.id, d.text, p, allow_empty=True))[0] for d, p in zip(notes, predicted)
    ]


def test_surrogates_replace_every_span_consistently_and_keyed(model: Path, notes: list[Document]) -> None:
    annotator = load_annotator(model, None, "nl", create=build_annotator)
    pack = registry("language").create("nl")
    found = list(deidentify(notes[:20], annotator, "annotate"))
    key = SurrogateKey(bytes(range(32)))
    a = list(deidentify(notes[:20], annotator, "surrogate", pack, key=key))
    b = list(deidentify(notes[:20], annotator, "surrogate", pack, key=SurrogateKey(bytes(range(32)))))
    c = list(deidentify(notes[:20], annotator, "surrogate", pack, key=SurrogateKey(bytes(range(1, 33)))))
    fresh = [list(deidentify(notes[:20], annotator, "surrogate", pack)) for _ in range(2)]
    assert a == b and a != c and fresh[0] != fresh[1]  # no key given: a fresh secret each run
    for before, after in zip(found, a):
        assert [s.label for s in after.spans] == [s.label for s in before.spans]
        for s, t in zip(before.spans, after.spans):
            assert after.surface(t) != before.surface(s)  # never the original
        originals = {before.surface(s) for s in before.spans if s.label == "Name"}
        mapped = {before.surface(s): after.surface(t) for s, t in zip(before.spans, after.spans)}
        assert len({mapped[o] for o in originals}) == len(originals)  # one surrogate per name


def test_redact_marks_each_span_or_masks_it() -> None:
    doc = Document.create("n", "Dhr. Jansen kwam op 12 maart.", [Span(5, 11, "Name"), Span(20, 28, "Date")])
    red = redact(doc)
    assert red.text == "Dhr. [Name] kwam op [Date]."
    assert [red.surface(s) for s in red.spans] == ["[Name]", "[Date]"]
    assert redact(doc, "***").text == "Dhr. *** kwam op ***."
    with pytest.raises(InputError, match="mask is empty"):
        redact(doc, "")


def test_notes_stream_through(model: Path) -> None:
    def endless():
        for i in itertools.count():
            yield Document.create(f"n{i}", "Mw. Jansen belde op 3 januari.")

    annotator = load_annotator(model, None, "nl", create=build_annotator)
    first = list(itertools.islice(deidentify(endless(), annotator, "redact"), 3))
    assert [d.id for d in first] == ["n0", "n1", "n2"]


def test_cli_reads_a_folder_of_text_notes_and_writes_every_mode(model: Path, tmp_path: Path, capsys) -> None:
    src = tmp_path / "notes"
    (src / "ward").mkdir(parents=True)
    for doc in toy_docs(5, seed=9):
        (src / "ward" / f"{doc.id}.txt").write_text(doc.text, encoding="utf-8")
    common = ["--model", str(model), "--language", "nl"]
    assert main(["deidentify", str(src), str(tmp_path / "ann.jsonl"), *common]) == 0
    assert "annotate: 5 notes in, 5 out, 0 rejected" in capsys.readouterr().out
    annotated = list(read_documents(tmp_path / "ann.jsonl"))
    assert [d.id for d in annotated] == [f"ward/d9-{i}" for i in range(5)]
    assert main(["deidentify", str(src), str(tmp_path / "red"), *common, "--mode", "redact"]) == 0
    redacted = list(read_documents(tmp_path / "red"))  # a BRAT folder: .txt notes with their .ann spans
    assert all(d.surface(s) == f"[{s.label}]" for d in redacted for s in d.spans)
    assert (
        main(
            [
                "deidentify",
                str(src),
                str(tmp_path / "plain"),
                *common,
                "--mode",
                "surrogate",
                "--to",
                "text",
                "--keep-ids",
            ]
        )
        == 0
    )
    plain = sorted((tmp_path / "plain" / "ward").glob("*.txt"))
    assert len(plain) == 5 and not list((tmp_path / "plain").rglob("*.ann"))
    for doc, path in zip(annotated, plain):
        text = path.read_text(encoding="utf-8")
        assert all(doc.surface(s) not in text for s in doc.spans if s.label == "Name")
    capsys.readouterr()


@pytest.mark.parametrize("source", ["notes.jsonl", "brat", "notes.conll", "notes.inline"])
def test_cli_reads_every_annotated_format_alike(model: Path, tmp_path: Path, capsys, source: str) -> None:
    """The same notes given as JSONL, BRAT, CoNLL or inline get the same predicted spans (the
    input's own spans are counted, never kept)."""
    docs = toy_docs(6, seed=11)
    write_documents(docs, tmp_path / source)
    out = tmp_path / "found.jsonl"
    assert main(["deidentify", str(tmp_path / source), str(out), "--model", str(model), "--language", "nl"]) == 0
    report = capsys.readouterr().out
    assert (
        "annotate: 6 notes in, 6 out, 0 rejected" in report
        and f"the input had {sum(len(d.spans) for d in docs)} spans" in report
    )
    found = {d.id: d for d in read_documents(out)}
    inputs = [found[d.id] for d in docs]
    predicted = create({}).load(model, registry("language").create("nl").tokenize).predict(inputs)
    expected = _with_every_occurrence(inputs, predicted)
    assert [list(found[d.id].spans) for d in docs] == [list(e.spans) for e in expected]
    if source != "notes.conll":  # CoNLL holds tokens, not the text's spacing
        assert {d.id: d.text for d in docs} == {i: d.text for i, d in found.items()}


def test_cli_errors_name_the_problem(model: Path, tmp_path: Path, capsys) -> None:
    bad = tmp_path / "bad.jsonl"
    bad.write_text(json.dumps({"id": "a", "text": "Jan"}) + "\nnot json\n")
    common = ["--model", str(model), "--language", "nl"]
    assert main(["deidentify", str(bad), str(tmp_path / "s.jsonl"), *common, "--strict"]) == 1
    err = capsys.readouterr().err
    assert f"{bad}:2" in err and "malformed JSON" in err
    assert not (tmp_path / "s.jsonl").exists() and not (tmp_path / "s.jsonl.rejects.jsonl").exists()
    # without --strict the bad line is listed with its reason and the rest goes on: in = out + rejected
    assert main(["deidentify", str(bad), str(tmp_path / "o.jsonl"), *common]) == 0
    captured = capsys.readouterr()
    assert "2 notes in, 1 out, 1 rejected" in captured.out and "o.jsonl.rejects.jsonl" in captured.err
    [rejected] = [json.loads(line) for line in (tmp_path / "o.jsonl.rejects.jsonl").read_text().splitlines()]
    assert rejected["where"] == f"{bad}:2" and "malformed JSON" in rejected["reason"]
    assert [d.id for d in read_documents(tmp_path / "o.jsonl")] == ["a"]
    good = tmp_path / "good.jsonl"
    write_documents(toy_docs(2, seed=3), good)
    assert (
        main(
            [
                "deidentify",
                str(good),
                str(tmp_path / "x.txt"),
                "--model",
                str(model),
                "--language",
                "nl",
                "--to",
                "text",
            ]
        )
        == 1
    )
    assert "plain text cannot hold" in capsys.readouterr().err
    assert (
        main(
            ["deidentify", str(good), str(tmp_path / "y.jsonl"), "--model", str(tmp_path / "nope"), "--language", "nl"]
        )
        == 1
    )
    assert "no such tagger directory" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["deidentify", str(good), str(tmp_path / "z.jsonl"), "--model", str(model), "--annotator", "deduce"])


def test_the_rule_annotator_works_the_same_way(tmp_path: Path) -> None:
    doc = Document.create("n", "Mw. Jansen belde op 12 maart 2020 vanuit Utrecht.")
    [out] = deidentify([doc], load_annotator(None, "deduce", "nl", create=build_annotator), "redact")
    assert "Jansen" not in out.text and "[Name]" in out.text


def test_min_confidence_favours_recall_and_needs_probabilities(model: Path, notes: list[Document]) -> None:
    best = list(deidentify(notes, load_annotator(model, None, "nl", create=build_annotator), "annotate"))
    low = list(
        deidentify(notes, load_annotator(model, None, "nl", min_confidence=0.05, create=build_annotator), "annotate")
    )
    covered = lambda docs: sum(s.end - s.start for d in docs for s in d.spans)  # noqa: E731
    assert covered(low) >= covered(best)
    with pytest.raises(InputError, match="needs a trained tagger"):
        load_annotator(None, "deduce", "nl", min_confidence=0.2, create=build_annotator)


def test_bench_thresholds_scores_what_deidentify_finds(model: Path, notes: list[Document], tmp_path: Path) -> None:
    """``bench/thresholds.py`` (the README's threshold table): its best-path row is the entity F1 of
    the tagger's own predictions, and lower thresholds never mark fewer PHI characters."""
    import subprocess
    import sys

    from synthdeid.corpus.formats import write_jsonl
    from synthdeid.evaluation.metrics import entity_scores

    write_jsonl(notes, tmp_path / "gold.jsonl")
    out = subprocess.run(
        [
            sys.executable,
            str(Path(__file__).resolve().parents[1] / "bench" / "thresholds.py"),
            "--model",
            str(model),
            "--notes",
            str(tmp_path / "gold.jsonl"),
            "--language",
            "nl",
            "--thresholds",
            "0.5",
            "0.05",
        ],
        capture_output=True,
        text=True,
        check=True,
        cwd=tmp_path,
    )
    rows = [line.split("|")[1:-1] for line in out.stdout.splitlines() if line.startswith("| ") and "%" in line]
    assert len(rows) == 3 and "notes/s" in out.stdout.splitlines()[-1]
    pack = registry("language").create("nl")
    predicted = create({}).load(model, pack.tokenize).predict(notes)
    f1 = entity_scores(notes, _with_every_occurrence(notes, predicted))
    assert float(rows[0][4]) == pytest.approx(f1["micro"]["f1"], abs=5e-5)
    found = [float(r[5].strip(" %")) for r in rows]
    assert found[2] >= found[0]
