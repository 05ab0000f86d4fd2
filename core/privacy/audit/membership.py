"""Loss-based membership inference: how well a per-note score (higher = "the model saw it")
separates training notes (members) from held-out notes (non-members)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np


def auc(members: Sequence[float] | np.ndarray, nonmembers: Sequence[float] | np.ndarray) -> float:
    """ROC AUC of the scores: P(member score > non-member score) + P(tie) / 2 (Mann-Whitney U,
    from mid-ranks so ties count half)."""
    m, n = len(members), len(nonmembers)
    if not m or not n:
        raise ValueError("AUC needs at least one member and one non-member score")
    from scipy.stats import rankdata  # here: scipy costs 0.6 s to import, and the spec imports this module

    ranks = rankdata(np.concatenate([np.asarray(members, float), np.asarray(nonmembers, float)]))
    return float((ranks[:m].sum() - m * (m + 1) / 2) / (m * n))


def bootstrap_auc(
    members: Sequence[float], nonmembers: Sequence[float], resamples: int, seed: int, level: float = 0.95
) -> tuple[float, float]:
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


def tpr_at_fpr(
    members: Sequence[float] | np.ndarray, nonmembers: Sequence[float] | np.ndarray, fpr: float
) -> float | None:
    """The share of members the attack flags when it may flag at most ``fpr`` of the non-members
    (Carlini et al. 2022, "Membership inference attacks from first principles": report the
    low-false-positive end of the ROC curve, not only its AUC).

    The rule is "score strictly above the (k+1)-th highest non-member score", k = floor(fpr * n):
    at most k non-members pass, and a member tied with that score does not. None when there are
    fewer than 1 / fpr non-members: then no threshold can tell the rate apart from zero."""
    if not 0 < fpr < 1:
        raise ValueError(f"fpr must be between 0 and 1, not {fpr}")
    a, b = np.asarray(members, float), np.sort(np.asarray(nonmembers, float))[::-1]
    if not a.size:
        raise ValueError("the TPR needs at least one member score")
    if b.size * fpr < 1 - 1e-9:
        return None
    allowed = int(np.floor(fpr * b.size + 1e-9))
    threshold = b[allowed] if allowed < b.size else -np.inf
    return float(np.mean(a > threshold))


def bootstrap_tpr_at_fpr(
    members: Sequence[float], nonmembers: Sequence[float], fpr: float, resamples: int, seed: int, level: float = 0.95
) -> tuple[float, float] | None:
    """Percentile bootstrap interval of ``tpr_at_fpr``, members and non-members resampled apart;
    None where the rate itself is not measurable."""
    if tpr_at_fpr(members, nonmembers, fpr) is None:
        return None
    rng = np.random.default_rng(seed)
    a, b = np.asarray(members, float), np.asarray(nonmembers, float)
    stats = [
        tpr_at_fpr(a[rng.integers(0, a.size, a.size)], b[rng.integers(0, b.size, b.size)], fpr)
        for _ in range(resamples)
    ]
    tail = (1 - level) / 2 * 100
    low, high = np.percentile(np.asarray(stats, float), [tail, 100 - tail])
    return float(low), float(high)


LOW_FPRS = {0.01: "tpr_at_fpr_1pct", 0.001: "tpr_at_fpr_0_1pct"}
"""The false-positive rates every attack reports its true-positive rate at, and their keys."""


def attack_summary(
    members: Sequence[float], nonmembers: Sequence[float], resamples: int, seed: int, digits: int = 4
) -> dict[str, object]:
    """AUC and TPR at 1% and 0.1% FPR, each with its bootstrap 95% interval (none when
    ``resamples`` is 0), for scores where higher means "member"."""

    def r(x: float | None) -> float | None:
        return None if x is None else round(float(x), digits)

    out: dict[str, object] = {
        "members": len(members),
        "nonmembers": len(nonmembers),
        "auc": r(auc(members, nonmembers)),
    }
    ci = bootstrap_auc(members, nonmembers, resamples, seed) if resamples else None
    out["auc_ci95"] = None if ci is None else [r(x) for x in ci]
    for fpr, key in LOW_FPRS.items():
        out[key] = r(tpr_at_fpr(members, nonmembers, fpr))
        band = bootstrap_tpr_at_fpr(members, nonmembers, fpr, resamples, seed) if resamples else None
        out[f"{key}_ci95"] = None if band is None else [r(x) for x in band]
    return out
