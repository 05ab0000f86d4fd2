"""Learning-curve summaries: mean, standard deviation and a Student-t confidence interval.

Appendix E of Libbi et al. (2021) trains on fractions of a synthetic corpus, three seeds per
fraction, and plots the mean entity-level F1 with its 95% confidence interval. Given
``{fraction: [score per seed]}`` :func:`curve_rows` returns one row per fraction:

* ``mean`` and ``std`` (sample standard deviation, ``ddof=1``);
* ``ci_low``/``ci_high`` = ``mean -/+ t(1 - (1 - confidence) / 2, n - 1) * std / sqrt(n)``
  (``scipy.stats.t``), and ``ci_half_width``.

With a single score the spread is unknown: ``std`` and the interval are ``None`` (an empty cell
in the CSV), never a fake zero-width band. With ``bounds`` (an F1 lies in [0, 1]) the interval is
clipped to them, so that three close seeds near 1 do not claim an F1 above 1; ``ci_half_width``
stays the unclipped ``t * std / sqrt(n)``.
"""

from __future__ import annotations

import csv
import math
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np
from scipy import stats

from synthdeid.errors import InputError

COLUMNS = ("fraction", "n", "mean", "std", "ci_low", "ci_high", "ci_half_width")


def summarize(
    scores: Sequence[float], confidence: float = 0.95, bounds: tuple[float, float] | None = None
) -> dict[str, Any]:
    """``{"n", "mean", "std", "ci_low", "ci_high", "ci_half_width"}`` of repeated scores; the
    interval is clipped to ``bounds`` when given."""
    if not 0 < confidence < 1:
        raise ValueError(f"confidence must be between 0 and 1, got {confidence}")
    values = np.asarray(list(scores), dtype=np.float64)
    if values.size == 0:
        raise InputError("no scores to summarize", fix="give at least one score per fraction")
    if not np.all(np.isfinite(values)):
        raise InputError(
            f"non-finite score among {values.tolist()}", fix="check the run that produced a NaN or infinite score"
        )
    n = int(values.size)
    mean = float(values.mean())
    if n < 2:
        return {"n": n, "mean": mean, "std": None, "ci_low": None, "ci_high": None, "ci_half_width": None}
    std = float(values.std(ddof=1))
    half = float(stats.t.ppf(1 - (1 - confidence) / 2, n - 1)) * std / math.sqrt(n)
    low, high = mean - half, mean + half
    if bounds is not None:
        low, high = max(low, bounds[0]), min(high, bounds[1])
    return {"n": n, "mean": mean, "std": std, "ci_low": low, "ci_high": high, "ci_half_width": half}


def curve_rows(
    results: Mapping[float | str, Sequence[float]],
    confidence: float = 0.95,
    bounds: tuple[float, float] | None = None,
) -> list[dict[str, Any]]:
    """One summary row per training-set fraction, sorted by fraction (keys may be strings)."""
    rows = []
    for key, scores in results.items():
        try:
            fraction = float(key)
        except (TypeError, ValueError):
            raise InputError(
                f"fraction {key!r} is not a number", fix="key the results by training-set fraction, e.g. 0.5"
            ) from None
        try:
            row = summarize(scores, confidence, bounds)
        except InputError as e:
            raise InputError(f"fraction {key}: {e.problem}", fix=e.fix) from None
        rows.append({"fraction": fraction, **row})
    rows.sort(key=lambda r: r["fraction"])
    fractions = [r["fraction"] for r in rows]
    if len(set(fractions)) != len(fractions):
        raise InputError(
            f"a fraction appears twice among {fractions}", fix="merge the scores of equal fractions into one list"
        )
    return rows


def write_curve_csv(rows: Sequence[Mapping[str, Any]], path: str | Path) -> Path:
    """Write :func:`curve_rows` output as CSV (``None`` becomes an empty cell)."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w", newline="", encoding="utf-8") as f:
        writer = csv.DictWriter(f, fieldnames=COLUMNS, lineterminator="\n")
        writer.writeheader()
        for row in rows:
            writer.writerow({k: "" if row.get(k) is None else row[k] for k in COLUMNS})
    return path
