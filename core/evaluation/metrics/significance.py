"""Paired two-sided approximate randomization test (Noreen 1989; Yeh 2000), as in nedap/deidentify.

Two systems A and B tag the same gold documents. Under the null hypothesis that they are
interchangeable, swapping their outputs on any document is as likely as not. One shuffle swaps
the per-document counts ``[tp, fp, fn]`` of A and B on each document independently with
probability 0.5 and recomputes the corpus metric (micro F1 by default) of both pseudo-systems.
With ``r`` the number of shuffles whose ``|metric(A') - metric(B')|`` is at least the observed
``|metric(A) - metric(B)|``, the p-value is ``(r + 1) / (N + 1)`` for ``N`` shuffles (default
10,000) -- the estimate deidentify's ``ApproximateRandomizationTest`` returns. Identical systems
therefore get p = 1 exactly. Ties are compared with a relative tolerance of 1e-12 so that
floating-point noise cannot split mathematically equal differences.

The shuffles are vectorised: with ``diff = B - A`` per document and a random 0/1 swap matrix
``S`` (shuffles x documents), the pseudo-systems' totals are ``A_total + S @ diff`` and
``B_total - S @ diff``. Swap matrices come from ``numpy.random.default_rng(seed).random`` in
chunks, so a seed gives the same p-value whatever the chunk size.

Markers follow Table 6 of Libbi et al. (2021): ``▲`` a significant improvement of A over the
baseline B, ``◦`` no significant difference, and ``▼`` (the paper has no case of it) a
significant deterioration. The paper tests at p < 0.01; the default ``alpha`` here is 0.05, pass
``alpha=0.01`` to reproduce its table. Significant means ``p_value < alpha``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import asdict, dataclass
from typing import Any

import numpy as np

from synthdeid.api import Tokenize
from synthdeid.corpus.records import Document
from synthdeid.errors import InputError
from synthdeid.evaluation.metrics.entity import (
    CountTable,
    Prediction,
    entity_counts,
    f1_of,
    precision_of,
    recall_of,
)
from synthdeid.evaluation.metrics.token import token_counts

MARK_BETTER = "▲"
MARK_WORSE = "▼"
MARK_NONE = "◦"

MetricFn = Callable[[np.ndarray], np.ndarray]
"""Maps corpus totals of shape ``(n, *count_shape)`` to ``n`` scores (vectorised)."""

METRICS: dict[str, MetricFn] = {"f1": f1_of, "precision": precision_of, "recall": recall_of}
"""Named metrics: micro scores of ``[tp, fp, fn]`` totals."""

Counts = CountTable | np.ndarray

_MAX_CELLS = 1 << 22  # swap-matrix cells per chunk (32 MiB of float64)
_MAX_EXACT_DOCUMENTS = 20
_REL_TOL = 1e-12


@dataclass(frozen=True)
class RandomizationResult:
    """Outcome of a randomization test of system A against baseline B."""

    metric: str
    score_a: float
    score_b: float
    difference: float
    """``score_a - score_b``."""
    p_value: float
    alpha: float
    significant: bool
    marker: str
    trials: int
    """Shuffles drawn; for the exact test, the number of swap patterns (2 ** documents)."""
    documents: int
    seed: int | None
    exact: bool

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def marker(difference: float, p_value: float, alpha: float = 0.05) -> str:
    """``▲`` significant improvement, ``▼`` significant deterioration, ``◦`` no difference."""
    if not p_value < alpha:
        return MARK_NONE
    return MARK_BETTER if difference > 0 else MARK_WORSE


def _resolve(
    a: Counts, b: Counts, metric: str | MetricFn, tag: str | None
) -> tuple[np.ndarray, np.ndarray, MetricFn, str]:
    """Both systems' per-document counts as float arrays ``(D, ...)`` and the metric."""
    if isinstance(a, CountTable) != isinstance(b, CountTable):
        raise TypeError("give both systems as CountTable or both as arrays")
    if isinstance(a, CountTable) and isinstance(b, CountTable):
        if a.doc_ids != b.doc_ids:
            bad = next((x for x, y in zip(a.doc_ids, b.doc_ids) if x != y), None)
            raise InputError(
                f"the two systems were scored on different documents ({len(a.doc_ids)} vs "
                f"{len(b.doc_ids)}; first difference at {bad!r})",
                doc_id=bad,
                fix="count both systems on the same gold documents, in the same order",
            )
        arr_a = a.tag(tag) if tag is not None else a.micro()
        arr_b = b.tag(tag) if tag is not None else b.micro()
    else:
        if tag is not None:
            raise TypeError("tag= needs CountTable inputs")
        arr_a, arr_b = np.asarray(a), np.asarray(b)
    if arr_a.shape != arr_b.shape or arr_a.ndim < 1:
        raise ValueError(f"count arrays differ in shape: {arr_a.shape} vs {arr_b.shape}")
    if callable(metric):
        fn, name = metric, getattr(metric, "__name__", "metric")
    else:
        if metric not in METRICS:
            raise ValueError(f"unknown metric {metric!r}; choose one of {sorted(METRICS)}")
        fn, name = METRICS[metric], metric
        if arr_a.shape[-1] != 3:
            raise ValueError(f"named metrics need [tp, fp, fn] counts, got shape {arr_a.shape}")
        # micro scores: sum any tag axes between documents and counts
        arr_a = arr_a.reshape(arr_a.shape[0], -1, 3).sum(axis=1)
        arr_b = arr_b.reshape(arr_b.shape[0], -1, 3).sum(axis=1)
    if arr_a.shape[0] == 0:
        raise InputError("no documents to compare", fix="evaluate on at least one document")
    return arr_a.astype(np.float64), arr_b.astype(np.float64), fn, name


