"""The flair BiLSTM-CRF tagger and the word/window/BIO helpers it shares with the hf tagger.

One small model is trained per module on a toy corpus built here (a few seconds on 1 thread).
"""

from __future__ import annotations

import random
from itertools import pairwise
from pathlib import Path
from typing import Any

import pytest
from toy_notes import long_doc, toy_docs

from synthdeid import Document, Span, SynthdeidError
from synthdeid.corpus.formats.conll import default_tokenize
from synthdeid.plugins.flair_tagger import create
from synthdeid.plugins.flair_tagger.embeddings import read_vectors
from synthdeid.tagging import words as W

FAST = {"threads": 1, "batch_size": 8, "hidden_size": 64}


def check_spans(doc: Document, spans: list[Span], labels: set[str]) -> None:
    assert spans == sorted(spans)
    for a, b in pairwise(spans):
        assert a.end <= b.start, (a, b)
    for s in spans:
        assert 0 <= s.start < s.end <= len(doc.text)
        assert s.label in labels
        assert doc.text[s.start : s.end].strip() == doc.text[s.start : s.end]


# ---- shared helpers ---------------------------------------------------------------------------


def test_line_words_cut_at_span_edges_and_keep_offsets() -> None:
    text = "Mw.Jansen kwam\n\n  op 12 maart."
    doc = Document.create("x", text, [Span(3, 9, "Name"), Span(21, 29, "Date")])
    lines = W.line_words(text, default_tokenize, W.span_cuts(doc))
    assert [[text[a:b] for a, b in line] for line in lines] == [
        ["Mw", ".", "Jansen", "kwam"],
        ["op", "12", "maart", "."],
    ]
    cut = W.line_words("ab", lambda t: [(0, 2)], [1])
    assert cut == [[(0, 1), (1, 2)]]


def test_bio_tags_and_decode_round_trip() -> None:
    text = "Op 12 maart belde Jan Smit Piet ."
    spans = [Span(3, 11, "Date"), Span(18, 26, "Name"), Span(27, 31, "Name")]
    words = W.line_words(text, default_tokenize)[0]
    tags = W.bio_tags(words, spans)
    assert tags == ["O", "B-Date", "I-Date", "O", "B-Name", "I-Name", "B-Name", "O"]
    assert W.decode(tags, words, {"Date", "Name"}) == spans
    # a window that starts inside a span starts it with B-
    assert W.bio_tags(words[2:], spans)[0] == "B-Date"


def test_decode_repairs_invalid_sequences_deterministically() -> None:
    words = [(0, 1), (2, 3), (4, 5), (6, 7), (8, 9), (10, 11)]
    labels = {"Name", "Date"}
    # I- without B- starts a span; I- of another label starts a new one; unknown label is O
    assert W.decode(["I-Name", "I-Name", "I-Date", "B-Age", "I-Age", "O"], words, labels) == [
        Span(0, 3, "Name"),
        Span(4, 5, "Date"),
    ]
    # BIOES (flair): E- and S- close spans; E- without a start is a one-word span
    assert W.decode(["S-Name", "B-Name", "E-Name", "E-Date", "I-Date", "X"], words, labels) == [
        Span(0, 1, "Name"),
        Span(2, 5, "Name"),
        Span(6, 7, "Date"),
        Span(8, 9, "Date"),
    ]


def test_windows_cover_every_word() -> None:
    words = [(i, i + 1) for i in range(0, 600, 2)]
    wins = W.windows(words, 128)
    assert [len(w) for w in wins] == [128, 128, 44]
    assert [w for win in wins for w in win] == words


def test_restrict_labels_reports_unseen() -> None:
    doc = Document.create("x", "Jan 83 jaar", [Span(0, 3, "Name"), Span(4, 11, "Age")])
    kept, dropped = W.restrict_labels([doc], {"Name"})
    assert kept[0].spans == (Span(0, 3, "Name"),) and dropped == {"Age": 1}


def test_read_word2vec_text_and_binary(tmp_path: Path) -> None:
    import numpy as np

    (tmp_path / "v.txt").write_text("2 3\nJansen 1 2 3\nkwam 0.5 0 -1\n", encoding="utf-8")
    words, vecs = read_vectors(tmp_path / "v.txt")
    assert words == ["Jansen", "kwam"] and vecs.shape == (2, 3)
    with open(tmp_path / "v.bin", "wb") as f:
        f.write(b"2 3\n")
        for w, v in zip(words, vecs):
            f.write(w.encode() + b" " + np.asarray(v, dtype="<f4").tobytes() + b"\n")
    words2, vecs2 = read_vectors(tmp_path / "v.bin")
    assert words2 == words and (vecs2 == vecs).all()


def test_gensim_files_are_pickles_and_not_read(tmp_path: Path) -> None:
    (tmp_path / "v.kv").write_bytes(b"\x80\x04N.")  # a pickle, as gensim's KeyedVectors.save writes
    with pytest.raises(SynthdeidError, match="(?s)pickles.*save_word2vec_format"):
        read_vectors(tmp_path / "v.kv")


# ---- the tagger -------------------------------------------------------------------------------


def test_unknown_setting_lists_valid_ones() -> None:
    with pytest.raises(SynthdeidError, match="hiden_size.*hidden_size"):
        create({"hiden_size": 64})
    with pytest.raises(SynthdeidError, match="max_tokens"):
        create({"max_tokens": 0})


def test_registered_as_a_tagger() -> None:
    from synthdeid.plugins import registry

    assert registry("tagger").create("flair_bilstm_crf", {"max_epochs": 1}).config.max_epochs == 1


