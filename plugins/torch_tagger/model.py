"""The ``torch_bilstm_crf`` tagger: train (with early stopping on the validation notes), save
(safetensors weights, ``vocab.json``, ``tagger.json``), load and predict exact character spans."""

from __future__ import annotations

import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import torch

from synthdeid import Document, InputError, Span, SynthdeidError
from synthdeid.toolkit import TAGGER_META_FILE as CONFIG_FILE
from synthdeid.toolkit import TAGGER_RETRAIN as RETRAIN
from synthdeid.toolkit import (
    Tokenize,
    Word,
    bio_tags,
    check_bio_tags,
    covered_spans,
    decode_tags,
    entity_f1,
    load_weights,
    read_json,
    recall_biased_tags,
    seed_everything,
    split_tokens,
    stored_weights,
    torch_threads,
    training_labels,
    write_json,
)
from synthdeid.toolkit import check_model_fits as fits
from synthdeid.toolkit import check_model_sizes as check_sizes
from synthdeid.toolkit import read_tagger_meta as read_meta
from synthdeid.toolkit import saved_tagger_config as saved_config
from synthdeid.toolkit import write_tagger_meta as write_meta

from .config import TorchTaggerConfig
from .features import Vocab, Window, doc_windows
from .network import BiLSTMCRF, Encoded, make_batch
from .training import fit

NAME = "torch_bilstm_crf"
WEIGHTS = "model.safetensors"
VOCAB = "vocab.json"
SIZES = {
    **dict.fromkeys(("embedding_size", "shape_dim", "char_dim", "char_filters", "char_width", "hidden_size"), "width"),
    "max_word_chars": "width",
    "layers": "layers",
}
"""The settings of ``tagger.json`` that size the network (``synthdeid.model_limits``)."""


def _network(vocab: Vocab, cfg: TorchTaggerConfig) -> BiLSTMCRF:
    return BiLSTMCRF(len(vocab.words), len(vocab.shapes), len(vocab.chars), vocab.tags, cfg)


def predict_windows(
    net: BiLSTMCRF,
    items: Sequence[Encoded],
    batch_size: int,
    min_confidence: float | None = None,
    tags: Sequence[str] = (),
) -> list[list[int]]:
    """Tag ids of every encoded window (batched by length; results in input order): the best
    path, or with ``min_confidence`` the recall-biased tags (names ``tags``) of the CRF's marginals."""
    order = sorted(range(len(items)), key=lambda i: (len(items[i][0]), i))
    out: list[list[int]] = [[] for _ in items]
    with torch.inference_mode():
        for k in range(0, len(order), batch_size):
            idx = order[k : k + batch_size]
            batch = make_batch([items[i] for i in idx])
            emissions = net.emissions(batch)
            if min_confidence is None:
                best = net.crf.decode(emissions, batch.lengths)
            else:
                probs = net.crf.marginals(emissions, batch.lengths)
                best = [
                    recall_biased_tags(probs[j, :n].tolist(), tags, min_confidence)
                    for j, n in enumerate(batch.lengths.tolist())
                ]
            for i, t in zip(idx, best):
                out[i] = t
    return out


def spans_of(
    docs: Sequence[Document], windows: Sequence[Window], tag_ids: Sequence[Sequence[int]], vocab: Vocab
) -> list[list[Span]]:
    """Character spans per document from the windows' tag ids."""
    labels = {t[2:] for t in vocab.tags if t != "O"}
    spans: list[list[Span]] = [[] for _ in docs]
    for win, ids in zip(windows, tag_ids, strict=True):
        spans[win.doc].extend(decode_tags([vocab.tags[i] for i in ids], win.words, labels))
    return [sorted(s, key=lambda x: (x.start, x.end)) for s in spans]


def _words_by_doc(windows: Sequence[Window]) -> dict[int, list[Word]]:
    """Every window's words, gathered per document (one pass over the windows)."""
    out: dict[int, list[Word]] = {}
    for w in windows:
        out.setdefault(w.doc, []).extend(w.words)
    return out


class TrainedTorchTagger:
    """A trained ``torch_bilstm_crf`` model: ``predict(docs)`` gives spans per document."""

    def __init__(self, net: BiLSTMCRF, vocab: Vocab, config: TorchTaggerConfig, tokenize: Tokenize) -> None:
        self.net = net.eval()
        self.vocab = vocab
        self.config = config
        self.tokenize = split_tokens(tokenize, config.token_split)

    def windows(self, docs: Sequence[Document]) -> tuple[list[Window], list[Encoded]]:
        wins = doc_windows(docs, self.tokenize, self.config.context, self.config.max_tokens, labelled=False)
        return wins, [self.vocab.encode(docs[w.doc].text, w) for w in wins]

    def predict(self, docs: Sequence[Document]) -> list[list[Span]]:
        with torch_threads(self.config.threads):
            wins, items = self.windows(docs)
            return spans_of(docs, wins, predict_windows(self.net, items, self.config.predict_batch_size), self.vocab)

    def predict_min_confidence(self, docs: Sequence[Document], min_confidence: float) -> list[list[Span]]:
        """Recall-biased spans from the CRF's marginals (``synthdeid.api.RecallTunable``)."""
        if not 0.0 < min_confidence <= 1.0:
            raise SynthdeidError(f"min_confidence must be in (0, 1], got {min_confidence}")
        with torch_threads(self.config.threads):
            wins, items = self.windows(docs)
            ids = predict_windows(self.net, items, self.config.predict_batch_size, min_confidence, self.vocab.tags)
            return spans_of(docs, wins, ids, self.vocab)


