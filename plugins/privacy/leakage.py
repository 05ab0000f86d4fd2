"""``leakage``: verbatim reuse. Per synthetic note: the longest token run it shares with its best
ROUGE-n real note, whether it duplicates a real note exactly (whitespace normalised) and how many of
the real notes' PHI strings it contains. Summary: the share of the real training notes' distinct PHI
strings (case and whitespace normalised, matched as token sequences anywhere in the synthetic text)
that reappear, overall and for strings of ``multi_token_min`` tokens or more (Belkadi et al.'s
re-identification rate), and the ``top`` most frequent leaked strings.

The same two figures over the *identifying* real PHI strings only (``identifying_rate``,
``identifying_multi_token_rate``) are what the privacy gate limits: a generic value reused by
chance ("60 år", a weekday, a common profession) is not a memorised identity. The rule
(``synthdeid.privacy.audit.identifying``) leaves out Age strings whose numbers are all below
``age_below`` (HIPAA Safe Harbor) and strings of ``common_labels`` found in ``common_notes`` or more
real notes; names and the other direct identifiers always count. ``phi.identifying_rule`` states
the rule applied, ``phi.not_identifying`` counts the strings each part of it left out (any length), ``phi_by_label`` breaks the leaked strings down by label and
``phi_top_leaked_identifying`` lists the identifying multi-token strings leaked most (what drives
the gate's figure). ``common_notes: null, age_below: null`` makes the identifying figures equal the
raw ones."""

from __future__ import annotations

from typing import Any

from synthdeid.api import PrivacyInput, PrivacyResult
from synthdeid.toolkit import audit_summary as summary
from synthdeid.toolkit import (
    distinct_texts,
    exact_duplicates,
    leakage_by_label,
    longest_common_run,
    phi_leakage,
    real_phi_strings,
    tokenize_documents,
)

from .common import audit_corpus
from .config import LeakageConfig


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
        lower = (
            corpus.synthetic_notes
            if c.lowercase
            else tokenize_documents(syn_docs, data.tokenize, True, c.paragraph_token)
        )
        phi = phi_leakage(
            real_phi_strings(real_docs, data.tokenize, c.paragraph_token), [t.tokens for t in lower], c.multi_token_min
        )
        rule = c.rule()
        identifying = rule.identifying(phi.phi)
        excluded = [rule.reason(p) for p in phi.phi]
        rows: list[dict[str, Any]] = []
        runs = []
        for i, doc in enumerate(syn_docs):
            r = int(best.index[i])
            length, start, _ = longest_common_run(corpus.synthetic_ids[i], corpus.real_ids[r])
            offsets = corpus.synthetic_notes[i].offsets
            text = doc.text[offsets[start][0] : offsets[start + length - 1][1]] if length else ""
            runs.append(length)
            dup = duplicates[i]
            rows.append(
                {
                    "synthetic_id": doc.id,
                    "real_id": real_docs[r].id,
                    f"rouge{c.rouge_n}_recall": float(best.recall[i]),
                    "longest_run": length,
                    "longest_run_share": length / len(offsets) if offsets else 0.0,
                    "longest_run_text": text,
                    "exact_duplicate_of": None if dup is None else real_docs[dup].id,
                    "phi_leaked": int(phi.per_note[i]),
                    "phi_leaked_multi_token": int(phi.per_note_multi[i]),
                }
            )
        n_dup = sum(d is not None for d in duplicates)
        out: dict[str, Any] = {
            "synthetic_notes": len(syn_docs),
            "real_notes": len(real_docs),
            "longest_run": summary(runs),
            "exact_duplicates": n_dup,
            "exact_duplicate_share": n_dup / len(syn_docs) if syn_docs else None,
            "synthetic_distinct_texts": distinct_texts([d.text for d in syn_docs]),
            "phi": {
                **phi.rates(),
                **phi.identifying_rates(identifying),
                "not_identifying": {"age": excluded.count("age"), "common": excluded.count("common")},
                "identifying_rule": rule.describe(),
            },
            "phi_by_label": leakage_by_label(phi, identifying),
            "phi_top_leaked": phi.top(c.top),
            "phi_top_leaked_identifying": phi.top(c.top, identifying & phi.multi_token()),
        }
        return PrivacyResult(out, rows)
