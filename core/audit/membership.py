"""Loss-based membership inference: how well a per-note score (higher = "the model saw it")
separates training notes (members) from held-out notes (non-members)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from scipy.stats import rankdata


def auc(members: Sequence[float], nonmembers: Sequence[float]) -> float:
    """ROC AUC of the scores: P(member score > non-member score) + P(tie) / 2 (Mann-Whitney U,
    from mid-ranks so ties count half)."""
    m, n = len(members), len(nonmembers)
    if not m or not n:
        raise ValueError("AUC needs at least one member and one non-member score")
    ranks = rankdata(np.concatenate([np.asarray(members, float), np.asarray(nonmembers, float)]))
    return float((ranks[:m].sum() - m * (m + 1) / 2) / (m * n))


def bootstrap_auc(members: Sequence[float], nonmembers: Sequence[float], resamples: int, seed: int,
                  level: float = 0.95) -> tuple[float, float]:
    """Percentile bootstrap interval of the AUC, members and non-members resampled separately."""
    rng = np.random.default_rng(seed)
    a, b = np.asarray(members, float), np.asarray(nonmembers, float)
    stats = [auc(a[rng.integers(0, a.size, a.size)], b[rng.integers(0, b.size, b.size)]) for _ in range(resamples)]
    tail = (1 - level) / 2 * 100
    low, high = np.percentile(stats, [tail, 100 - tail])
    return float(low), float(high)


@dataclass(frozen=True)
class Advantage:
    """The best threshold rule "score >= threshold means member"."""

    advantage: float
    """TPR - FPR at the best threshold (0: no better than guessing)."""
    threshold: float | None
    """None when no threshold beats guessing."""
    tpr: float
    fpr: float


def best_advantage(members: Sequence[float], nonmembers: Sequence[float]) -> Advantage:
    """The threshold (one of the scores) that maximises TPR - FPR; the highest one on ties."""
    a, b = np.asarray(members, float), np.asarray(nonmembers, float)
    if not a.size or not b.size:
        raise ValueError("the advantage needs at least one member and one non-member score")
    best = Advantage(0.0, None, 0.0, 0.0)
    for t in sorted(set(a.tolist()) | set(b.tolist()), reverse=True):
        tpr, fpr = float(np.mean(a >= t)), float(np.mean(b >= t))
        if tpr - fpr > best.advantage:
            best = Advantage(tpr - fpr, float(t), tpr, fpr)
    return best
