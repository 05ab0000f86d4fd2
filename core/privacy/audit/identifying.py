"""Which real PHI strings identify someone: the rule behind the *identifying* PHI leakage figures
the privacy gate limits (the raw figures count every real PHI string).

A real PHI string (``PhiString``) is **not identifying** when

1. **age**: every label it has is ``Age`` and every number in it is below ``age_below`` (90):
   HIPAA Safe Harbor (45 CFR 164.514(b)(2)(i)(C)) removes ages over 89 only; "60 år", "3 jaar",
   "46-jarige". An Age string without digits ("tre år") is not judged by its value (number words
   are language-specific), only by rule 2; or
2. **common**: it occurs in at least ``common_notes`` (3) distinct real training notes, every label
   it has is one of ``common_labels`` (quasi-identifiers whose values many people share: ages,
   dates, professions, institutions, locations, ``Other``) and it is no Age of ``age_below`` or
   more. Direct identifiers (names, initials, addresses, phone numbers, e-mails, URLs, SSNs, IDs;
   ``DIRECT_IDENTIFIERS``, which ``common_labels`` may not list) are never excused, and labels
   outside the canonical set only when listed: one patient's series of notes repeats a name, so the
   number of notes holding it says nothing about how many people share it.

Why 3 notes: the privacy audit compares against the pseudonymized training notes, whose surrogates
are drawn per note; a quasi-identifier value in three unrelated notes' draws is a common value
(``synthdeid.phi.fresh_surrogates.SHARED_NOTES`` treats a training PHI string of 3 notes the same
way). A leaked common value is chance reuse, not a memorised identity.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from synthdeid.api import LanguagePack, Tokenize
from synthdeid.corpus.records import Document
from synthdeid.privacy.audit.leakage import PhiLeakage, PhiString, real_phi_strings
from synthdeid.privacy.audit.tokens import PAR
from synthdeid.privacy.defaults import AGE_BELOW, COMMON_LABELS, COMMON_NOTES

AGE = "Age"
DOMINANT_SHARE = 0.1
"""``synthdeid check`` warns about a label whose not-identifying values make up this share of the
real multi-token PHI strings: chance reuse of them alone adds up to that share to the raw figure."""

_NUMBER = re.compile(r"\d+")


@dataclass(frozen=True)
class IdentifyingRule:
    """Which real PHI strings the identifying leakage figures leave out (module docstring)."""

    common_notes: int | None = COMMON_NOTES
    """A string of ``common_labels`` in at least this many real notes is a common value; ``None``:
    no commonness rule."""
    common_labels: frozenset[str] = frozenset(COMMON_LABELS)
    age_below: int | None = AGE_BELOW
    """Age strings whose numbers are all below this are not identifying; ``None``: no age rule."""

    def _over_age(self, p: PhiString) -> bool:
        return (
            self.age_below is not None
            and AGE in p.labels
            and any(int(n) >= self.age_below for n in _NUMBER.findall(p.text))
        )

    def reason(self, p: PhiString) -> str | None:
        """Why ``p`` is not identifying (``"age"``, ``"common"``), or ``None``: it is identifying."""
        if self.age_below is not None and set(p.labels) == {AGE}:
            numbers = [int(n) for n in _NUMBER.findall(p.text)]
            if numbers and max(numbers) < self.age_below:
                return "age"
        if (
            self.common_notes is not None
            and p.real_notes >= self.common_notes
            and set(p.labels) <= self.common_labels
            and not self._over_age(p)
        ):
            return "common"
        return None

    def identifying(self, phi: Sequence[PhiString]) -> np.ndarray:
        """Per PHI string: whether it is identifying."""
        return np.array([self.reason(p) is None for p in phi], dtype=bool)

    def describe(self) -> str:
        """The rule in words, for the metrics, the datasheet and the gate's messages."""
        out = []
        if self.age_below is not None:
            out.append(f"Age strings whose numbers are all below {self.age_below} (HIPAA Safe Harbor)")
        if self.common_notes is not None and self.common_labels:
            out.append(
                f"strings of {', '.join(sorted(self.common_labels))} found in {self.common_notes}+ real "
                "notes (common values)"
            )
        return ("every real PHI string except " + " and ".join(out)) if out else "every real PHI string (no exclusion)"


