"""``high_risk_pairs``: the synthetic/real pairs a person should review (Libbi et al. 2021,
Appendix D): top k synthetic notes by ROUGE-3 and by ROUGE-5 recall with their best real note, plus
each one's BM25 match, deduplicated, without notes over ``max_chars`` characters or pairs similar only
through structure tokens. One row per pair, with the shared n-grams for highlighting."""

from __future__ import annotations

import re
from dataclasses import dataclass

from synthdeid import SynthdeidError
from synthdeid.api import PrivacyInput, PrivacyResult
from synthdeid.toolkit import STRUCTURE_PATTERN, high_risk_pairs, setting

from .common import TokenSettings, audit_corpus, ns_setting


@dataclass(frozen=True)
class HighRiskPairsConfig(TokenSettings):
    k: int = setting(10, ge=1, description="synthetic notes kept from each ROUGE ranking")
    """Synthetic notes kept from each ROUGE ranking (the paper: 100)."""
    n: tuple[int, ...] = setting((3, 5), description="the ROUGE-n rankings")
    max_chars: int = setting(1000, ge=1, description="pairs whose notes are longer than this are dropped")
    structure_pattern: str = setting(
        STRUCTURE_PATTERN, description="a token matching this (in full) is structure, e.g. <PAR> or punctuation"
    )
    """A token matching this (in full) is structure, e.g. ``<PAR>`` or punctuation."""
    filter_first: bool = setting(False, description="drop long and structure-only pairs before taking the top k")
    """Drop long and structure-only pairs before taking the top k (else after, as in the paper)."""
    k1: float = setting(1.2, ge=0, description="BM25's term-frequency saturation")
    b: float = setting(0.75, ge=0, le=1, description="BM25's length normalization")
    epsilon: float = setting(0.25, ge=0, description="negative idf values become epsilon x the mean idf")

    def __post_init__(self) -> None:
        object.__setattr__(self, "n", ns_setting("high_risk_pairs", "n", self.n))  # bounds each element
        self.check("high_risk_pairs")  # the declared bounds, and lowercase and paragraph_token
        try:  # a regex that must compile
            re.compile(self.structure_pattern)
        except (re.error, TypeError) as e:
            raise SynthdeidError(f"privacy metric 'high_risk_pairs': structure_pattern is not a regex: {e}") from None


class HighRiskPairsMetric:
    name = "high_risk_pairs"

    def __init__(self, config: HighRiskPairsConfig) -> None:
        self.config = config

    def compute(self, data: PrivacyInput) -> PrivacyResult:
        c = self.config
        corpus = audit_corpus(self.name, data, c)
        result = high_risk_pairs(
            corpus,
            k=c.k,
            ns=c.n,
            max_chars=c.max_chars,
            structure_pattern=c.structure_pattern,
            filter_first=c.filter_first,
            k1=float(c.k1),
            b=float(c.b),
            epsilon=float(c.epsilon),
            chunk_cells=c.chunk_cells,
        )
        return PrivacyResult(result.summary, result.rows, rows_are_pairs=True)
