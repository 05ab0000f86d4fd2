"""``generate.min_tokens`` / ``max_tokens: auto``: generated note lengths that follow the real
training notes, in the generator's own tokens, so a corpus of short notes is not padded out to a
length sized for long ones (and long notes are not cut at a length sized for short ones).

``auto`` resolves ``min_tokens`` to the 10th percentile of the training notes' lengths and
``max_tokens`` to their 99th percentile (nearest rank), both counted as the model counts what it
generates (its ``encode`` of each inline training line, tags included)."""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Any

from synthdeid import paths
from synthdeid.errors import InputError

AUTO = "auto"
MIN_QUANTILE = 0.10
MAX_QUANTILE = 0.99


def quantile(values: Sequence[int], q: float) -> int:
    """The nearest-rank ``q`` quantile of ``values`` (the smallest value with at least q of them at
    or below it)."""
    ordered = sorted(values)
    return ordered[max(0, math.ceil(q * len(ordered)) - 1)]


def check_length(value: Any, key: str) -> int | str:
    """A length setting: ``auto`` or a whole number >= 0."""
    if value == AUTO:
        return AUTO
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise InputError(
            f"{key} must be auto or a whole number >= 0, not {value!r}",
            path="params.yaml",
            fix="auto: from the real training notes' lengths (10th / 99th percentile)",
        )
    return value


def resolve_lengths(
    min_setting: Any, max_setting: Any, lines: Sequence[str], count: Callable[[str], int]
) -> tuple[int, int]:
    """(min_tokens, max_tokens) of the settings; ``auto`` from ``lines`` (the inline training notes)
    as ``count`` measures them. An auto maximum stays above the minimum."""
    lo, hi = check_length(min_setting, "generate.min_tokens"), check_length(max_setting, "generate.max_tokens")
    if AUTO not in (lo, hi):
        return int(lo), int(hi)
    lengths = [count(line) for line in lines if line.strip()]
    if not lengths:
        raise InputError(
            "min_tokens/max_tokens: auto needs the training notes, and there are none",
            path=paths.inline_text("train"),
            fix="run the inline stage (dvc repro inline)",
        )
    if lo == AUTO:
        lo = quantile(lengths, MIN_QUANTILE)
    if hi == AUTO:
        hi = max(quantile(lengths, MAX_QUANTILE), int(lo) + 1)
    return int(lo), int(hi)
