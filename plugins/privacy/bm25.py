"""``bm25``: for each synthetic note (the query) the real note with the highest BM25 score
(rank_bm25's BM25Okapi formula; k1 = 1.2, b = 0.75 as in Libbi et al.)."""

from __future__ import annotations

from synthdeid.api import PrivacyInput, PrivacyResult
from synthdeid.toolkit import audit_summary as summary

from .common import audit_corpus
from .config import BM25Config


class BM25Metric:
    name = "bm25"

    def __init__(self, config: BM25Config) -> None:
        self.config = config

    def compute(self, data: PrivacyInput) -> PrivacyResult:
        c = self.config
        corpus = audit_corpus(self.name, data, c)
        _, _, best = corpus.bm25(float(c.k1), float(c.b), float(c.epsilon), c.chunk_cells)
        rows = [
            {
                "synthetic_id": d.id,
                "bm25_real_id": corpus.real_docs[int(best.index[i])].id,
                "bm25_score": float(best.score[i]),
            }
            for i, d in enumerate(corpus.synthetic_docs)
        ]
        out = {"synthetic_notes": corpus.n_synthetic, "real_notes": corpus.n_real, "score": summary(best.score)}
        return PrivacyResult(out, rows)
