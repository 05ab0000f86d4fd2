"""The privacy metrics' settings classes, each registered with its metric (``config=``): the
study spec checks a ``privacy.metrics`` entry against them without importing the audit math (numpy,
scipy, torch), which the metric modules load when a metric is created."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any, ClassVar

from pydantic import field_validator

from synthdeid import SynthdeidError
from synthdeid.toolkit import (
    AGE_BELOW,
    COMMON_LABELS,
    COMMON_NOTES,
    DEFAULT_CHUNK_CELLS,
    DIRECT_IDENTIFIERS,
    PAR,
    STRUCTURE_PATTERN,
    Settings,
    setting,
)

if TYPE_CHECKING:
    from synthdeid.toolkit import IdentifyingRule


class TokenSettings(Settings):
    """Settings every privacy metric has."""

    metric: ClassVar[str] = "privacy"
    """The metric's name, for its errors."""

    lowercase: bool = setting(True, description="compare tokens lowercased")
    paragraph_token: str | None = setting(
        PAR, description="each line break becomes this token (null: line breaks are not tokens)"
    )
    """Each line break becomes this token (None: line breaks are not tokens)."""
    chunk_cells: int = setting(
        DEFAULT_CHUNK_CELLS,
        ge=1,
        description="synthetic x real cells per chunk of the all-pairs matrices (bounds memory)",
    )

    @field_validator("paragraph_token")
    @classmethod
    def _paragraph_token(cls, value: str | None) -> str | None:
        if value == "":
            raise SynthdeidError(f"privacy metric {cls.metric!r}: paragraph_token must be a non-empty string or null")
        return value


class NgramSizes(TokenSettings):
    """A metric whose ``n`` is a list of n-gram sizes: given as an int or a list of ints >= 1 (a
    bound on every element of a list, which ``setting`` cannot declare), kept as a sorted tuple."""

    @field_validator("n", mode="before", check_fields=False)
    @classmethod
    def _sizes(cls, value: Any) -> tuple[int, ...]:
        values = [value] if isinstance(value, int) and not isinstance(value, bool) else value
        if (
            not isinstance(values, (list, tuple))
            or not values
            or not all(isinstance(v, int) and not isinstance(v, bool) and v >= 1 for v in values)
        ):
            raise SynthdeidError(
                f"privacy metric {cls.metric!r}: setting 'n' must be a list of whole numbers >= 1, got {value!r}"
            )
        return tuple(sorted(set(values)))


class RougeConfig(NgramSizes):
    """``rouge``: each synthetic note's best ROUGE-n recall against the real notes."""

    metric: ClassVar[str] = "rouge"
    n: tuple[int, ...] = setting((3, 5), description="the ROUGE-n sizes measured")


class BM25Config(TokenSettings):
    """``bm25``: each synthetic note's best BM25 match among the real notes."""

    metric: ClassVar[str] = "bm25"
    k1: float = setting(1.2, ge=0, description="BM25's term-frequency saturation")
    b: float = setting(0.75, ge=0, le=1, description="BM25's length normalization")
    epsilon: float = setting(0.25, ge=0, description="negative idf values become epsilon x the mean idf")
    """Negative idf values become epsilon x the mean idf (rank_bm25's floor)."""


class NgramRecallConfig(NgramSizes):
    """``ngram_recall``: the share of the real notes' distinct n-grams the synthetic notes hold."""

    metric: ClassVar[str] = "ngram_recall"
    n: tuple[int, ...] = setting((3, 5, 10), description="the n-gram sizes measured")


