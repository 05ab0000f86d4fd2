"""Entity-level precision, recall and F1 (exact span and tag match), micro and per tag.

A predicted entity is a true positive when a gold entity of the same document has exactly the
same ``start``, ``end`` and ``label``. Anything else is an error: a prediction that only overlaps
a gold entity, or has the right offsets but the wrong tag, is a false positive *and* the gold
entity it missed is a false negative (the scheme of nedap/deidentify's ``entity_level`` and of
seqeval/conlleval chunk scores).

Counting is by multiset: each gold entity can be matched by at most one prediction, so a
prediction repeated twice counts once as a true positive and once as a false positive. Thus
``tp + fn`` equals the number of gold spans and ``tp + fp`` the number of predicted spans.

Undefined ratios are 0: precision is 0 when there are no predictions, recall is 0 when there is
no gold entity, and F1 = 2·tp / (2·tp + fp + fn) is 0 when tp = 0 (this equals 2PR/(P+R), and 0
when P + R = 0), as in deidentify's ``Metric`` and seqeval's ``zero_division=0``.

The per-document counts (:class:`CountTable`) feed the approximate randomization test in
:mod:`synthdeid.evaluation.metrics.significance`.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from synthdeid.corpus.records import Document, Span
from synthdeid.errors import InputError

Prediction = Document | Sequence[Span]
"""What a tagger predicted for one document: its spans, or a Document carrying them."""

TP, FP, FN = 0, 1, 2
"""Positions of the counts on the last axis of every count array."""


@dataclass(frozen=True, eq=False)
class CountTable:
    """True positives, false positives and false negatives per document and tag.

    ``counts[d, t]`` is ``[tp, fp, fn]`` of document ``doc_ids[d]`` and tag ``tags[t]``
    (shape ``(documents, tags, 3)``, integers).
    """

    doc_ids: tuple[str, ...]
    tags: tuple[str, ...]
    counts: np.ndarray

    def micro(self) -> np.ndarray:
        """Per-document counts summed over tags, shape ``(documents, 3)``."""
        return self.counts.sum(axis=1)

    def tag(self, tag: str) -> np.ndarray:
        """Per-document counts of one tag, shape ``(documents, 3)`` (zeros for an unseen tag)."""
        if tag not in self.tags:
            return np.zeros((len(self.doc_ids), 3), dtype=np.int64)
        return self.counts[:, self.tags.index(tag), :]

    def with_tags(self, tags: Sequence[str]) -> CountTable:
        """The same counts over ``tags`` (a superset of this table's tags; new tags are zero)."""
        missing = set(self.tags) - set(tags)
        if missing:
            raise ValueError(f"with_tags would drop tags {sorted(missing)}")
        out = np.zeros((len(self.doc_ids), len(tags), 3), dtype=np.int64)
        for i, t in enumerate(tags):
            if t in self.tags:
                out[:, i, :] = self.counts[:, self.tags.index(t), :]
        return CountTable(self.doc_ids, tuple(tags), out)

    def per_document(self) -> list[dict[str, Any]]:
        """JSON-able micro counts per document: ``[{"id", "tp", "fp", "fn"}, ...]``."""
        return [
            {"id": doc_id, "tp": int(tp), "fp": int(fp), "fn": int(fn)}
            for doc_id, (tp, fp, fn) in zip(self.doc_ids, self.micro().tolist())
        ]


def prf(tp: int, fp: int, fn: int) -> dict[str, Any]:
    """Precision, recall and F1 of one set of counts (0 where undefined), with the counts."""
    precision = tp / (tp + fp) if tp + fp else 0.0
    recall = tp / (tp + fn) if tp + fn else 0.0
    f1 = 2 * tp / (2 * tp + fp + fn) if tp else 0.0
    return {
        "precision": precision,
        "recall": recall,
        "f1": f1,
        "tp": int(tp),
        "fp": int(fp),
        "fn": int(fn),
        "support": int(tp + fn),
    }


def _ratio(num: np.ndarray, den: np.ndarray) -> np.ndarray:
    num = np.asarray(num, dtype=np.float64)
    den = np.asarray(den, dtype=np.float64)
    return np.divide(num, den, out=np.zeros(np.broadcast(num, den).shape), where=den > 0)


def precision_of(totals: np.ndarray) -> np.ndarray:
    """Vectorised micro precision of count arrays ``(..., 3)`` (0 where undefined)."""
    totals = np.asarray(totals)
    return _ratio(totals[..., TP], totals[..., TP] + totals[..., FP])


def recall_of(totals: np.ndarray) -> np.ndarray:
    """Vectorised micro recall of count arrays ``(..., 3)`` (0 where undefined)."""
    totals = np.asarray(totals)
    return _ratio(totals[..., TP], totals[..., TP] + totals[..., FN])


def f1_of(totals: np.ndarray) -> np.ndarray:
    """Vectorised F1 = 2tp / (2tp + fp + fn) of count arrays ``(..., 3)`` (0 where undefined)."""
    totals = np.asarray(totals)
    tp = totals[..., TP]
    return _ratio(2 * tp, 2 * tp + totals[..., FP] + totals[..., FN])


def scores_from_counts(table: CountTable) -> dict[str, Any]:
    """``{"micro": {...}, "per_tag": {tag: {...}}}`` from a count table (see :func:`prf`)."""
    micro = table.counts.sum(axis=(0, 1)) if table.counts.size else np.zeros(3, dtype=np.int64)
    per_tag_totals = table.counts.sum(axis=0)
    return {
        "micro": prf(*(int(x) for x in micro)),
        "per_tag": {tag: prf(*(int(x) for x in per_tag_totals[i])) for i, tag in enumerate(table.tags)},
    }


def _check_span(span: Any, text_len: int, doc_id: str, what: str) -> Span:
    if not isinstance(span, Span):
        raise InputError(
            f"{what} {span!r} is not a Span",
            doc_id=doc_id,
            fix="give spans as synthdeid.Span(start, end, label)",
        )
    if not (isinstance(span.start, int) and isinstance(span.end, int)):
        raise InputError(
            f"{what} {span} has non-integer offsets", doc_id=doc_id, fix="offsets are character positions (integers)"
        )
    if not 0 <= span.start < span.end <= text_len:
        raise InputError(
            f"{what} {span.start}-{span.end} ({span.label}) is empty or outside the text (length {text_len})",
            doc_id=doc_id,
            fix="offsets count characters of the document text, end exclusive",
        )
    return span


def align_predictions(gold: Sequence[Document], pred: Sequence[Prediction]) -> list[tuple[Document, list[Span]]]:
    """Pair each gold document with its predicted spans, checking that the two line up.

    ``pred[i]`` belongs to ``gold[i]``. It is a list of spans, or a Document whose id (and text)
    must equal the gold document's. Raises :class:`~synthdeid.InputError` naming the document
    when the lengths or ids differ, a document id repeats, or a span is outside its text.
    """
    if isinstance(gold, Document) or isinstance(pred, Document):
        raise InputError(
            "expected a sequence of documents, got a single Document", fix="wrap single documents in a list"
        )
    if len(gold) != len(pred):
        i = min(len(gold), len(pred))
        if len(pred) < len(gold):
            problem = (
                f"{len(gold)} gold documents but {len(pred)} predictions: no prediction "
                f"for the gold document at position {i}"
            )
            raise InputError(
                problem, doc_id=gold[i].id, fix="predict every gold document (an empty list for no PHI), in order"
            )
        extra = pred[i]
        extra_id = extra.id if isinstance(extra, Document) else None
        raise InputError(
            f"{len(gold)} gold documents but {len(pred)} predictions: the prediction at "
            f"position {i} has no gold document",
            doc_id=extra_id,
            fix="give exactly one prediction per gold document, in the same order",
        )
    seen: set[str] = set()
    pairs: list[tuple[Document, list[Span]]] = []
    for i, (g, p) in enumerate(zip(gold, pred)):
        if g.id in seen:
            raise InputError(
                f"document id repeats (position {i})", doc_id=g.id, fix="give every gold document a unique id"
            )
        seen.add(g.id)
        try:
            g = g.validate(allow_empty=True)
        except InputError as e:
            raise InputError(f"gold {e.problem}", doc_id=g.id, fix=e.fix) from None
        if isinstance(p, Document):
            if p.id != g.id:
                raise InputError(
                    f"prediction at position {i} is for document {p.id!r}, not the gold document {g.id!r}",
                    doc_id=g.id,
                    fix="keep predictions in the order of the gold documents",
                )
            if p.text != g.text:
                raise InputError(
                    "the predicted document's text differs from the gold text",
                    doc_id=g.id,
                    fix="predict on the gold documents' own text",
                )
            spans = list(p.spans)
        elif isinstance(p, (str, bytes)) or not isinstance(p, Sequence):
            raise InputError(
                f"prediction at position {i} is a {type(p).__name__}",
                doc_id=g.id,
                fix="give each prediction as a list of Span (or a Document)",
            )
        else:
            spans = list(p)
        n = len(g.text)
        pairs.append((g, [_check_span(s, n, g.id, "predicted span") for s in spans]))
    return pairs


def _tag_index(pairs: Sequence[tuple[Document, Sequence[Span]]]) -> dict[str, int]:
    tags = sorted({s.label for g, p in pairs for s in (*g.spans, *p)})
    return {t: i for i, t in enumerate(tags)}


def entity_counts(gold: Sequence[Document], pred: Sequence[Prediction]) -> CountTable:
    """Exact-match tp/fp/fn per document and tag (see the module docstring)."""
    pairs = align_predictions(gold, pred)
    index = _tag_index(pairs)
    counts = np.zeros((len(pairs), len(index), 3), dtype=np.int64)
    for d, (g, p) in enumerate(pairs):
        gold_bag = Counter(g.spans)
        pred_bag = Counter(p)
        for span, k in pred_bag.items():
            tp = min(k, gold_bag.get(span, 0))
            counts[d, index[span.label], TP] += tp
            counts[d, index[span.label], FP] += k - tp
        for span, k in gold_bag.items():
            counts[d, index[span.label], FN] += k - min(k, pred_bag.get(span, 0))
    return CountTable(tuple(g.id for g, _ in pairs), tuple(index), counts)


def entity_scores(gold: Sequence[Document], pred: Sequence[Prediction]) -> dict[str, Any]:
    """Entity-level scores as a JSON-able dict.

    ``{"micro": {"precision", "recall", "f1", "tp", "fp", "fn", "support"},
    "per_tag": {tag: {...same keys...}}, "gold_entities": n, "predicted_entities": n,
    "documents": n}``. ``per_tag`` lists every tag seen in gold or predictions, sorted;
    ``support`` is the number of gold entities (tp + fn). Use :func:`entity_counts` for the
    per-document counts.
    """
    table = entity_counts(gold, pred)
    out = scores_from_counts(table)
    micro = out["micro"]
    out["gold_entities"] = micro["tp"] + micro["fn"]
    out["predicted_entities"] = micro["tp"] + micro["fp"]
    out["documents"] = len(table.doc_ids)
    return out