def leakage_by_label(leak: PhiLeakage, identifying: np.ndarray) -> dict[str, dict[str, int]]:
    """Per label: its distinct real PHI strings and how many leaked, all of them and the
    identifying ones, of any length and of ``min_tokens`` or more. A string with two labels counts
    under each."""
    leaked = leak.notes_with > 0
    multi = leak.multi_token()
    out: dict[str, dict[str, int]] = {}
    for i, p in enumerate(leak.phi):
        for label in p.labels:
            row = out.setdefault(
                label,
                dict.fromkeys(
                    (
                        "strings",
                        "leaked",
                        "identifying_strings",
                        "identifying_leaked",
                        "multi_token_strings",
                        "multi_token_leaked",
                        "identifying_multi_token_strings",
                        "identifying_multi_token_leaked",
                    ),
                    0,
                ),
            )
            for prefix, counted in (("", True), ("identifying_", bool(identifying[i]))):
                for kind, counted_too in (("", True), ("multi_token_", bool(multi[i]))):
                    if counted and counted_too:
                        row[f"{prefix}{kind}strings"] += 1
                        row[f"{prefix}{kind}leaked"] += int(leaked[i])
    return dict(sorted(out.items()))


def dominant_labels(
    phi: Sequence[PhiString], rule: IdentifyingRule, min_tokens: int = 2, share: float = DOMINANT_SHARE
) -> list[tuple[str, list[PhiString], int]]:
    """Labels whose not-identifying multi-token strings (by ``rule``) make up ``share`` or more of
    the distinct multi-token real PHI strings: ``(label, those strings, how many multi-token strings
    in all)``, most first; the strings most common first."""
    multi = [p for p in phi if len(p.key) >= min_tokens]
    found: dict[str, list[PhiString]] = {}
    for p in multi:
        if rule.reason(p) is not None:
            for label in p.labels:
                found.setdefault(label, []).append(p)
    out = [
        (label, sorted(strings, key=lambda p: (-p.real_notes, p.text)), len(multi))
        for label, strings in found.items()
        if len(strings) / len(multi) >= share
    ]
    return sorted(out, key=lambda r: (-len(r[1]), r[0]))


def leakage_warnings(
    docs: Sequence[Document],
    tokenize: Tokenize,
    rule: IdentifyingRule | None = None,
    min_tokens: int = 2,
    paragraph_token: str | None = PAR,
) -> list[str]:
    """``synthdeid check``'s warnings about the real training notes ``docs``: labels whose values
    are so few and common that chance reuse of them would dominate the raw PHI leakage figure, and
    whether ``rule`` (the leakage metric's; ``None``: the default) keeps them out of the figure the
    gate limits. A rule that excludes nothing is checked against the default one."""
    rule = rule or IdentifyingRule()
    excludes = rule.age_below is not None or (rule.common_notes is not None and bool(rule.common_labels))
    out = []
    phi = real_phi_strings(docs, tokenize, paragraph_token)
    detect = rule if excludes else IdentifyingRule()
    for label, strings, total in dominant_labels(phi, detect, min_tokens):
        share = f"{len(strings) / total:.0%}"
        common = f"common {label} values (in {detect.common_notes}+ notes)" if detect.common_notes else ""
        ages = f"ages under {detect.age_below}" if label == AGE and detect.age_below is not None else ""
        counted = sum(rule.reason(p) is None for p in strings)
        gate = (
            "the privacy gate limits the identifying figure, which leaves them out"
            if not counted
            else f"the identifying figure the privacy gate limits counts {counted} of them (rule: {rule.describe()}); "
            "privacy.metrics.leakage's common_notes and age_below leave such values out"
        )
        out.append(
            f"{label}: {len(strings)} of the {total} distinct PHI strings of {min_tokens}+ tokens in the training "
            f"notes ({share}) are {' or '.join(w for w in (ages, common) if w)} that identify no one (e.g. "
            f"{', '.join(repr(p.text) for p in strings[:3])}). A generator reusing them by chance adds up to {share} to the "
            f"raw PHI leakage figure (leakage.phi.multi_token_rate) without copying anyone; {gate}. Fresh "
            f"surrogates for {label} (corpora.NAME.fresh_surrogates: {{labels: [{label}]}}) keep them out of the "
            "synthetic notes"
        )
    return out


def check_warnings(config: Any, pack: LanguagePack, train: Sequence[Document]) -> list[str]:
    """``leakage_warnings`` for ``synthdeid check``: the training split ``train``, tokenized by the
    language ``pack``, under the rule of the built leakage metric's ``config`` (its ``.config``:
    ``rule()``, ``multi_token_min``, ``paragraph_token``); none when ``config`` is ``None`` (no
    ``privacy.metrics.leakage``)."""
    if config is None:
        return []
    return leakage_warnings(train, pack.tokenize, config.rule(), config.multi_token_min, config.paragraph_token)