class LeakageConfig(TokenSettings):
    """``leakage``: verbatim reuse of real notes and of their PHI strings."""

    metric: ClassVar[str] = "leakage"
    rouge_n: int = setting(3, ge=1, description="the ROUGE-n best match whose longest common run is measured")
    multi_token_min: int = setting(
        2, ge=1, description="PHI strings of at least this many tokens give the multi-token figures"
    )
    top: int = setting(20, ge=0, description="how many leaked PHI strings to list")
    """How many leaked PHI strings to list (most frequent first)."""
    common_notes: int | None = setting(
        COMMON_NOTES,
        ge=2,
        description="a PHI string of common_labels in this many real notes is not identifying (null: none is)",
    )
    """A PHI string of ``common_labels`` in at least this many distinct real training notes is a
    common value, left out of the identifying figures (null: no commonness rule). 3: the training
    notes are pseudonymized with surrogates drawn per note, so a quasi-identifier value in three
    unrelated notes is a common one (fresh surrogates' ``SHARED_NOTES`` is 3 too); 1 would excuse
    every string, hence >= 2."""
    common_labels: tuple[str, ...] = setting(COMMON_LABELS, description="the labels the commonness rule may excuse")
    """The labels the commonness rule may excuse: quasi-identifiers whose values many people share.
    Names, initials, addresses, contact details and identifiers (``DIRECT_IDENTIFIERS``) may not be
    listed: one patient's notes repeat them; a corpus's own labels only if they are none of those."""
    age_below: int | None = setting(
        AGE_BELOW, ge=1, description="ages below this are not identifying (null: ages count like any PHI)"
    )
    """Age strings whose numbers are all below this are not identifying (HIPAA Safe Harbor keeps
    ages under 90; null: ages count like any PHI). An Age of this or more always counts."""

    @field_validator("common_labels", mode="before")
    @classmethod
    def _labels(cls, value: Any) -> Any:
        if not isinstance(value, (list, tuple)) or not all(isinstance(label, str) and label for label in value):
            raise SynthdeidError(f"privacy metric 'leakage': common_labels must be a list of labels, got {value!r}")
        return tuple(value)

    @field_validator("common_labels")
    @classmethod
    def _no_direct_identifier(cls, value: tuple[str, ...]) -> tuple[str, ...]:
        direct = sorted(DIRECT_IDENTIFIERS.intersection(value))
        if direct:
            raise SynthdeidError(
                f"privacy metric 'leakage': common_labels lists {', '.join(direct)}, a direct identifier: how many "
                "notes hold a name says nothing about how many people share it (one patient's notes repeat it), so "
                "its values always count as identifying; give it fresh surrogates instead "
                "(corpora.NAME.fresh_surrogates: {labels: [...]})"
            )
        return value

    def rule(self) -> IdentifyingRule:
        from synthdeid.toolkit import IdentifyingRule  # the audit math (numpy), loaded when a metric runs

        return IdentifyingRule(self.common_notes, frozenset(self.common_labels), self.age_below)


class HighRiskPairsConfig(NgramSizes):
    """``high_risk_pairs``: the synthetic/real pairs a person should review."""

    metric: ClassVar[str] = "high_risk_pairs"
    k: int = setting(10, ge=1, description="synthetic notes kept from each ROUGE ranking")
    """Synthetic notes kept from each ROUGE ranking (the paper: 100)."""
    n: tuple[int, ...] = setting((3, 5), description="the ROUGE-n rankings")
    max_chars: int = setting(1000, ge=1, description="pairs whose notes are longer than this are dropped")
    structure_pattern: str = setting(
        STRUCTURE_PATTERN, description="a token matching this (in full) is structure, e.g. <PAR> or punctuation"
    )
    filter_first: bool = setting(False, description="drop long and structure-only pairs before taking the top k")
    """Drop long and structure-only pairs before taking the top k (else after, as in the paper)."""
    k1: float = setting(1.2, ge=0, description="BM25's term-frequency saturation")
    b: float = setting(0.75, ge=0, le=1, description="BM25's length normalization")
    epsilon: float = setting(0.25, ge=0, description="negative idf values become epsilon x the mean idf")

    @field_validator("structure_pattern")
    @classmethod
    def _regex(cls, value: str) -> str:
        try:  # a regex that must compile
            re.compile(value)
        except re.error as e:
            raise SynthdeidError(f"privacy metric 'high_risk_pairs': structure_pattern is not a regex: {e}") from None
        return value


class ReinjectionConfig(Settings):
    """``phi_reinjection``: how often a refill generator put a masked PHI string back."""

    multi_token_min: int = setting(2, ge=1, description="spans of at least this many tokens give the multi_token rate")


