"""ROUGE-N of every synthetic note against every real note, with sparse matrices.

Which side is the reference. ``rouge_score.rouge_scorer.RougeScorer.score(target, prediction)``
computes recall = overlap / n-grams of the *target* (the reference) and precision = overlap /
n-grams of the *prediction* (the candidate). Libbi et al. (2021, section 3.5) retrieve for each
synthetic note ``s`` the real note ``r`` with the highest ROUGE-N recall, and their code
(``textgen/evaluation/rouge_similarity_ranking.py``) calls ``scorer.score(synth_ehr, real_ehr)``:
the synthetic note is the target. So here, as there:

* recall = clipped shared n-grams / n-grams of the synthetic note (1.0: every n-gram of the
  synthetic note, with multiplicity, occurs in that real note, i.e. it was copied from it);
* precision = clipped shared n-grams / n-grams of the real note;
* F = 2PR / (P + R); a note with fewer than n tokens has 0 n-grams and scores 0, as in rouge_score.

The best match is the real note with the highest recall, the lowest index among ties; a synthetic
note that shares no n-gram with any real note gets recall 0 and the first real note (Libbi et al.'s
code leaves it unmatched).

The clipped overlap sum_g min(a_g, b_g) of two count vectors equals sum_t sum_g [a_g >= t][b_g >= t],
so the overlap of all pairs is a sum of a few sparse binary matrix products (one per count level t),
computed for a chunk of synthetic notes at a time to bound memory.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import scipy.sparse as sp

from synthdeid.privacy.defaults import DEFAULT_CHUNK_CELLS


@dataclass(frozen=True)
class RougeBest:
    """The best-matching real note of every synthetic note (by recall; ties: lowest index)."""

    n: int
    index: np.ndarray
    overlap: np.ndarray
    recall: np.ndarray
    precision: np.ndarray
    fmeasure: np.ndarray


def _level(m: sp.csr_matrix, t: int) -> sp.csr_matrix:
    """The 0/1 matrix [m >= t] as a new CSR matrix (``m`` is left untouched)."""
    keep = m.data >= t
    rows = np.repeat(np.arange(m.shape[0]), np.diff(m.indptr))[keep]
    indptr = np.concatenate([[0], np.cumsum(np.bincount(rows, minlength=m.shape[0]))])
    return sp.csr_matrix((np.ones(int(keep.sum()), dtype=np.int32), m.indices[keep], indptr), shape=m.shape)


class RealLevels:
    """The real notes' count matrix split into threshold levels, transposed for products."""

    def __init__(self, real: sp.csr_matrix) -> None:
        self.real = real
        self.max_count = int(real.data.max()) if real.nnz else 0
        self.levels = [_level(real, t).T.tocsr() for t in range(1, self.max_count + 1)]

    def overlap(self, synthetic: sp.csr_matrix) -> np.ndarray:
        """Dense clipped n-gram overlap, synthetic rows x real notes."""
        top = min(self.max_count, int(synthetic.data.max()) if synthetic.nnz else 0)
        total: sp.csr_matrix | None = None
        for t in range(1, top + 1):
            part = (_level(synthetic, t) @ self.levels[t - 1]).astype(np.int64)
            total = part if total is None else total + part
        if total is None:
            return np.zeros((synthetic.shape[0], self.real.shape[0]), dtype=np.int64)
        return total.toarray()


def clipped_overlap(synthetic: sp.csr_matrix, real: sp.csr_matrix) -> np.ndarray:
    """sum_g min(S[i, g], R[j, g]) for every pair (i, j), as a dense int64 matrix."""
    return RealLevels(real).overlap(synthetic)


def scores(overlap: np.ndarray, n_synthetic: np.ndarray, n_real: np.ndarray) -> tuple[np.ndarray, ...]:
    """(recall, precision, F) from overlaps and n-gram counts, computed as rouge_score does."""
    recall = overlap / np.maximum(n_synthetic, 1)
    precision = overlap / np.maximum(n_real, 1)
    total = precision + recall
    with np.errstate(invalid="ignore", divide="ignore"):
        f = np.where(total > 0, 2 * precision * recall / total, 0.0)
    return recall, precision, f


