"""Prediction with a token-classification model: documents to word windows, the label of each
word's first subword, BIO back to character spans."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from synthdeid import Document, Span
from synthdeid.plugins.bio_crf import bio_scores, viterbi
from synthdeid.toolkit import Tokenize, Word, decode_tags, line_words, recall_biased_tags, span_cuts
from synthdeid.toolkit import windows as word_windows

from .encoding import Piece, batches, encode, line_marker, max_length


def doc_windows(doc: Document, tokenize: Tokenize, max_words: int, labelled: bool) -> tuple[list[list[Word]], set[int]]:
    """Windows of ``max_words`` words over the whole note (lines flow into each other), and the
    offsets of the words that start a line; in training, words are also cut at span edges."""
    cuts = span_cuts(doc) if labelled else []
    lines = line_words(doc.text, tokenize, cuts)
    return word_windows([w for line in lines for w in line], max_words), {line[0][0] for line in lines}


def encode_docs(
    docs: Sequence[Document],
    tokenizer: Any,
    model_config: Any,
    tokenize: Tokenize,
    max_words: int,
    labelled: bool = False,
    mark_lines: bool = True,
) -> list[Piece]:
    limit = max_length(model_config, tokenizer)
    marker = line_marker(tokenizer) if mark_lines else None
    pieces = []
    for i, d in enumerate(docs):
        windows, starts = doc_windows(d, tokenize, max_words, labelled)
        pieces += encode(tokenizer, d.text, windows, i, limit, starts, marker)
    return pieces


NEG = -1e9
"""The score of a transition BIO forbids (and of a tag other than ``O`` for a word without subwords)."""


def piece_tags(
    pieces: Sequence[Piece],
    model: Any,
    tokenizer: Any,
    id2label: dict[int, str],
    batch_size: int,
    constrained: bool = True,
    min_confidence: float | None = None,
) -> tuple[list[list[str]], float | None]:
    """Predicted tag of every word of every piece (BIO-constrained Viterbi over the first
    subwords' log-probabilities, or each word's argmax; with ``min_confidence`` the recall-biased
    tags of those probabilities), and the mean loss when pieces carry labels. A word without
    subwords is ``O``.

    Without the constraint each word takes its own argmax, and a small model that wavers between
    labels inside one entity (``B-Name I-Initials I-Name``) yields fragments that the repair in
    ``words.decode`` can only turn into three spans. (flair's CRF learns the same constraint from
    data.)"""
    import torch

    tag_labels = [id2label[i] for i in range(len(id2label))]
    trans, start = bio_scores(tag_labels, NEG)
    if not constrained:
        trans, start = torch.zeros_like(trans), torch.zeros_like(start)
    outside = torch.full((len(tag_labels),), NEG)
    outside[tag_labels.index("O")] = 0.0
    tags: list[list[str]] = [[] for _ in pieces]
    index = {id(p): k for k, p in enumerate(pieces)}
    order = sorted(range(len(pieces)), key=lambda k: (len(pieces[k].input_ids), k))  # less padding
    losses: list[tuple[float, int]] = []
    model.eval()
    with torch.no_grad():
        device = next(model.parameters()).device
        for chunk, tensors in batches(pieces, batch_size, tokenizer.pad_token_id, order, device):
            out = model(**tensors)
            if "labels" in tensors:
                losses.append((float(out.loss), int((tensors["labels"] != -100).sum())))
            logp = out.logits.float().log_softmax(dim=-1).cpu()
            width = max(len(p.first) for p in chunk)
            first = torch.tensor([p.first + [-1] * (width - len(p.first)) for p in chunk])
            scores = logp.gather(1, first.clamp(min=0).unsqueeze(-1).expand(-1, -1, logp.shape[-1]))
            scores = torch.where((first < 0).unsqueeze(-1), outside, scores)
            if min_confidence is None:
                paths = viterbi(scores, [len(p.first) for p in chunk], trans, start)
            else:
                probs = scores.exp()
                paths = [
                    recall_biased_tags(probs[j, : len(p.first)].tolist(), tag_labels, min_confidence)
                    for j, p in enumerate(chunk)
                ]
            for p, path in zip(chunk, paths):
                tags[index[id(p)]] = [tag_labels[i] for i in path]
    n = sum(c for _, c in losses)
    loss = sum(v * c for v, c in losses) / n if n else None
    return tags, loss


def predict_docs(
    docs: Sequence[Document],
    model: Any,
    tokenizer: Any,
    id2label: dict[int, str],
    tokenize: Tokenize,
    max_words: int,
    batch_size: int,
    mark_lines: bool = True,
    constrained: bool = True,
    pieces: Sequence[Piece] | None = None,
    min_confidence: float | None = None,
) -> list[list[Span]]:
    """Spans per document (windows of ``max_words``; nothing is truncated)."""
    if pieces is None:
        pieces = encode_docs(docs, tokenizer, model.config, tokenize, max_words, mark_lines=mark_lines)
    tags, _ = piece_tags(pieces, model, tokenizer, id2label, batch_size, constrained, min_confidence)
    labels = {lab[2:] for lab in id2label.values() if lab != "O"}
    out: list[list[Span]] = [[] for _ in docs]
    for p, t in zip(pieces, tags):
        out[p.doc].extend(decode_tags(t, p.words, labels))
    for spans in out:
        spans.sort()
    return out
