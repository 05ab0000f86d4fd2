"""Prediction with a token-classification model: documents to word windows, the label of each
word's first subword, BIO back to character spans."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from synthdeid.records import Document, Span

from ..flair_tagger import words as W
from .encoding import Piece, batches, encode, max_length


def doc_windows(doc: Document, tokenize: W.Tokenize, max_words: int, labelled: bool) -> list[list[W.Word]]:
    """Windows of ``max_words`` words over the whole note (lines flow into each other); in
    training, words are also cut at span edges."""
    cuts = W.span_cuts(doc) if labelled else []
    words = [w for line in W.line_words(doc.text, tokenize, cuts) for w in line]
    return W.windows(words, max_words)


def encode_docs(docs: Sequence[Document], tokenizer: Any, model_config: Any, tokenize: W.Tokenize,
                max_words: int, labelled: bool = False) -> list[Piece]:
    limit = max_length(model_config, tokenizer)
    return [p for i, d in enumerate(docs)
            for p in encode(tokenizer, d.text, doc_windows(d, tokenize, max_words, labelled), i, limit)]


def piece_tags(pieces: Sequence[Piece], model: Any, tokenizer: Any, id2label: dict[int, str],
               batch_size: int) -> tuple[list[list[str]], float | None]:
    """Predicted tag of every word of every piece, and the mean loss when pieces carry labels."""
    import torch

    tags: list[list[str]] = [[] for _ in pieces]
    index = {id(p): k for k, p in enumerate(pieces)}
    order = sorted(range(len(pieces)), key=lambda k: (len(pieces[k].input_ids), k))  # less padding
    losses: list[tuple[float, int]] = []
    model.eval()
    with torch.no_grad():
        for chunk, tensors in batches(pieces, batch_size, tokenizer.pad_token_id, order):
            out = model(**tensors)
            if "labels" in tensors:
                losses.append((float(out.loss), int((tensors["labels"] != -100).sum())))
            best = out.logits.argmax(dim=-1).tolist()
            for row, p in zip(best, chunk):
                tags[index[id(p)]] = ["O" if pos < 0 else id2label[row[pos]] for pos in p.first]
    n = sum(c for _, c in losses)
    loss = sum(v * c for v, c in losses) / n if n else None
    return tags, loss


def predict_docs(docs: Sequence[Document], model: Any, tokenizer: Any, id2label: dict[int, str],
                 tokenize: W.Tokenize, max_words: int, batch_size: int,
                 pieces: Sequence[Piece] | None = None) -> list[list[Span]]:
    """Spans per document (windows of ``max_words``; nothing is truncated)."""
    if pieces is None:
        pieces = encode_docs(docs, tokenizer, model.config, tokenize, max_words)
    tags, _ = piece_tags(pieces, model, tokenizer, id2label, batch_size)
    labels = {lab[2:] for lab in id2label.values() if lab != "O"}
    out: list[list[Span]] = [[] for _ in docs]
    for p, t in zip(pieces, tags):
        out[p.doc].extend(W.decode(t, p.words, labels))
    for spans in out:
        spans.sort()
    return out