def chunk_rows(n_rows: int, n_cols: int, chunk_cells: int) -> list[slice]:
    """Row slices of ``n_rows`` such that each chunk has at most ``chunk_cells`` cells (>= 1 row)."""
    step = max(1, chunk_cells // max(n_cols, 1))
    return [slice(i, min(i + step, n_rows)) for i in range(0, n_rows, step)]


def rouge_best(
    synthetic: sp.csr_matrix,
    real: sp.csr_matrix,
    n: int,
    chunk_cells: int = DEFAULT_CHUNK_CELLS,
    on_chunk: Callable[[int], Any] | None = None,
) -> RougeBest:
    """Best real note by ROUGE-N recall for every synthetic note, from n-gram count matrices over
    one shared vocabulary (rows: notes). ``on_chunk(rows_done)`` reports progress."""
    if real.shape[0] == 0:
        raise ValueError("ROUGE needs at least one real note")
    n_syn = np.asarray(synthetic.sum(axis=1)).ravel().astype(np.int64)
    n_real = np.asarray(real.sum(axis=1)).ravel().astype(np.int64)
    levels = RealLevels(real)
    m = synthetic.shape[0]
    index = np.zeros(m, dtype=np.int64)
    best = np.zeros(m, dtype=np.int64)
    for rows in chunk_rows(m, real.shape[0], chunk_cells):
        ov = levels.overlap(synthetic[rows])
        # one denominator per synthetic note: the highest overlap is the highest recall;
        # argmax returns the first (lowest) real index among ties
        idx = ov.argmax(axis=1)
        index[rows] = idx
        best[rows] = ov[np.arange(len(idx)), idx]
        if on_chunk is not None:
            on_chunk(rows.stop - rows.start)
    recall, precision, f = scores(best, n_syn, n_real[index])
    return RougeBest(n, index, best, recall, precision, f)


def pair_overlap(
    synthetic: sp.csr_matrix, real: sp.csr_matrix, s_idx: np.ndarray, r_idx: np.ndarray, keep: np.ndarray | None = None
) -> np.ndarray:
    """Clipped overlap of the pairs (s_idx[k], r_idx[k]); ``keep`` (a boolean per n-gram)
    limits it to some n-grams."""
    s = synthetic[np.asarray(s_idx, dtype=np.int64)]
    r = real[np.asarray(r_idx, dtype=np.int64)]
    both = sp.csr_matrix(s.minimum(r))
    values = both.data.astype(np.int64)
    if keep is not None:
        values = values * keep[both.indices]
    rows = np.repeat(np.arange(both.shape[0]), np.diff(both.indptr))
    return np.bincount(rows, weights=values, minlength=both.shape[0]).astype(np.int64)


def pair_scores(
    synthetic: sp.csr_matrix, real: sp.csr_matrix, s_idx: np.ndarray, r_idx: np.ndarray
) -> tuple[np.ndarray, ...]:
    """(recall, precision, F) of given pairs."""
    ov = pair_overlap(synthetic, real, s_idx, r_idx)
    n_syn = np.asarray(synthetic[np.asarray(s_idx, dtype=np.int64)].sum(axis=1)).ravel()
    n_real = np.asarray(real[np.asarray(r_idx, dtype=np.int64)].sum(axis=1)).ravel()
    return scores(ov, n_syn, n_real)


def summary(values: Sequence[float] | np.ndarray) -> dict[str, float | int | None]:
    """Mean, median, min and max (Libbi et al., Table 8) and the count."""
    v = np.asarray(values, dtype=np.float64)
    if not len(v):
        return {"mean": None, "median": None, "min": None, "max": None, "count": 0}
    return {
        "mean": float(v.mean()),
        "median": float(np.median(v)),
        "min": float(v.min()),
        "max": float(v.max()),
        "count": len(v),
    }
