"""Evaluation math for de-identification taggers: pure functions, no training.

* :mod:`.entity` -- entity-level P/R/F1, exact span and tag match, micro and per tag;
* :mod:`.token` -- token-level P/R/F1 (Vakili et al. 2025);
* :mod:`.significance` -- paired approximate randomization test with Table 6 markers;
* :mod:`.curves` -- learning-curve mean, standard deviation and t confidence interval;
* :mod:`.spurious` -- predicted spans that touch no gold span, per label.
"""

from synthdeid.evaluation.metrics.curves import curve_rows, summarize, write_curve_csv
from synthdeid.evaluation.metrics.entity import (
    CountTable,
    align_predictions,
    entity_counts,
    entity_scores,
    f1_of,
    precision_of,
    prf,
    recall_of,
    scores_from_counts,
)
from synthdeid.evaluation.metrics.significance import (
    MARK_BETTER,
    MARK_NONE,
    MARK_WORSE,
    RandomizationResult,
    compare_systems,
    exact_randomization_test,
    marker,
    randomization_test,
)
from synthdeid.evaluation.metrics.spurious import spurious_spans
from synthdeid.evaluation.metrics.token import token_counts, token_labels, token_scores

__all__ = [
    "MARK_BETTER",
    "MARK_NONE",
    "MARK_WORSE",
    "CountTable",
    "RandomizationResult",
    "align_predictions",
    "compare_systems",
    "curve_rows",
    "entity_counts",
    "entity_scores",
    "exact_randomization_test",
    "f1_of",
    "marker",
    "precision_of",
    "prf",
    "randomization_test",
    "recall_of",
    "scores_from_counts",
    "spurious_spans",
    "summarize",
    "token_counts",
    "token_labels",
    "token_scores",
    "write_curve_csv",
]
