"""The privacy gate: thresholds a synthetic corpus must stay under to be published. It fails
closed: a threshold whose figure was not measured, or is not a finite number, fails the stage
(it never counts as passing); a gate key it does not know, a threshold that is not a number and a
gate without any threshold are errors before anything is computed."""

from __future__ import annotations

import difflib
import math
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from synthdeid.errors import SynthdeidError

WHERE = "privacy.gate"


@dataclass(frozen=True)
class Threshold:
    """One gate key: the privacy metric and the figure in its summary it limits."""

    key: str
    metric: str
    path: tuple[str, ...]
    what: str

    @property
    def figure(self) -> str:
        return ".".join((self.metric, *self.path))


THRESHOLDS = (
    Threshold("max_exact_duplicates", "leakage", ("exact_duplicates",), "synthetic notes identical to a real note"),
    Threshold("max_longest_run", "leakage", ("longest_run", "max"), "tokens copied verbatim in one run"),
    Threshold("max_phi_leakage", "leakage", ("phi", "rate"), "share of real PHI strings reappearing"),
    Threshold("max_phi_leakage_multi", "leakage", ("phi", "multi_token_rate"),
              "share of real multi-token PHI strings reappearing"),
)
KEYS = (*(t.key for t in THRESHOLDS), "override")


def _number(value: Any) -> float | None:
    """``value`` as a finite float, or ``None`` (booleans, strings, NaN and infinities are not numbers)."""
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        return None
    return float(value)


@dataclass(frozen=True)
class Gate:
    """The parsed ``privacy.gate``: the limits set (key -> value) and the override."""

    limits: Mapping[str, float]
    override: bool = False

    @classmethod
    def parse(cls, gate: Any) -> "Gate":
        """``privacy.gate`` from params.yaml, checked: known keys, finite non-negative numbers or
        ``null``, a boolean ``override``, and at least one threshold."""
        if not isinstance(gate, Mapping):
            raise SynthdeidError(f"{WHERE} must be a mapping of thresholds, not {gate!r} (params.yaml)")
        for key in gate:
            if key not in KEYS:
                close = difflib.get_close_matches(str(key), KEYS, n=1)
                raise SynthdeidError(
                    f"{WHERE}.{key} is not a gate key" + (f" (did you mean {close[0]}?)" if close else "")
                    + f"; the keys are {', '.join(KEYS)} (params.yaml)")
        limits: dict[str, float] = {}
        for t in THRESHOLDS:
            value = gate.get(t.key)
            if value is None:
                continue
            number = _number(value)
            if number is None or number < 0:
                hint = ""
                if isinstance(value, str):
                    try:
                        hint = f"; write {float(value)!r} (YAML reads {value!r} as a string)"
                    except ValueError:
                        pass
                raise SynthdeidError(
                    f"{WHERE}.{t.key} must be a finite number >= 0 or null, not {value!r}{hint} (params.yaml)")
            limits[t.key] = number
        override = gate.get("override", False)
        if not isinstance(override, bool):
            raise SynthdeidError(f"{WHERE}.override must be true or false, not {override!r} (params.yaml)")
        if not limits and not override:
            raise SynthdeidError(
                f"{WHERE} sets no threshold, so it would pass every corpus without measuring anything; set at "
                f"least one of {', '.join(t.key for t in THRESHOLDS)} (params.yaml)")
        return cls(limits, override)

    def thresholds(self) -> list[Threshold]:
        return [t for t in THRESHOLDS if t.key in self.limits]

    def check_metrics(self, metrics: Collection[str]) -> None:
        """Fail before measuring when a threshold's privacy metric is not among ``metrics``
        (``privacy.metrics``)."""
        for t in self.thresholds():
            if t.metric not in metrics:
                raise SynthdeidError(
                    f"{WHERE}.{t.key} needs the privacy metric {t.metric!r}, which privacy.metrics leaves out; add "
                    f"`{t.metric}: {{}}` to privacy.metrics, or set {WHERE}.{t.key}: null to drop the threshold "
                    "(params.yaml)")

    def failures(self, summary: Mapping[str, Any]) -> list[str]:
        """The thresholds ``summary`` (each metric's summary, by name) exceeds. A figure that is
        missing or not a finite number raises ``SynthdeidError`` naming it (fail closed)."""
        out = []
        for t in self.thresholds():
            value: Any = summary.get(t.metric)
            for part in t.path:
                value = value.get(part) if isinstance(value, Mapping) else None
            number = _number(value)
            if number is None:
                raise SynthdeidError(
                    f"{WHERE}.{t.key}: the figure {t.figure} ({t.what}) was not measured (got {value!r}); the gate "
                    f"does not pass a corpus it cannot measure. Check the {t.metric!r} privacy metric's config and "
                    "output, or set the threshold to null (params.yaml)")
            if number > self.limits[t.key]:
                out.append(f"{t.what}: {value} > {t.key} = {self.limits[t.key]:g}")
        return out

    def verdict(self, failures: Sequence[str]) -> dict[str, Any]:
        """The ``gate`` entry of a corpus's privacy metrics for the thresholds it exceeded."""
        return {"passed": not failures, "failures": list(failures), "limits": dict(self.limits),
                "override": self.override, "overridden": bool(failures and self.override)}

    def refusal(self, corpus: str, failures: Sequence[str], notes: Iterable[Mapping[str, Any]],
                metrics_path: str, page: str) -> SynthdeidError | None:
        """The error that stops a corpus over the thresholds from being published (``None`` when
        it passed, or the override publishes it): the failures and the five notes with the longest
        verbatim runs."""
        if not failures or self.override:
            return None
        worst = sorted(notes, key=lambda r: -(r.get("longest_run") or 0))[:5]
        return SynthdeidError(
            f"privacy gate: corpus {corpus!r} is not published:\n  - " + "\n  - ".join(failures)
            + "\n  worst notes (longest verbatim run): "
            + ", ".join(f"{r['synthetic_id']} ({r.get('longest_run')} tokens from {r.get('real_id')})" for r in worst)
            + f"\n  see {metrics_path} and {page}; to publish anyway set "
            "privacy.gate.override: true (and say why in the datasheet)")


OVERRIDE_WARNING = ("privacy.gate.override is true: corpora over the privacy thresholds are published anyway; "
                    "say why in the datasheet, and set it back to false before sharing anything")
