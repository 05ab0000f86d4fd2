"""Token-level precision, recall and F1 (the measure of Vakili et al. 2025), micro and per tag.

Every token of a document (from a tokenizer ``text -> [(start, end), ...]``, e.g. a language
pack's ``tokenize``) gets one label from the gold spans and one from the predicted spans:

* a token takes the label of the span it **overlaps** (shares at least one character with),
  even when the span covers only part of it ("Jansen's" is a Name token when "Jansen" is a
  Name span). A token that overlaps no span is ``O``. This differs from nedap/deidentify, which
  sets tokens whose boundaries do not match a span to ``O`` and so ignores those errors; here a
  span that cuts a token still labels it, which errs on the side of flagging PHI.
* a token overlapping several spans (possible only when spans split a token, or predictions
  overlap) takes the label of the span sharing the most characters with it; ties go to the
  span that starts first (then the shorter one, then the label in alphabetical order).

Per tag ``t`` (over tokens): ``tp`` = gold ``t`` and predicted ``t``; ``fp`` = predicted ``t``
but gold is another tag or ``O``; ``fn`` = gold ``t`` but predicted another tag or ``O``. So a
token predicted with the wrong tag is a false negative of its gold tag and a false positive of
the predicted one; ``O`` tokens are never positives. Micro scores sum over tags, which gives
the same counts as "a token is a true positive when its predicted label equals its gold label
and is not O". Undefined ratios are 0, as at entity level.

A gold span that covers no token (e.g. only whitespace) cannot be scored at token level; the
result counts such spans under ``"gold_spans_without_tokens"`` so they are not lost silently.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Sequence
from typing import Any

import numpy as np

from synthdeid.api import Tokenize
from synthdeid.corpus.records import Document, Span
from synthdeid.errors import InputError
from synthdeid.evaluation.metrics.entity import (
    FN,
    FP,
    TP,
    CountTable,
    Prediction,
    align_predictions,
    scores_from_counts,
)

OUTSIDE = "O"


def _checked_tokens(text: str, tokenize: Tokenize, doc_id: str) -> list[tuple[int, int]]:
    tokens = [(int(a), int(b)) for a, b in tokenize(text)]
    n = len(text)
    for a, b in tokens:
        if not 0 <= a < b <= n:
            raise InputError(
                f"the tokenizer returned token {a}-{b}, which is empty or outside the text (length {n})",
                doc_id=doc_id,
                fix="the tokenizer must return (start, end) character offsets with start < end",
            )
    return tokens


def token_labels(spans: Sequence[Span], tokens: Sequence[tuple[int, int]]) -> list[str]:
    """The label of each token given ``spans`` (see the module docstring for the rule)."""
    ordered = sorted(spans, key=lambda s: (s.start, s.end - s.start, s.label))
    starts = [s.start for s in ordered]
    longest = max((s.end - s.start for s in ordered), default=0)
    labels: list[str] = []
    for a, b in tokens:
        lo = bisect_right(starts, a - longest)
        hi = bisect_left(starts, b)
        best, best_overlap = OUTSIDE, 0
        for s in ordered[lo:hi]:
            overlap = min(b, s.end) - max(a, s.start)
            if overlap > best_overlap:
                best, best_overlap = s.label, overlap
        labels.append(best)
    return labels


def _covers_a_token(span: Span, tokens: Sequence[tuple[int, int]]) -> bool:
    return any(a < span.end and span.start < b for a, b in tokens)


def token_counts(gold: Sequence[Document], pred: Sequence[Prediction], tokenize: Tokenize) -> CountTable:
    """Token-level tp/fp/fn per document and tag (see the module docstring)."""
    table, _, _ = _token_counts(gold, pred, tokenize)
    return table


def _token_counts(
    gold: Sequence[Document], pred: Sequence[Prediction], tokenize: Tokenize
) -> tuple[CountTable, int, int]:
    pairs = align_predictions(gold, pred)
    per_doc: list[tuple[list[str], list[str]]] = []
    n_tokens = 0
    uncovered = 0
    for g, p in pairs:
        tokens = _checked_tokens(g.text, tokenize, g.id)
        n_tokens += len(tokens)
        uncovered += sum(not _covers_a_token(s, tokens) for s in g.spans)
        per_doc.append((token_labels(g.spans, tokens), token_labels(p, tokens)))
    tags = sorted({lab for gl, pl in per_doc for lab in (*gl, *pl)} - {OUTSIDE})
    index = {t: i for i, t in enumerate(tags)}
    counts = np.zeros((len(pairs), len(tags), 3), dtype=np.int64)
    for d, (gl, pl) in enumerate(per_doc):
        for gt, pt in zip(gl, pl):
            if gt == pt:
                if gt != OUTSIDE:
                    counts[d, index[gt], TP] += 1
                continue
            if pt != OUTSIDE:
                counts[d, index[pt], FP] += 1
            if gt != OUTSIDE:
                counts[d, index[gt], FN] += 1
    table = CountTable(tuple(g.id for g, _ in pairs), tuple(tags), counts)
    return table, n_tokens, uncovered


def token_scores(gold: Sequence[Document], pred: Sequence[Prediction], tokenize: Tokenize) -> dict[str, Any]:
    """Token-level scores as a JSON-able dict.

    ``{"micro": {"precision", "recall", "f1", "tp", "fp", "fn", "support"},
    "per_tag": {tag: {...}}, "gold_tokens": n, "tokens": n, "gold_spans_without_tokens": n,
    "documents": n}``. ``gold_tokens`` counts tokens with a gold label other than O (the micro
    support); ``tokens`` counts all tokens.
    """
    table, n_tokens, uncovered = _token_counts(gold, pred, tokenize)
    out = scores_from_counts(table)
    out["gold_tokens"] = out["micro"]["support"]
    out["tokens"] = n_tokens
    out["gold_spans_without_tokens"] = uncovered
    out["documents"] = len(table.doc_ids)
    return out


__all__ = ["OUTSIDE", "Tokenize", "token_counts", "token_labels", "token_scores"]
