"""The transformers token-classification tagger: a tiny BERT from scratch on a toy corpus built
here, and a user's encoder loaded from a local directory (no model hub)."""

from __future__ import annotations

import json
import os
from itertools import pairwise
from pathlib import Path
from typing import Any

import pytest

os.environ.setdefault("HF_HUB_OFFLINE", "1")

from toy_notes import long_doc as _long_doc
from toy_notes import toy_doc, toy_docs, toy_sentence  # noqa: F401

from synthdeid import Document, Span, SynthdeidError
from synthdeid.corpus.formats.conll import default_tokenize
from synthdeid.plugins.hf_tagger import create
from synthdeid.plugins.hf_tagger.encoding import (
    encode,
    load_tokenizer,
    max_length,
    train_wordpiece,
)
from synthdeid.tagging import words as W

FAST = {"threads": 1, "batch_size": 8}
LABELS = {"Date", "Name"}


def long_doc(min_words: int = 400) -> Document:
    return _long_doc(min_words, newlines=True)


def check_spans(doc: Document, spans: list[Span]) -> None:
    assert spans == sorted(spans)
    for a, b in pairwise(spans):
        assert a.end <= b.start, (a, b)
    for s in spans:
        assert 0 <= s.start < s.end <= len(doc.text) and s.label in LABELS
        assert doc.text[s.start : s.end].strip() == doc.text[s.start : s.end]


def tail_found(tagger: Any, min_fraction: float) -> None:
    doc = long_doc(400)
    tail = default_tokenize(doc.text)[300][0]
    [spans] = tagger.predict([doc])
    check_spans(doc, spans)
    gold = {s for s in doc.spans if s.start >= tail}
    assert gold and len({s for s in spans if s.start >= tail} & gold) >= min_fraction * len(gold)


