"""``synthdeid export``: a corpus to Hugging Face datasets (with a dataset card) and to a spaCy
DocBin, each loaded back with its own library and compared span for span."""

from __future__ import annotations

from pathlib import Path

import datasets
import pytest
import spacy
import yaml
from spacy.tokens import DocBin
from toy_notes import toy_docs

from synthdeid import Document, InputError, Span
from synthdeid.cli import main
from synthdeid.corpus_io import write_documents
from synthdeid.corpus_io.export import export_corpus, spacy_words
from synthdeid.plugin_system.manager import registry

TRICKY = [
    Document.create(
        "edge",
        "  Mw.  Jansen\n\nbelde 12-03-2020 ,Utrecht.",
        [Span(6, 12, "Name"), Span(21, 31, "Date"), Span(33, 40, "Address")],
    ),
    Document.create("spaces", "Jan  de Vries", [Span(0, 13, "Name")]),
    Document.create("inword", "Mw.Jansen", [Span(3, 9, "Name")]),
    Document.create("none", "Geen PHI hier."),
]
DOCS = toy_docs(12, seed=3) + TRICKY


def test_hf_dataset_round_trips_with_bio_tags_and_a_card(tmp_path: Path) -> None:
    pack = registry("language").create("nl")
    out = tmp_path / "hf"
    assert export_corpus(
        DOCS,
        out,
        "hf",
        name="toy",
        language="nl",
        tokenize=pack.tokenize,
        datasheet="# Datasheet\n\nPrivacy gate: passed\n",
    ) == len(DOCS)
    ds = datasets.load_from_disk(str(out))
    train = ds["train"]
    assert train["id"] == [d.id for d in DOCS] and train["text"] == [d.text for d in DOCS]
    assert [[Span(s["start"], s["end"], s["label"]) for s in row] for row in train["spans"]] == [
        list(d.spans) for d in DOCS
    ]
    names = train.features["ner_tags"].feature.names
    assert names[0] == "O" and "B-Name" in names and "I-Date" in names
    for doc, tokens, tags in zip(DOCS, train["tokens"], train["ner_tags"]):
        tags = [names[t] for t in tags]
        assert len(tokens) == len(tags) and tags.count("B-Name") == sum(s.label == "Name" for s in doc.spans)
        entities = " ".join(tok + ("" if tag == "O" else "/" + tag[2:]) for tok, tag in zip(tokens, tags))
        for s in doc.spans:
            assert doc.surface(s).split()[0] in entities
    card = (out / "README.md").read_text()
    meta = yaml.safe_load(card.split("---")[1])
    assert (
        meta["language"] == ["nl"] and meta["task_categories"] == ["token-classification"] and meta["license"] is None
    )
    assert "Privacy gate: passed" in card and f"{len(DOCS)} notes" in card


def test_spacy_docbin_entities_equal_the_spans(tmp_path: Path) -> None:
    out = tmp_path / "c.spacy"
    export_corpus(DOCS, out, "spacy", name="toy", language="nl", tokenize=lambda t: [])
    nlp = spacy.blank("nl")
    back = list(DocBin().from_disk(out).get_docs(nlp.vocab))
    assert [d.user_data["id"] for d in back] == [d.id for d in DOCS]
    for doc, sdoc in zip(DOCS, back):
        assert sdoc.text == doc.text
        assert [(e.start_char, e.end_char, e.label_) for e in sdoc.ents] == [
            (s.start, s.end, s.label) for s in doc.spans
        ]


def test_spacy_words_rebuild_the_text_with_an_edge_at_every_span_edge() -> None:
    for doc in TRICKY:
        words, spaces = spacy_words(doc)
        assert "".join(w + " " * sp for w, sp in zip(words, spaces)) == doc.text
        edges, pos = set(), 0
        for w, sp in zip(words, spaces):
            edges.add(pos)
            pos += len(w) + sp
        assert {x for s in doc.spans for x in (s.start, s.end)} <= edges | {len(doc.text)}


def test_cli_exports_a_corpus_file_and_refuses_an_existing_target(tmp_path: Path, capsys) -> None:
    src = tmp_path / "c.jsonl"
    write_documents(DOCS, src)
    assert main(["export", str(src), str(tmp_path / "hf"), "--to", "hf", "--language", "nl"]) == 0
    assert f"exported {len(DOCS)} notes" in capsys.readouterr().out
    assert "No datasheet" in (tmp_path / "hf" / "README.md").read_text()
    assert main(["export", str(src), str(tmp_path / "hf"), "--to", "hf", "--language", "nl"]) == 1
    assert "is a folder that is not empty" in capsys.readouterr().err
    assert main(["export", "no_such_corpus", str(tmp_path / "x"), "--to", "conll", "--language", "nl"]) == 1
    assert "no corpus 'no_such_corpus'" in capsys.readouterr().err
    with pytest.raises(InputError, match="holds no documents"):
        export_corpus([], tmp_path / "e.jsonl", "jsonl", name="e", language="nl", tokenize=lambda t: [])
