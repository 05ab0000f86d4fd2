"""``rouge``: for each synthetic note the real note with the highest ROUGE-N recall (n = 3 and 5 by
default), the synthetic note being the reference as in Libbi et al. (see ``synthdeid.privacy.audit.rouge``);
the summary is their Table 8 (mean, median, min, max of the best-match scores)."""

from __future__ import annotations

from typing import Any

from synthdeid.api import PrivacyInput, PrivacyResult
from synthdeid.toolkit import audit_summary as summary

from .common import audit_corpus
from .config import RougeConfig


class RougeMetric:
    name = "rouge"

    def __init__(self, config: RougeConfig) -> None:
        self.config = config

    def compute(self, data: PrivacyInput) -> PrivacyResult:
        corpus = audit_corpus(self.name, data, self.config)
        out: dict[str, Any] = {
            "reference": "synthetic",
            "synthetic_notes": corpus.n_synthetic,
            "real_notes": corpus.n_real,
        }
        rows: list[dict[str, Any]] = [{"synthetic_id": d.id} for d in corpus.synthetic_docs]
        for n in self.config.n:
            best = corpus.rouge(n, self.config.chunk_cells)
            out[f"rouge{n}"] = {
                "recall": summary(best.recall),
                "precision": summary(best.precision),
                "fmeasure": summary(best.fmeasure),
            }
            for i, row in enumerate(rows):
                row[f"rouge{n}_real_id"] = corpus.real_docs[int(best.index[i])].id
                row[f"rouge{n}_recall"] = float(best.recall[i])
                row[f"rouge{n}_precision"] = float(best.precision[i])
                row[f"rouge{n}_fmeasure"] = float(best.fmeasure[i])
        return PrivacyResult(out, rows)
