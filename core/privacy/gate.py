"""The privacy gate: thresholds a synthetic corpus must stay under to be published. It fails
closed: a threshold whose figure was not measured, or is not a finite number, fails the stage
(it never counts as passing); a gate key it does not know, a threshold that is not a number and a
gate without any threshold are errors before anything is computed.

The PHI thresholds limit the *identifying* leakage figures (``leakage.phi.identifying_rate``,
``identifying_multi_token_rate``): the share of real PHI strings that could identify someone and
reappear, leaving out generic values a generator reuses by chance (ages under 90, values common to
several real notes; the rule is the leakage metric's, ``synthdeid.privacy.audit.identifying``, and
its summary states it). Their keys say so (``max_identifying_phi_leakage``,
``max_identifying_phi_leakage_multi``); the former keys, which limited the raw figures, are an error
naming the new key, so no threshold silently changes what it limits. The raw figures stay in the
metrics."""

from __future__ import annotations

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
    """What the figure counts: in a failure's message and the key's description (docs/params.md)."""

    @property
    def figure(self) -> str:
        return ".".join((self.metric, *self.path))


THRESHOLDS = (
    Threshold(
        "max_exact_duplicates",
        "leakage",
        ("exact_duplicates",),
        "synthetic notes identical to a real note",
    ),
    Threshold("max_longest_run", "leakage", ("longest_run", "max"), "tokens copied verbatim in one run"),
    Threshold(
        "max_identifying_phi_leakage",
        "leakage",
        ("phi", "identifying_rate"),
        "share of identifying real PHI strings reappearing",
    ),
    Threshold(
        "max_identifying_phi_leakage_multi",
        "leakage",
        ("phi", "identifying_multi_token_rate"),
        "share of identifying real multi-token PHI strings reappearing",
    ),
)
"""The gate's thresholds, declared once: the study spec's ``privacy.gate`` section
(``synthdeid.spec.study.GateSection``, which checks params and builds the ``Gate``) and the params
reference are made from them."""
LIMITS = tuple(t.key for t in THRESHOLDS)
KEYS = (*LIMITS, "override")
OVERRIDE_DOC = "publish anyway (say why in the datasheet)"
"""``override``'s description in the params reference."""
PHI_KEYS = ("max_identifying_phi_leakage", "max_identifying_phi_leakage_multi")
RENAMED = {
    "max_phi_leakage": "max_identifying_phi_leakage",
    "max_phi_leakage_multi": "max_identifying_phi_leakage_multi",
}
"""Former keys (they limited the raw figures, which count generic values too) -> the new ones."""


def former_key(gate: Mapping[Any, Any]) -> str | None:
    """Why ``gate`` (the ``privacy.gate`` mapping) is refused for a former key (``RENAMED``), or
    ``None``: the message starts with that key and names the new one (the study spec's check)."""
    old = next((key for key in gate if key in RENAMED), None)
    if old is None:
        return None
    return (
        f"{old} is now {WHERE}.{RENAMED[old]}: the gate limits the share of *identifying* real PHI strings "
        "reappearing (ages under 90 and values common to several real notes left out; the leakage metric's rule), "
        "not the raw share; rename the key (the raw figure stays in the metrics; privacy.metrics.leakage: "
        "{common_notes: null, age_below: null} makes both equal)"
    )


def sets_nothing(limits: Mapping[str, Any], override: bool) -> str | None:
    """Why a gate whose thresholds are ``limits`` (key -> value or ``None``) is refused when it
    sets none and no override (it would pass every corpus unmeasured), or ``None`` (the study
    spec's check)."""
    if override or any(limits.get(key) is not None for key in LIMITS):
        return None
    return (
        "sets no threshold, so it would pass every corpus without measuring anything; set at least one of "
        + ", ".join(LIMITS)
    )


def _number(value: Any) -> float | None:
    """A measured figure as a finite float, or ``None`` (booleans, strings, NaN and infinities are not numbers)."""
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        return None
    return float(value)