@pytest.fixture(scope="module")
def trained(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    out = tmp_path_factory.mktemp("flair")
    train = toy_docs(40, seed=0)
    dev = toy_docs(10, seed=1) + [Document.create("age", "Zij is 83 jaar.", [Span(7, 14, "Age")])]
    tagger = create({**FAST, "max_epochs": 8, "use_characters": True})
    metrics = tagger.train(train, dev, out, default_tokenize)
    return {"tagger": tagger, "metrics": metrics, "out": out, "train": train}


def test_learns_the_toy_data(trained: dict[str, Any]) -> None:
    train = trained["train"]
    pred = trained["tagger"].trained.predict(train)
    # measured (seeds 0-3, 8 epochs): entity F1 0.90-1.0 on the training notes, dev 0.86-0.98
    assert W.entity_f1([d.spans for d in train], pred)["f1"] > 0.8
    assert trained["metrics"]["dev"]["f1"] > 0.6
    assert trained["metrics"]["labels"] == ["Date", "Name"]


def test_unseen_dev_label_is_reported_not_fatal(trained: dict[str, Any]) -> None:
    assert trained["metrics"]["dev_labels_unseen_in_training"] == {"Age": 1}


def test_predictions_are_valid_spans(trained: dict[str, Any]) -> None:
    docs = toy_docs(15, seed=3)
    for doc, spans in zip(docs, trained["tagger"].trained.predict(docs)):
        check_spans(doc, spans, {"Date", "Name"})


def test_saved_then_loaded_predicts_exactly_the_same(trained: dict[str, Any]) -> None:
    """flair 0.15.1 reloads a stacked one-hot + character model with its embeddings in the
    wrong order (0.0 F1 on a real corpus); ``load`` restores the names."""
    docs = toy_docs(20, seed=4) + [long_doc()]
    before = trained["tagger"].trained.predict(docs)
    loaded = create({}).load(trained["out"], default_tokenize)
    assert loaded.model.embeddings.get_names() == trained["tagger"].trained.model.embeddings.get_names()
    assert loaded.predict(docs) == before
    assert (trained["out"] / "tagger.json").exists()
    assert {p.name for p in trained["out"].iterdir()} == {"tagger.json", "model.safetensors", "embeddings.json"}


def test_a_tagger_saved_with_former_setting_names_loads(trained: dict[str, Any], tmp_path: Path) -> None:
    """A tagger.json written before the renames (``mini_batch_size``, ``word_embedding_dim``,
    ``word_min_freq``) loads, silently."""
    import json
    import shutil
    import warnings

    old = shutil.copytree(trained["out"], tmp_path / "old")
    meta = json.loads((old / "tagger.json").read_text())
    former = {"batch_size": "mini_batch_size", "embedding_size": "word_embedding_dim", "min_count": "word_min_freq"}
    meta["config"] = {former.get(k, k): v for k, v in meta["config"].items()}
    (old / "tagger.json").write_text(json.dumps(meta))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        loaded = create({}).load(old, default_tokenize)
    assert loaded.config == trained["tagger"].trained.config


def test_long_document_is_predicted_to_the_end(trained: dict[str, Any]) -> None:
    doc = long_doc(400)
    words = default_tokenize(doc.text)
    tail = words[300][0]
    [spans] = trained["tagger"].trained.predict([doc])
    check_spans(doc, spans, {"Date", "Name"})
    gold_tail = {s for s in doc.spans if s.start >= tail}
    found = {s for s in spans if s.start >= tail}
    assert gold_tail and len(found & gold_tail) >= len(gold_tail) // 2


def test_same_seed_same_predictions(tmp_path: Path) -> None:
    train, docs = toy_docs(20, seed=5), toy_docs(5, seed=6)
    config = {**FAST, "max_epochs": 2, "use_characters": False, "seed": 3}
    runs = []
    for k in range(2):
        tagger = create(config)
        m = tagger.train(train, [], tmp_path / str(k), default_tokenize)
        runs.append((m["train_loss_history"], tagger.trained.predict(docs)))
    assert runs[0] == runs[1]


def test_local_word_vectors_are_stacked_and_survive_reload(tmp_path: Path) -> None:
    rng = random.Random(0)
    vocab = sorted({t for d in toy_docs(20, seed=8) for t in d.text.split()})
    lines = [f"{w} " + " ".join(f"{rng.uniform(-1, 1):.3f}" for _ in range(8)) for w in vocab]
    (tmp_path / "vec.txt").write_text("\n".join(lines) + "\n", encoding="utf-8")
    tagger = create({**FAST, "max_epochs": 1, "use_characters": True, "word_embeddings": str(tmp_path / "vec.txt")})
    tagger.train(toy_docs(20, seed=8), toy_docs(4, seed=9), tmp_path / "m", default_tokenize)
    docs = toy_docs(6, seed=10)
    assert len(tagger.trained.model.embeddings.embeddings) == 3
    assert create({}).load(tmp_path / "m", default_tokenize).predict(docs) == tagger.trained.predict(docs)


def test_no_spans_in_training_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(SynthdeidError, match="no PHI spans"):
        create(FAST).train([Document.create("x", "geen namen hier")], [], tmp_path, default_tokenize)


def test_flair_cache_is_private_to_the_user(tmp_path, monkeypatch):
    from synthdeid.plugins.flair_tagger.model import private_cache_dir

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    path = private_cache_dir()
    assert path == tmp_path / "cache" / "synthdeid" / "flair"
    assert path.stat().st_mode & 0o777 == 0o700
