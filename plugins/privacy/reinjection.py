"""``phi_reinjection``: for generators that rewrite real notes with their PHI masked (``mlm_fill``,
Belkadi et al. 2024), how often the model put a masked PHI string back. A synthetic PHI span is
re-injected when its text (case and whitespace normalised) is the text of a PHI span of the same
label in the training note it was rewritten from. Summary: the rate over all spans, over spans of
``multi_token_min`` tokens or more (the paper's headline: 0.035 for entities of two tokens or more)
and per label. Corpora written from prompts have no source notes: the summary says so
(``applicable: false``) and measures nothing."""

from __future__ import annotations

from collections import Counter
from typing import Any

from synthdeid import SynthdeidError
from synthdeid.api import PrivacyInput, PrivacyResult
from synthdeid.toolkit import normalise_whitespace

from .config import ReinjectionConfig


def _norm(text: str) -> str:
    """Case and whitespace normalised, as ``leakage`` compares PHI strings."""
    return normalise_whitespace(text).lower()


def _rate(hits: int, total: int) -> float | None:
    return hits / total if total else None


class ReinjectionMetric:
    name = "phi_reinjection"

    def __init__(self, config: ReinjectionConfig) -> None:
        self.config = config

    def compute(self, data: PrivacyInput) -> PrivacyResult:
        if not data.sources:
            return PrivacyResult(
                {
                    "applicable": False,
                    "reason": "no synthetic note names a real training note as its source: the "
                    "generator writes notes from prompts, it does not refill real notes",
                }
            )
        real = {d.id: d for d in data.real}
        missing = sorted(set(data.sources.values()) - set(real))
        if missing:
            raise SynthdeidError(
                f"privacy metric 'phi_reinjection': source notes {missing[:3]} are not among the "
                "real training notes; run the privacy stage on the generator's training split"
            )
        counts: Counter[str] = Counter()
        by_label: dict[str, Counter[str]] = {}
        rows: list[dict[str, Any]] = []
        for doc in data.synthetic:
            source = data.sources.get(doc.id)
            if source is None:
                continue
            originals = {(s.label, _norm(real[source].text[s.start : s.end])) for s in real[source].spans}
            hits = 0
            for s in doc.spans:
                text = doc.text[s.start : s.end]
                again = (s.label, _norm(text)) in originals
                multi = len(data.tokenize(text)) >= self.config.multi_token_min
                counts.update({"spans": 1, "reinjected": again, "multi": multi, "multi_reinjected": again and multi})
                by_label.setdefault(s.label, Counter()).update({"spans": 1, "reinjected": again})
                hits += again
            rows.append({"synthetic_id": doc.id, "source_id": source, "phi_reinjected": hits})
        summary = {
            "applicable": True,
            "notes_with_source": len(rows),
            "spans": counts["spans"],
            "reinjected": counts["reinjected"],
            "rate": _rate(counts["reinjected"], counts["spans"]),
            "multi_token_min": self.config.multi_token_min,
            "multi_token_spans": counts["multi"],
            "multi_token_reinjected": counts["multi_reinjected"],
            "multi_token_rate": _rate(counts["multi_reinjected"], counts["multi"]),
            "per_label": {
                label: {"spans": c["spans"], "reinjected": c["reinjected"], "rate": _rate(c["reinjected"], c["spans"])}
                for label, c in sorted(by_label.items())
            },
        }
        return PrivacyResult(summary, rows)