@pytest.fixture(scope="module")
def trained(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    out = tmp_path_factory.mktemp("hf")
    train = toy_docs(40, seed=0)
    dev = toy_docs(10, seed=1) + [Document.create("age", "Zij is 83 jaar.", [Span(7, 14, "Age")])]
    tagger = create({**FAST, "max_epochs": 10})
    metrics = tagger.train(train, dev, out, default_tokenize)
    return {"tagger": tagger, "metrics": metrics, "out": out, "train": train}


def test_learns_the_toy_data(trained: dict[str, Any]) -> None:
    train = trained["train"]
    pred = trained["tagger"].trained.predict(train)
    # measured (seeds 0-3, 10 epochs): entity F1 0.98-0.99 on the training notes, dev 0.98-1.0
    assert W.entity_f1([d.spans for d in train], pred)["f1"] > 0.8
    assert trained["metrics"]["dev"]["dev_f1"] > 0.6
    assert trained["metrics"]["dev_labels_unseen_in_training"] == {"Age": 1}


def test_predictions_are_valid_spans(trained: dict[str, Any]) -> None:
    docs = toy_docs(15, seed=3)
    for doc, spans in zip(docs, trained["tagger"].trained.predict(docs)):
        check_spans(doc, spans)


def test_saved_then_loaded_predicts_exactly_the_same(trained: dict[str, Any]) -> None:
    docs = toy_docs(20, seed=4) + [long_doc()]
    loaded = create({}).load(trained["out"], default_tokenize)
    assert loaded.predict(docs) == trained["tagger"].trained.predict(docs)
    meta = json.loads((trained["out"] / "tagger.json").read_text())
    assert meta["labels"] == ["Date", "Name"] and meta["config"]["learning_rate"] == 1e-3
    assert (trained["out"] / "model" / "tokenizer.json").exists()


def test_a_tagger_saved_with_former_setting_names_loads(trained: dict[str, Any], tmp_path: Path) -> None:
    """A tagger.json written before the renames (num_layers, num_heads, max_position_embeddings, epochs,
    max_grad_norm, warmup_ratio) loads, silently."""
    import shutil
    import warnings

    old = shutil.copytree(trained["out"], tmp_path / "old")
    meta = json.loads((old / "tagger.json").read_text())
    former = {
        "layers": "num_layers",
        "heads": "num_heads",
        "max_positions": "max_position_embeddings",
        "max_epochs": "epochs",
        "grad_clip": "max_grad_norm",
        "warmup": "warmup_ratio",
    }
    meta["config"] = {former.get(k, k): v for k, v in meta["config"].items()}
    (old / "tagger.json").write_text(json.dumps(meta))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        loaded = create({}).load(old, default_tokenize)
    assert loaded.config == trained["tagger"].trained.config


def test_long_document_is_predicted_to_the_end(trained: dict[str, Any]) -> None:
    tail_found(trained["tagger"].trained, 0.5)


def test_same_seed_same_predictions(tmp_path: Path) -> None:
    train, docs = toy_docs(20, seed=5), toy_docs(5, seed=6)
    runs = []
    for k in range(2):
        tagger = create({**FAST, "max_epochs": 2, "seed": 4})
        m = tagger.train(train, toy_docs(3, seed=7), tmp_path / str(k), default_tokenize)
        runs.append(([h["train_loss"] for h in m["history"]], tagger.trained.predict(docs)))
    assert runs[0] == runs[1]


def test_unknown_setting_lists_valid_ones() -> None:
    with pytest.raises(SynthdeidError, match="epoch\\b.*epochs"):
        create({"epoch": 3})
    with pytest.raises(SynthdeidError, match="select_on"):
        create({"select_on": "accuracy"})
    with pytest.raises(SynthdeidError, match="device: auto .*cpu, cuda or cuda:N"):
        create({"device": "gpu"})


def test_model_must_be_a_local_directory(tmp_path: Path) -> None:
    with pytest.raises(SynthdeidError, match="not a local directory"):
        create({"model": "bert-base-cased"}).train(toy_docs(3), [], tmp_path, default_tokenize)


def test_registered_as_a_tagger() -> None:
    from synthdeid.plugins import registry

    assert registry("tagger").create("hf_token_classification", {"max_epochs": 1}).config.max_epochs == 1


def test_windows_longer_than_the_model_are_split_not_truncated() -> None:
    from transformers import BertConfig

    doc = long_doc(400)
    tok = train_wordpiece([doc.text], 200, 512)
    words = [w for line in W.line_words(doc.text, default_tokenize) for w in line]
    limit = max_length(BertConfig(max_position_embeddings=40), tok)
    pieces = encode(tok, doc.text, W.windows(words, 128), 0, limit)
    assert limit == 40 and all(len(p.input_ids) <= limit for p in pieces)
    assert [w for p in pieces for w in p.words] == words
    assert all(pos >= 1 for p in pieces for pos in p.first)


def test_constrained_decoding_picks_the_best_valid_bio_sequence() -> None:
    import torch

    from synthdeid.plugins.bio_crf import bio_scores, viterbi
    from synthdeid.plugins.hf_tagger.predict import NEG

    tags = ["O", "B-Name", "I-Name", "B-Initials", "I-Initials"]
    probs = torch.tensor(
        [
            [[0.1, 0.8, 0.05, 0.05, 0], [0.1, 0, 0.4, 0, 0.5], [0.1, 0, 0.8, 0.1, 0]],  # B I? I
            [[0.2, 0, 0.7, 0.1, 0], [0.9, 0.1, 0, 0, 0], [0.5, 0.5, 0, 0, 0]],
        ]
    )  # I at start
    trans, start = bio_scores(tags, NEG)
    paths = viterbi((probs + 1e-6).log(), [3, 2], trans, start)
    assert [[tags[i] for i in p] for p in paths] == [["B-Name", "I-Name", "I-Name"], ["O", "O"]]
    # argmax alone would give B-Name I-Initials I-Name: three spans after the repair
    free = viterbi((probs + 1e-6).log(), [3, 2], torch.zeros_like(trans), torch.zeros_like(start))
    assert [tags[i] for i in free[0]] == ["B-Name", "I-Initials", "I-Name"]


def test_line_breaks_inside_a_window_are_marked_and_never_labelled() -> None:
    from synthdeid.plugins.hf_tagger.predict import encode_docs

    doc = Document.create("x", "Mw. Jansen\nBakker belde", [Span(4, 10, "Name"), Span(11, 17, "Name")])
    tok = train_wordpiece([doc.text], 100, 512)
    [piece] = encode_docs([doc], tok, _bert_config(), default_tokenize, 128)
    tokens = tok.convert_ids_to_tokens(piece.input_ids)
    assert tokens == ["[CLS]", "Mw", ".", "Jansen", "[SEP]", "Bakker", "belde", "[SEP]"]
    assert [tokens[i] for i in piece.first] == ["Mw", ".", "Jansen", "Bakker", "belde"]
    [unmarked] = encode_docs([doc], tok, _bert_config(), default_tokenize, 128, mark_lines=False)
    assert "[SEP]" not in tok.convert_ids_to_tokens(unmarked.input_ids)[:-1]


def _bert_config() -> Any:
    from transformers import BertConfig

    return BertConfig()


def test_byte_level_tokenizer_accepts_pre_split_words(tmp_path: Path) -> None:
    from tokenizers import ByteLevelBPETokenizer
    from transformers import RobertaConfig, RobertaTokenizerFast

    bpe = ByteLevelBPETokenizer()
    bpe.train_from_iterator(
        [d.text for d in toy_docs(10)],
        vocab_size=300,
        special_tokens=["<s>", "<pad>", "</s>", "<unk>", "<mask>"],
        show_progress=False,
    )
    bpe.save_model(str(tmp_path))
    RobertaTokenizerFast(str(tmp_path / "vocab.json"), str(tmp_path / "merges.txt")).save_pretrained(tmp_path)
    tok = load_tokenizer(tmp_path)
    enc = tok(["Mw.", "Jansen"], is_split_into_words=True)
    assert set(enc.word_ids()) == {None, 0, 1}
    assert max_length(RobertaConfig(max_position_embeddings=514, pad_token_id=1), tok) == 512


def test_fine_tunes_a_user_model_from_a_local_directory(tmp_path: Path) -> None:
    """A BERT encoder and its tokenizer saved by the user (``save_pretrained``), with only 40
    positions: 128-word windows are split further and every word still gets a prediction."""
    import torch
    from transformers import BertConfig, BertModel

    train = toy_docs(40, seed=0)
    user = tmp_path / "my-bert"
    tok = train_wordpiece([d.text for d in train], 500, 40)
    torch.manual_seed(0)
    BertModel(
        BertConfig(
            vocab_size=len(tok),
            hidden_size=64,
            num_hidden_layers=2,
            num_attention_heads=2,
            intermediate_size=128,
            max_position_embeddings=40,
        )
    ).save_pretrained(user)
    tok.save_pretrained(user)
    tagger = create({**FAST, "model": str(user), "max_epochs": 6, "learning_rate": 2e-3})
    metrics = tagger.train(train, toy_docs(5, seed=1), tmp_path / "out", default_tokenize)
    assert metrics["model"] == str(user) and metrics["train_windows"] > 40  # windows were split
    tail_found(tagger.trained, 0.3)
    docs = toy_docs(8, seed=2)
    loaded = create({}).load(tmp_path / "out", default_tokenize)
    assert loaded.predict(docs) == tagger.trained.predict(docs)
    # measured (seeds 0-3): entity F1 0.92-0.97 on the training notes (a 2x64 encoder, 6 epochs)
    assert W.entity_f1([d.spans for d in train], tagger.trained.predict(train))["f1"] > 0.8


def test_min_confidence_favours_recall(trained: dict[str, Any]) -> None:
    from synthdeid.api import RecallTunable

    model = trained["tagger"].trained
    assert isinstance(model, RecallTunable)
    docs = toy_docs(20, seed=6)
    covered = [sum(s.end - s.start for p in model.predict_min_confidence(docs, t) for s in p) for t in (0.9, 0.5, 0.05)]
    assert covered[0] <= covered[1] <= covered[2] and covered[2] > 0
    gold = [d.spans for d in docs]
    assert (
        W.entity_f1(gold, model.predict_min_confidence(docs, 0.05))["recall"]
        >= W.entity_f1(gold, model.predict(docs))["recall"] - 0.02
    )
    with pytest.raises(SynthdeidError, match="min_confidence"):
        model.predict_min_confidence(docs, 1.5)
