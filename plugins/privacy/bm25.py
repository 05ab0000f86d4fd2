"""``bm25``: for each synthetic note (the query) the real note with the highest BM25 score
(rank_bm25's BM25Okapi formula; k1 = 1.2, b = 0.75 as in Libbi et al.)."""

from __future__ import annotations

from dataclasses import dataclass

from synthdeid import SynthdeidError
from synthdeid.api import PrivacyInput, PrivacyResult
from synthdeid.privacy.audit import summary

from .common import TokenSettings, audit_corpus


@dataclass(frozen=True)
class BM25Config(TokenSettings):
    k1: float = 1.2
    b: float = 0.75
    epsilon: float = 0.25
    """Negative idf values become epsilon x the mean idf (rank_bm25's floor)."""

    def __post_init__(self) -> None:
        self.check("bm25")
        for key in ("k1", "b", "epsilon"):
            value = getattr(self, key)
            if isinstance(value, bool) or not isinstance(value, (int, float)) or value < 0:
                raise SynthdeidError(f"privacy metric 'bm25': {key} must be a number >= 0, not {value!r}")
        if self.b > 1:
            raise SynthdeidError("privacy metric 'bm25': b must be between 0 and 1")


class BM25Metric:
    name = "bm25"

    def __init__(self, config: BM25Config) -> None:
        self.config = config

    def compute(self, data: PrivacyInput) -> PrivacyResult:
        c = self.config
        corpus = audit_corpus(self.name, data, c)
        _, _, best = corpus.bm25(float(c.k1), float(c.b), float(c.epsilon), c.chunk_cells)
        rows = [{"synthetic_id": d.id, "bm25_real_id": corpus.real_docs[int(best.index[i])].id,
                 "bm25_score": float(best.score[i])} for i, d in enumerate(corpus.synthetic_docs)]
        out = {"synthetic_notes": corpus.n_synthetic, "real_notes": corpus.n_real, "score": summary(best.score)}
        return PrivacyResult(out, rows)
