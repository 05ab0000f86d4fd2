"""``high_risk_pairs``: the synthetic/real pairs a person should review (Libbi et al. 2021,
Appendix D): top k synthetic notes by ROUGE-3 and by ROUGE-5 recall with their best real note, plus
each one's BM25 match, deduplicated, without notes over ``max_chars`` characters or pairs similar only
through structure tokens. One row per pair, with the shared n-grams for highlighting."""

from __future__ import annotations

from synthdeid.api import PrivacyInput, PrivacyResult
from synthdeid.toolkit import high_risk_pairs

from .common import audit_corpus
from .config import HighRiskPairsConfig


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