@dataclass(frozen=True)
class Gate:
    """``privacy.gate`` as the study spec built it (``GateSection.build``): the limits set
    (key -> value) and the override."""

    limits: Mapping[str, float]
    override: bool = False

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
                    "(params.yaml)"
                )

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
                    "output, or set the threshold to null (params.yaml)"
                )
            if number > self.limits[t.key]:
                out.append(f"{t.what}: {value} > {t.key} = {self.limits[t.key]:g}")
        return out

    def verdict(self, failures: Sequence[str]) -> dict[str, Any]:
        """The ``gate`` entry of a corpus's privacy metrics for the thresholds it exceeded."""
        return {
            "passed": not failures,
            "failures": list(failures),
            "limits": dict(self.limits),
            "override": self.override,
            "overridden": bool(failures and self.override),
        }

    def refusal(
        self,
        corpus: str,
        failures: Sequence[str],
        notes: Iterable[Mapping[str, Any]],
        metrics_path: str,
        page: str,
        summary: Mapping[str, Any] | None = None,
    ) -> SynthdeidError | None:
        """The error that stops a corpus over the thresholds from being published (``None`` when
        it passed, or the override publishes it): the failures, the five notes with the longest
        verbatim runs and, for a PHI leakage threshold, what drives the figure (from ``summary``,
        each metric's summary by name) and the fixes in the order to try them, the override last."""
        if not failures or self.override:
            return None
        worst = sorted(notes, key=lambda r: -(r.get("longest_run") or 0))[:5]
        phi = [key for key in PHI_KEYS if any(f"> {key} =" in f for f in failures)]
        leak = (summary or {}).get("leakage") or {}
        return SynthdeidError(
            f"privacy gate: corpus {corpus!r} is not published:\n  - "
            + "\n  - ".join(failures)
            + ("".join(f"\n{line}" for line in phi_drivers(leak, PHI_KEYS[1] in phi)) if phi else "")
            + "\n  worst notes (longest verbatim run): "
            + ", ".join(f"{r['synthetic_id']} ({r.get('longest_run')} tokens from {r.get('real_id')})" for r in worst)
            + f"\n  see {metrics_path} and {page}"
            + (
                "".join(f"\n{line}" for line in phi_fixes(corpus, leak, phi, self.limits))
                if phi
                else "; to publish anyway set privacy.gate.override: true (and say why in the datasheet)"
            )
        )


OVERRIDE_WARNING = (
    "privacy.gate.override is true: corpora over the privacy thresholds are published anyway; "
    "say why in the datasheet, and set it back to false before sharing anything"
)


def _leaking(leak: Mapping[str, Any], multi: bool) -> list[str]:
    """The labels with identifying strings that leaked (multi-token ones for ``multi``), most first."""
    by_label, count = (
        leak.get("phi_by_label") or {},
        "identifying_multi_token_leaked" if multi else "identifying_leaked",
    )
    return sorted(
        (label for label, row in by_label.items() if row.get(count)), key=lambda label: (-by_label[label][count], label)
    )


def phi_drivers(leak: Mapping[str, Any], multi: bool = True, per_label: int = 3) -> list[str]:
    """What drives the identifying PHI leakage figure, from the leakage metric's summary: per
    label, how many of its identifying strings (multi-token ones for ``multi``) leaked and its most
    reused multi-token ones (``phi_top_leaked_identifying``), most leaked labels first; the rule."""
    by_label = leak.get("phi_by_label") or {}
    if not by_label:
        return []
    top: dict[str, list[Mapping[str, Any]]] = {}
    for entry in leak.get("phi_top_leaked_identifying") or []:
        for label in entry.get("labels", []):
            top.setdefault(label, []).append(entry)
    kind = "identifying_multi_token_" if multi else "identifying_"
    tokens = f" of {(leak.get('phi') or {}).get('multi_token_min', 2)}+ tokens" if multi else ""
    out = [
        f"  what drives it, by label (identifying real PHI strings{tokens} reappearing, of all; leakage.phi_by_label):"
    ]
    for label in _leaking(leak, multi):
        shown = ", ".join(
            f"{e['text']!r} (in {e['synthetic_notes']} synthetic note{'s' * (e['synthetic_notes'] != 1)})"
            for e in top.get(label, [])[:per_label]
        )
        out.append(
            f"    {label}: {by_label[label][kind + 'leaked']} of {by_label[label][kind + 'strings']}"
            + (f": {shown}" if shown else "")
        )
    rule = (leak.get("phi") or {}).get("identifying_rule")
    if rule:
        out.append(f"  identifying: {rule}")
    return out


def phi_fixes(corpus: str, leak: Mapping[str, Any], keys: Sequence[str], limits: Mapping[str, float]) -> list[str]:
    """The fixes of a PHI leakage failure, in the order to try them: fresh surrogates for the
    leaking labels, the leakage metric's rule, a threshold, and only then the override."""
    labels = _leaking(leak, "max_identifying_phi_leakage_multi" in keys) or ["LABEL"]
    thresholds = ", ".join(f"privacy.gate.{key} (now {limits[key]:g})" for key in keys)
    return [
        "  fixes, in this order:",
        f"    1. fresh surrogates for those labels: corpora.{corpus}.fresh_surrogates: {{labels: [{', '.join(labels)}]}} "
        "(postprocess re-draws their spans from the language pack; a string leaking after that was written outside "
        "a tag: see the review page)",
        "    2. only if a label's values identify no one at this corpus's values (ages, common dates or professions; "
        "never names, initials, addresses, contact details or IDs): the leakage metric's rule, "
        "privacy.metrics.leakage: {common_notes: N, common_labels: [...], age_below: 90}",
        f"    3. a threshold you can defend in the datasheet: {thresholds}",
        "    4. last: privacy.gate.override: true (and say why in the datasheet)",
    ]
