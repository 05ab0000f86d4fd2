"""``leakage``: verbatim reuse. Per synthetic note: the longest token run it shares with its best
ROUGE-n real note, whether it duplicates a real note exactly (whitespace normalised) and how many of
the real notes' PHI strings it contains. Summary: the share of the real training notes' distinct PHI
strings (case and whitespace normalised, matched as token sequences anywhere in the synthetic text)
that reappear, overall and for strings of ``multi_token_min`` tokens or more (Belkadi et al.'s
re-identification rate), and the ``top`` most frequent leaked strings."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from synthdeid.api import PrivacyInput, PrivacyResult
from synthdeid.plugin_system.config import setting
from synthdeid.privacy.audit import (
    exact_duplicates,
    longest_common_run,
    phi_leakage,
    real_phi_strings,
    summary,
    tokenize_documents,
)
from synthdeid.privacy.audit.leakage import distinct_texts

from .common import TokenSettings, audit_corpus


@dataclass(frozen=True)
class LeakageConfig(TokenSettings):
    rouge_n: int = setting(3, ge=1)
    """The ROUGE-n best match whose longest common run is measured."""
    multi_token_min: int = setting(2, ge=1)
    top: int = setting(20, ge=0)
    """How many leaked PHI strings to list (most frequent first)."""

    def __post_init__(self) -> None:
        self.check("leakage")  # the declared bounds, and lowercase and paragraph_token


class LeakageMetric:
    name = "leakage"

    def __init__(self, config: LeakageConfig) -> None:
        self.config = config

    def compute(self, data: PrivacyInput) -> PrivacyResult:
        c = self.config
        corpus = audit_corpus(self.name, data, c)
        best = corpus.rouge(c.rouge_n, c.chunk_cells)
        syn_docs, real_docs = corpus.synthetic_docs, corpus.real_docs
        duplicates = exact_duplicates([d.text for d in syn_docs], [d.text for d in real_docs])
        # PHI strings are compared case-insensitively whatever ``lowercase`` says
        lower = corpus.synthetic_notes if c.lowercase else tokenize_documents(
            syn_docs, data.tokenize, True, c.paragraph_token)
        phi = phi_leakage(real_phi_strings(real_docs, data.tokenize, c.paragraph_token),
                          [t.tokens for t in lower], c.multi_token_min)
        rows: list[dict[str, Any]] = []
        runs = []
        for i, doc in enumerate(syn_docs):
            r = int(best.index[i])
            length, start, _ = longest_common_run(corpus.synthetic_ids[i], corpus.real_ids[r])
            offsets = corpus.synthetic_notes[i].offsets
            text = doc.text[offsets[start][0]: offsets[start + length - 1][1]] if length else ""
            runs.append(length)
            dup = duplicates[i]
            rows.append({
                "synthetic_id": doc.id, "real_id": real_docs[r].id,
                f"rouge{c.rouge_n}_recall": float(best.recall[i]),
                "longest_run": length, "longest_run_share": length / len(offsets) if offsets else 0.0,
                "longest_run_text": text,
                "exact_duplicate_of": None if dup is None else real_docs[dup].id,
                "phi_leaked": int(phi.per_note[i]), "phi_leaked_multi_token": int(phi.per_note_multi[i]),
            })
        n_dup = sum(d is not None for d in duplicates)
        out: dict[str, Any] = {
            "synthetic_notes": len(syn_docs), "real_notes": len(real_docs),
            "longest_run": summary(runs),
            "exact_duplicates": n_dup,
            "exact_duplicate_share": n_dup / len(syn_docs) if syn_docs else None,
            "synthetic_distinct_texts": distinct_texts([d.text for d in syn_docs]),
            "phi": phi.rates(),
            "phi_top_leaked": phi.top(c.top),
        }
        return PrivacyResult(out, rows)
