"""``ngram_recall``: corpus n-gram recall |R ∩ S| / |R| of the real training notes' distinct n-grams
R by the synthetic notes' S, over all n-grams and over those overlapping a PHI span of a real note
(Vakili et al. 2025, Eq. 1 and Figure 2); n = 3, 5, 10 by default."""

from __future__ import annotations

from typing import Any

from synthdeid.api import PrivacyInput, PrivacyResult
from synthdeid.toolkit import ngram_recall, phi_token_mask

from .common import audit_corpus
from .config import NgramRecallConfig


class NgramRecallMetric:
    name = "ngram_recall"

    def __init__(self, config: NgramRecallConfig) -> None:
        self.config = config

    def compute(self, data: PrivacyInput) -> PrivacyResult:
        corpus = audit_corpus(self.name, data, self.config)
        phi = [phi_token_mask(note.offsets, doc) for note, doc in zip(corpus.real_notes, corpus.real_docs)]
        out: dict[str, Any] = {"synthetic_notes": corpus.n_synthetic, "real_notes": corpus.n_real}
        rows: list[dict[str, Any]] = [{"synthetic_id": d.id} for d in corpus.synthetic_docs]
        for n in self.config.n:
            result = ngram_recall(corpus.real_ids, corpus.synthetic_ids, phi, n)
            out[f"n{n}"] = result.summary()
            for i, row in enumerate(rows):
                row[f"n{n}_shared"] = int(result.shared_per_note[i])
                row[f"n{n}_phi_shared"] = int(result.phi_shared_per_note[i])
        return PrivacyResult(out, rows)
