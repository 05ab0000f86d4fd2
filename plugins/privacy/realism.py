"""``surrogate_realism``: per label, how well a character n-gram classifier tells surrogates from
the real PHI they replace (ROC AUC; 0.5: not at all), alone and in context, with the copy check
(the share of surrogates equal to a real PHI string of the label). Measured twice: the corpus's
PHI against the real training notes', and the pseudonymized training notes' surrogates against the
same real PHI (the language models learn from those). The math is
``synthdeid.privacy.audit.realism``."""

from __future__ import annotations

from typing import Any

from synthdeid import SynthdeidError
from synthdeid.api import PrivacyInput, PrivacyResult
from synthdeid.toolkit import surrogate_realism

from .config import SurrogateRealismConfig


class SurrogateRealismMetric:
    name = "surrogate_realism"

    def __init__(self, config: SurrogateRealismConfig) -> None:
        self.config = config

    def compute(self, data: PrivacyInput) -> PrivacyResult:
        if not data.original:
            raise SynthdeidError(
                "surrogate_realism needs the real training notes before pseudonymization "
                "(PrivacyInput.original), which this stage does not give"
            )
        c = self.config
        options = {"context_words": c.context_words, "folds": c.folds, "seed": c.seed, "max_strings": c.max_strings}
        summary: dict[str, Any] = {}
        for name, surrogates in (("corpus", data.synthetic), ("pseudonymized", data.real)):
            table = surrogate_realism(data.original, surrogates, **options)
            summary[name] = {"labels": table, "worst": worst(table, c.min_real_strings)}
        return PrivacyResult(summary)


def worst(table: dict[str, dict[str, Any]], min_real_strings: int) -> dict[str, Any]:
    """The highest string AUC among labels with at least ``min_real_strings`` distinct real
    strings (the labels a realism goal is judged on), with its label; None when none has as many."""
    judged = [(row["auc"], label) for label, row in table.items() if row["auc"] is not None]
    judged = [(auc, label) for auc, label in judged if table[label]["real_strings"] >= min_real_strings]
    auc, label = max(judged) if judged else (None, None)
    return {"auc": auc, "label": label, "min_real_strings": min_real_strings}