class DataMembershipConfig(TokenSettings):
    """``data_membership_inference``: membership inference from the synthetic corpus alone."""

    metric: ClassVar[str] = "data_membership_inference"
    n: int = setting(2, ge=1, description="order of the attacker's n-gram model")
    k: float = setting(1.0, gt=0, description="add-k smoothing (1: Laplace)")
    """Add-k smoothing (1: Laplace, as in the paper)."""
    bootstrap: int = setting(1000, ge=0, description="resamples for the 95% intervals (0: none)")
    seed: int = setting(0, ge=0, description="seed of the attack's splits and resamples")


class SurrogateRealismConfig(Settings):
    """``surrogate_realism``: can a classifier tell the surrogates from the real PHI they replace?"""

    context_words: int = setting(3, ge=0, description="words either side of a span in the context variant (0: none)")
    folds: int = setting(5, ge=2, description="cross-validation folds of the classifier")
    seed: int = setting(0, ge=0, description="seed of the folds and of the string samples")
    max_strings: int = setting(2000, ge=10, description="distinct strings per label and side classified at most")
    min_real_strings: int = setting(
        50, ge=1, description="labels with this many distinct real strings give the worst-label figure"
    )


class CanaryExposureConfig(Settings):
    """``canary_exposure``: how much of the inserted canaries the trained model memorised."""

    candidates: int = setting(2000, ge=1, description="candidates of the randomness space sampled as the reference")
    """Candidates of the randomness space sampled as the reference (all of it when smaller)."""
    seed: int = setting(0, ge=0, description="seed of the candidates' sample")
    batch_size: int = setting(64, ge=1, description="sequences scored per batch")
    threads: int = setting(2, ge=1, description="torch threads while scoring")
    """torch threads while scoring (the demo's audits on 2 cores: 1.3-1.4x faster with 2 than with 1)."""
    extrapolate: bool = setting(
        True, description="also estimate exposure past log2(candidates + 1) from a fitted skew-normal"
    )
    """Also estimate exposure past log2(candidates + 1) from a fitted skew-normal (Carlini 4.3)."""


class MembershipInferenceConfig(Settings):
    """``membership_inference``: a loss-based membership-inference attack on a generator."""

    max_notes: int = setting(
        200, ge=1, description="notes per side (training and held-out), a seeded sample when there are more"
    )
    seed: int = setting(0, ge=0, description="seed of the sample and resamples")
    bootstrap: int = setting(1000, ge=0, description="resamples for the AUC's 95% interval (0: none)")
    batch_size: int = setting(64, ge=1, description="notes scored per batch")
    threads: int = setting(2, ge=1, description="torch threads while scoring")
    """torch threads while scoring (the demo's audits on 2 cores: 1.3-1.4x faster with 2 than with 1)."""
    top: int = setting(5, ge=0, description="how many training notes with the lowest loss to list")
    """How many training notes with the lowest loss to list (the most memorised-looking)."""


class NameProbeConfig(Settings):
    """``name_probe``: whether a trained generator writes its training notes' PHI when asked for PHI."""

    k: int = setting(10, ge=1, description="predictions per probe")
    max_probes: int = setting(400, ge=1, description="probes at most (a seeded sample of the dev notes' START tags)")
    """Probes at most (a seeded sample of all START tags in the dev notes)."""
    max_tokens: int = setting(8, ge=1, description="tokens a prediction may have before the END tag")
    context: int = setting(128, ge=1, description="words of the note before the START tag the model is given")
    labels: tuple[str, ...] | None = setting(None, description="the tags to probe (null: all)")
    """The tags to probe (None: all)."""
    seed: int = setting(0, ge=0, description="seed of the probes' sample")
    batch_size: int = setting(16, ge=1, description="probes per batch")
    top: int = setting(20, ge=0, description="how many of the most predicted training PHI strings to list")

    @field_validator("labels", mode="before")
    @classmethod
    def _labels(cls, value: Any) -> Any:
        if value is not None and (
            not isinstance(value, (list, tuple)) or not value or not all(isinstance(x, str) for x in value)
        ):
            raise SynthdeidError(f"privacy metric 'name_probe': labels must be a list of tags or null, not {value!r}")
        return value
