"""Control of the PHI tag distribution at generation time (``generate.tag_distribution``).

A tagged language model opens spans about as often, per label, as its training notes did, so a
synthetic corpus is as poor in rare labels as the real one (Libbi et al. 2021, Table 7). This
setting multiplies the probability of each label's START tag, wherever a span may open, by a
factor, then divides all factors by the same number so the expected total of opened spans stays
what the training notes had:

- ``real``: the model as trained (no change);
- ``uniform``: every label opened equally often (factor ``1 / (labels x share)``);
- ``{Label: factor}``: that label's spans ``factor`` times as often as in the training notes,
  relative to the labels not named (which keep factor 1).

The factors come from the labels' shares of the START tags in the inline training text. The
sampling decoders and beam search apply them (``TagMask``), as log-probability offsets.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Iterable, Mapping
from typing import Any

from synthdeid.errors import InputError

_START = re.compile(r"<([A-Za-z][A-Za-z0-9_]*?)START>")
FIX = "use real, uniform or a mapping {Label: factor} with positive factors for labels of the training notes"


def label_shares(lines: Iterable[str]) -> dict[str, float]:
    """Each label's share of the START tags in inline text."""
    counts = Counter(m.group(1) for line in lines for m in _START.finditer(line))
    total = sum(counts.values())
    return {label: n / total for label, n in sorted(counts.items())} if total else {}


def start_bias(setting: Any, shares: Mapping[str, float]) -> tuple[tuple[str, float], ...]:
    """(label, log-factor) pairs for ``setting`` given the training ``shares``; empty for ``real``."""
    if setting is None or setting == "real":
        return ()
    if not shares:
        raise InputError(
            "generate.tag_distribution needs tagged training notes, and these hold no PHI tags",
            path="params.yaml",
            fix="set generate.tag_distribution: real",
        )
    if setting == "uniform":
        factors = {label: 1.0 / (len(shares) * share) for label, share in shares.items()}
    elif isinstance(setting, Mapping):
        unknown = sorted(set(setting) - set(shares))
        if unknown:
            raise InputError(
                f"generate.tag_distribution names label(s) {', '.join(map(str, unknown))} that the "
                f"training notes do not hold (they hold {', '.join(shares)})",
                path="params.yaml",
                fix=FIX,
            )
        factors = {}
        for label in shares:
            value = setting.get(label, 1.0)
            if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value) or value <= 0:
                raise InputError(
                    f"generate.tag_distribution: the factor of {label} must be a positive number, not {value!r}",
                    path="params.yaml",
                    fix=FIX,
                )
            factors[label] = float(value)
    else:
        raise InputError(
            f"generate.tag_distribution must be real, uniform or a mapping, not {setting!r}",
            path="params.yaml",
            fix=FIX,
        )
    norm = sum(shares[label] * f for label, f in factors.items())
    return tuple((label, round(math.log(f / norm), 6)) for label, f in sorted(factors.items()))


def expected_shares(shares: Mapping[str, float], bias: Iterable[tuple[str, float]]) -> dict[str, float]:
    """The label shares the bias aims at (the training shares times the factors, renormalised)."""
    factors = dict(bias)
    weighted = {label: share * math.exp(factors.get(label, 0.0)) for label, share in shares.items()}
    total = sum(weighted.values())
    return {label: w / total for label, w in weighted.items()}