def _count_extreme(
    masks: np.ndarray,
    diff: np.ndarray,
    tot_a: np.ndarray,
    tot_b: np.ndarray,
    fn: MetricFn,
    shape: tuple[int, ...],
    threshold: float,
) -> int:
    """How many swap patterns (rows of ``masks``) give ``|metric difference| >= threshold``."""
    shifted = masks @ diff
    pa = (tot_a + shifted).reshape(-1, *shape)
    pb = (tot_b - shifted).reshape(-1, *shape)
    d = np.abs(np.asarray(fn(pa), dtype=np.float64) - np.asarray(fn(pb), dtype=np.float64))
    return int(np.count_nonzero(d >= threshold))


def _run(
    a: Counts,
    b: Counts,
    metric: str | MetricFn,
    tag: str | None,
    patterns: Callable[[int, int], Iterator[np.ndarray]],
) -> tuple[float, float, float, str, int, int]:
    arr_a, arr_b, fn, name = _resolve(a, b, metric, tag)
    docs, shape = arr_a.shape[0], arr_a.shape[1:]
    flat_a, flat_b = arr_a.reshape(docs, -1), arr_b.reshape(docs, -1)
    tot_a, tot_b = flat_a.sum(axis=0), flat_b.sum(axis=0)
    score_a = float(np.asarray(fn(tot_a.reshape(1, *shape)))[0])
    score_b = float(np.asarray(fn(tot_b.reshape(1, *shape)))[0])
    observed = abs(score_a - score_b)
    threshold = observed - _REL_TOL * max(1.0, observed)
    diff = flat_b - flat_a
    extreme = 0
    total = 0
    for masks in patterns(docs, max(1, _MAX_CELLS // docs)):
        extreme += _count_extreme(masks, diff, tot_a, tot_b, fn, shape, threshold)
        total += masks.shape[0]
    return score_a, score_b, score_a - score_b, name, extreme, total


def randomization_test(
    a: Counts,
    b: Counts,
    metric: str | MetricFn = "f1",
    *,
    tag: str | None = None,
    trials: int = 10_000,
    seed: int | None = 0,
    alpha: float = 0.05,
) -> RandomizationResult:
    """Approximate randomization test of system ``a`` against baseline ``b``.

    ``a`` and ``b`` are :class:`CountTable` s (from ``entity_counts`` / ``token_counts`` on the
    same gold documents) or arrays of per-document counts of equal shape ``(documents, ...)``.
    ``metric`` is ``"f1"``, ``"precision"`` or ``"recall"`` (micro, or of one ``tag``), or a
    vectorised function of corpus totals (see :data:`MetricFn`). ``seed=None`` draws fresh
    entropy (not reproducible).
    """
    if trials < 1:
        raise ValueError("trials must be at least 1")
    rng = np.random.default_rng(seed)

    def patterns(docs: int, chunk: int) -> Iterator[np.ndarray]:
        left = trials
        while left:
            n = min(chunk, left)
            left -= n
            yield (rng.random((n, docs)) < 0.5).astype(np.float64)

    score_a, score_b, difference, name, extreme, total = _run(a, b, metric, tag, patterns)
    p_value = (extreme + 1) / (total + 1)
    return RandomizationResult(
        metric=name,
        score_a=score_a,
        score_b=score_b,
        difference=difference,
        p_value=p_value,
        alpha=alpha,
        significant=p_value < alpha,
        marker=marker(difference, p_value, alpha),
        trials=total,
        documents=_documents(a),
        seed=seed,
        exact=False,
    )


def exact_randomization_test(
    a: Counts,
    b: Counts,
    metric: str | MetricFn = "f1",
    *,
    tag: str | None = None,
    alpha: float = 0.05,
) -> RandomizationResult:
    """The exact permutation test: all ``2 ** documents`` swap patterns (at most 20 documents).

    The p-value is the fraction of patterns (the identity included) whose absolute difference
    reaches the observed one; :func:`randomization_test` estimates it.
    """
    docs = _documents(a)
    if docs > _MAX_EXACT_DOCUMENTS:
        raise ValueError(
            f"{docs} documents: the exact test enumerates 2 ** documents patterns; "
            f"use randomization_test above {_MAX_EXACT_DOCUMENTS} documents"
        )

    def patterns(n_docs: int, chunk: int) -> Iterator[np.ndarray]:
        bits = np.arange(n_docs)
        for start in range(0, 1 << n_docs, chunk):
            ids = np.arange(start, min(start + chunk, 1 << n_docs))
            yield ((ids[:, None] >> bits) & 1).astype(np.float64)

    score_a, score_b, difference, name, extreme, total = _run(a, b, metric, tag, patterns)
    p_value = extreme / total
    return RandomizationResult(
        metric=name,
        score_a=score_a,
        score_b=score_b,
        difference=difference,
        p_value=p_value,
        alpha=alpha,
        significant=p_value < alpha,
        marker=marker(difference, p_value, alpha),
        trials=total,
        documents=docs,
        seed=None,
        exact=True,
    )


def _documents(counts: Counts) -> int:
    return len(counts.doc_ids) if isinstance(counts, CountTable) else int(np.shape(counts)[0])


def compare_systems(
    gold: Sequence[Document],
    pred_a: Sequence[Prediction],
    pred_b: Sequence[Prediction],
    *,
    level: str = "entity",
    tokenize: Tokenize | None = None,
    metric: str | MetricFn = "f1",
    tag: str | None = None,
    trials: int = 10_000,
    seed: int | None = 0,
    alpha: float = 0.05,
) -> RandomizationResult:
    """Score both systems on ``gold`` (entity or token level) and test A against baseline B."""
    if level == "entity":
        ca, cb = entity_counts(gold, pred_a), entity_counts(gold, pred_b)
    elif level == "token":
        if tokenize is None:
            raise ValueError("level='token' needs tokenize= (a language pack's tokenizer)")
        ca, cb = token_counts(gold, pred_a, tokenize), token_counts(gold, pred_b, tokenize)
    else:
        raise ValueError(f"unknown level {level!r}; choose 'entity' or 'token'")
    return randomization_test(ca, cb, metric, tag=tag, trials=trials, seed=seed, alpha=alpha)