class TorchTagger:
    """Factory product of ``torch_bilstm_crf``: trains and loads taggers."""

    name = NAME

    def __init__(self, config: TorchTaggerConfig) -> None:
        self.config = config
        self.trained: TrainedTorchTagger | None = None

    def train(
        self, train: Sequence[Document], dev: Sequence[Document], out_dir: Path, tokenize: Tokenize
    ) -> dict[str, Any]:
        cfg = self.config
        out_dir = Path(out_dir)
        labels, dev, dropped = training_labels(NAME, train, dev)
        wins = doc_windows(train, split_tokens(tokenize, cfg.token_split), cfg.context, cfg.max_tokens, labelled=True)
        vocab = Vocab.build(
            ((train[w.doc].text[a:b], s) for w in wins for (a, b), s in zip(w.words, w.line_starts)),
            labels,
            cfg.max_word_chars,
        )
        tag_index = {t: i for i, t in enumerate(vocab.tags)}
        items = [vocab.encode(train[w.doc].text, w) for w in wins]
        gold = [[tag_index[t] for t in bio_tags(w.words, train[w.doc].spans)] for w in wins]
        with torch_threads(cfg.threads):
            seed_everything(cfg.seed)
            net = _network(vocab, cfg)
            trained = TrainedTorchTagger(net, vocab, cfg, tokenize)
            evaluate = None
            if dev:
                dev_wins, dev_items = trained.windows(dev)

                def evaluate() -> dict[str, float]:
                    ids = predict_windows(net, dev_items, cfg.predict_batch_size)
                    return entity_f1([d.spans for d in dev], spans_of(dev, dev_wins, ids, vocab))

            run = fit(net, items, gold, vocab.singletons, cfg, evaluate)
        self.save(out_dir, net, vocab, labels)
        self.trained = trained
        started = time.perf_counter()
        metrics: dict[str, Any] = {
            "tagger": NAME,
            "labels": labels,
            "parameters": sum(p.numel() for p in net.parameters()),
            "vocabulary": {"words": len(vocab.words), "shapes": len(vocab.shapes), "chars": len(vocab.chars)},
            "train_windows": len(wins),
            "train_tokens": sum(len(w.words) for w in wins),
            "train_spans": sum(len(d.spans) for d in train),
            "train_spans_without_tokens": sum(len(d.spans) for d in train)
            - sum(covered_spans(words, train[i].spans) for i, words in _words_by_doc(wins).items()),
            "dev_labels_unseen_in_training": dropped,
            **run,
        }
        if dev:
            metrics["dev"] = entity_f1([d.spans for d in dev], self.trained.predict(dev))
            metrics["dev_predict_seconds"] = round(time.perf_counter() - started, 3)
        return metrics

    def save(self, out_dir: Path, net: BiLSTMCRF, vocab: Vocab, labels: list[str]) -> None:
        from safetensors.torch import save_file

        out_dir.mkdir(parents=True, exist_ok=True)
        save_file({k: v.contiguous() for k, v in net.state_dict().items()}, str(out_dir / WEIGHTS))
        write_json(vocab.to_json(), out_dir / VOCAB)
        write_meta(out_dir, NAME, self.config, labels=labels)

    def load(self, out_dir: Path, tokenize: Tokenize) -> TrainedTorchTagger:
        """The tagger in ``out_dir``: JSON and safetensors only (nothing there can run code); a
        missing, malformed or damaged file is an ``InputError`` naming it."""
        out_dir = Path(out_dir)
        meta = read_meta(out_dir, NAME)
        missing = [f for f in (WEIGHTS, VOCAB) if not (out_dir / f).exists()]
        if missing:
            raise InputError(f"has no {', '.join(missing)}", path=out_dir, fix=RETRAIN)
        config = saved_config(
            TorchTaggerConfig, meta, NAME, out_dir=out_dir, token_split="pack"
        )  # saved before token_split: pack
        check_sizes(config.model_dump(), SIZES, out_dir / CONFIG_FILE, RETRAIN)
        vocab = read_json(out_dir / VOCAB, RETRAIN, Vocab.from_json)
        check_bio_tags(vocab.tags, out_dir / VOCAB, RETRAIN)
        stored = stored_weights([out_dir / WEIGHTS], RETRAIN)
        fits(lambda: _network(vocab, config), stored, out_dir / CONFIG_FILE, RETRAIN, WEIGHTS)
        net = _network(vocab, config)
        load_weights(net, out_dir / WEIGHTS, RETRAIN, f"{CONFIG_FILE} and {VOCAB}")
        return TrainedTorchTagger(net, vocab, config, tokenize)
