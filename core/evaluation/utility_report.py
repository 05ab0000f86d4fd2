"""The utility summary: every tagger setting scored on the real gold test split, the Table 6-like
summary (entity-level P/R/F1 with randomization-test marks against the real baseline) and the
Table 7-like per-tag F1 table, as metrics and as Markdown."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from synthdeid.api import Tokenize
from synthdeid.corpus.records import Document
from synthdeid.errors import SynthdeidError
from synthdeid.evaluation.metrics import (
    MARK_BETTER,
    MARK_NONE,
    MARK_WORSE,
    entity_scores,
    token_scores,
)
from synthdeid.evaluation.utility import markdown_table, setting_name

if TYPE_CHECKING:
    from synthdeid.spec.study import Significance, UtilitySection

Scores = dict[str, dict[str, Any]]


def utility_settings(utility: UtilitySection) -> list[str]:
    """The tagger settings the summary scores (of the ``utility`` section): real, each synthetic and
    augmented corpus, and the rule baseline when there is one."""
    names = [setting_name("real", None)]
    names += [setting_name("synthetic", c) for c in utility.synthetic]
    names += [setting_name("augmented", c) for c in utility.augmented]
    return names + (["rule"] if utility.rule_baseline else [])


def score_settings(gold: Sequence[Document], preds: Mapping[str, Sequence[Document]], tokenize: Tokenize) -> Scores:
    """Entity and token scores of each setting; every gold entity must be scored."""
    n_gold = sum(len(d.spans) for d in gold)
    scores = {}
    for name, pred in preds.items():
        entity = entity_scores(gold, pred)  # raises when a test document has no prediction
        if entity["gold_entities"] != n_gold:
            raise SynthdeidError(f"{name}: {entity['gold_entities']} gold entities scored of {n_gold}")
        scores[name] = {"entity": entity, "token": token_scores(gold, pred, tokenize)}
    return scores


def utility_summary(
    gold: Sequence[Document], rows: list[dict[str, Any]], scores: Scores, tags: dict[str, dict[str, Any]]
) -> dict[str, Any]:
    """The metrics JSON of the summary."""
    return {
        "settings": {r["setting"]: {**r, "token_f1": scores[r["setting"]]["token"]["micro"]["f1"]} for r in rows},
        "scores": scores,
        "per_tag_f1": tags,
        "gold_entities": sum(len(d.spans) for d in gold),
        "test_documents": len(gold),
    }


def utility_markdown(
    gold: Sequence[Document],
    rows: list[dict[str, Any]],
    scores: Scores,
    tags: dict[str, dict[str, Any]],
    names: list[str],
    sig: Significance,
) -> str:
    """The utility report page: Table 6 (one row per setting) and Table 7 (F1 per PHI tag)."""
    table6 = markdown_table(
        ["setting", "precision", "", "recall", "", "F1", "", "token F1"],
        [
            [
                r["setting"],
                r["precision"],
                r["precision_mark"],
                r["recall"],
                r["recall_mark"],
                r["f1"],
                r["f1_mark"],
                scores[r["setting"]]["token"]["micro"]["f1"],
            ]
            for r in rows
        ],
    )
    table7 = markdown_table(
        ["tag", "support", *names], [[t, v["support"], *(v.get(n) for n in names)] for t, v in tags.items()]
    )
    return (
        "# Utility: taggers scored on the real gold test split\n\n"
        f"Entity level, exact span and tag, micro-averaged; {len(gold)} test documents, "
        f"{sum(len(d.spans) for d in gold)} gold entities. Marks: approximate randomization test "
        f"({sig.trials} shuffles) against `real` at alpha = {sig.alpha}: {MARK_BETTER} significantly "
        f"better, {MARK_WORSE} significantly worse, {MARK_NONE} no significant difference.\n\n"
        f"## Table 6: precision, recall and F1 per setting\n\n{table6}\n"
        f"## Table 7: F1 per PHI tag\n\n{table7}"
    )
