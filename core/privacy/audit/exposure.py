"""Canary exposure (Carlini et al. 2019, "The Secret Sharer").

A canary is one candidate of a randomness space R (a template whose slots are filled at random).
Its rank is its position among all candidates of R ordered by log-perplexity under the model
(1 = the most likely), and its exposure is ``log2 |R| - log2 rank``: 0 when the model prefers
nothing about it, ``log2 |R|`` when it is the model's favourite.

Here the rank counts ties against the canary (``rank = 1 + #{other candidates with log-perplexity
<= the canary's}``). For a large R the rank fraction ``rank / |R|`` is estimated from a uniform
sample of n other candidates as ``(1 + k) / (1 + n)`` (k of them at or below the canary), which
is exact when the sample is all of R but the canary, and never shows more than ``log2(n + 1)``
bits. ``extrapolated_exposure`` goes past that bound the paper's way: it fits a skew-normal
distribution to the sampled log-perplexities and reads the canary's tail probability from it.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np


def exposure_from_rank(rank: float, space_size: float) -> float:
    """``log2 |R| - log2 rank`` (rank 1 is the most likely candidate)."""
    if not 1 <= rank <= space_size:
        raise ValueError(f"rank must be in [1, {space_size}], got {rank}")
    return math.log2(space_size) - math.log2(rank)


def lower_or_equal(canary: float, reference: Sequence[float]) -> int:
    """How many reference candidates have a log-perplexity at or below the canary's."""
    return int(np.count_nonzero(np.asarray(reference, dtype=float) <= canary))


def sampled_exposure(canary: float, reference: Sequence[float]) -> float:
    """Exposure estimated from the log-perplexities of other candidates: ``-log2((1 + k) / (1 + n))``.

    With ``reference`` = every other candidate of R this is the exact exposure."""
    n = len(reference)
    return math.log2(n + 1) - math.log2(1 + lower_or_equal(canary, reference))


def extrapolated_exposure(canary: float, reference: Sequence[float], space_size: float) -> float | None:
    """``-log2 F(canary)`` for ``F`` the skew-normal distribution fitted to ``reference``, capped
    at ``log2 |R|``; None when the reference is too small or degenerate to fit."""
    values = np.asarray(reference, dtype=float)
    if values.size < 20 or float(values.std()) == 0.0:
        return None
    from scipy.stats import skewnorm

    shape, loc, scale = skewnorm.fit(values)
    log_cdf = float(skewnorm.logcdf(canary, shape, loc, scale))
    if math.isnan(log_cdf):
        return None
    return min(max(-log_cdf / math.log(2), 0.0), math.log2(space_size))
