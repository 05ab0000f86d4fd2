"""The utility summary: every tagger setting scored on the real gold test split, the Table 6-like
summary (entity-level P/R/F1 with randomization-test marks against the real baseline) and the
Table 7-like per-tag F1 table, and the per-PHI-type diagnosis (F1, recall, ratio to real and the
test tokens each setting's training corpus covers), as metrics and as Markdown."""

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
    spurious_spans,
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
        scores[name] = {
            "entity": entity,
            "token": token_scores(gold, pred, tokenize),
            "spurious": spurious_spans(gold, pred),  # predictions on no PHI at all, per label
        }
    return scores


def per_type_diagnosis(
    scores: Scores, covered: Mapping[str, Mapping[str, Mapping[str, Any]]]
) -> dict[str, dict[str, Any]]:
    """Per PHI type of the test notes: its support and, per setting, F1, recall, F1 as a share of
    ``real``'s and the share of the type's test tokens seen in same-label spans of the notes the
    setting's tagger trained on (``covered[setting]``, ``evaluation.coverage.coverage`` of the test
    notes; absent for the rule baseline)."""
    out: dict[str, dict[str, Any]] = {}
    real = scores["real"]["entity"]["per_tag"]
    for tag, r in sorted(real.items(), key=lambda kv: -kv[1]["support"]):
        row: dict[str, Any] = {"support": r["support"], "test_tokens": covered["real"].get(tag, {}).get("tokens")}
        for name, s in scores.items():
            t = s["entity"]["per_tag"].get(tag, {"f1": 0.0, "recall": 0.0})
            row[name] = {
                "f1": t["f1"],
                "recall": t["recall"],
                "f1_of_real": round(t["f1"] / r["f1"], 4) if r["f1"] else None,
                "coverage": covered[name].get(tag, {}).get("share") if name in covered else None,
            }
        out[tag] = row
    return out


def utility_summary(
    gold: Sequence[Document],
    rows: list[dict[str, Any]],
    scores: Scores,
    tags: dict[str, dict[str, Any]],
    diagnosis: dict[str, dict[str, Any]],
) -> dict[str, Any]:
    """The metrics JSON of the summary."""
    return {
        "settings": {r["setting"]: {**r, "token_f1": scores[r["setting"]]["token"]["micro"]["f1"]} for r in rows},
        "scores": scores,
        "per_tag_f1": tags,
        "per_type": diagnosis,
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
    diagnosis: dict[str, dict[str, Any]],
) -> str:
    """The utility report page: Table 6 (one row per setting), Table 7 (F1 per PHI tag) and the
    per-type diagnosis (one table per setting trained on a synthetic corpus)."""
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
        f"## Table 7: F1 per PHI tag\n\n{table7}\n"
        f"{spurious_markdown(scores, names)}\n"
        f"{diagnosis_markdown(diagnosis, names)}"
    )


def spurious_markdown(scores: Scores, names: list[str]) -> str:
    """Spurious spans (predictions touching no gold span) per setting and predicted label."""
    labels = sorted({k for n in names for k in scores[n]["spurious"] if k != "total"})
    real = scores["real"]["spurious"]["total"] if "real" in scores else 0
    rows = [
        [
            n,
            scores[n]["spurious"]["total"],
            round(scores[n]["spurious"]["total"] / real, 2) if real else None,
            *(scores[n]["spurious"].get(k, 0) for k in labels),
        ]
        for n in names
    ]
    return (
        "## Spurious spans: PHI found where the test notes have none\n\n"
        "Predicted spans that share no character with a gold span, per predicted label (a boundary or tag "
        'error on real PHI is not one). A synthetic-only tagger that learned "unseen word = PHI" shows it '
        "here, on ordinary words.\n\n" + markdown_table(["setting", "spurious", "x real", *labels], rows)
    )


def diagnosis_markdown(diagnosis: dict[str, dict[str, Any]], names: list[str]) -> str:
    """One table per setting with a synthetic corpus: per PHI type, its F1 and recall beside
    ``real``'s, the ratio, and the test tokens each training corpus covers."""
    out = [
        "## What each training corpus teaches, per PHI type\n\n"
        "Coverage: the share of the type's test tokens (case-folded, with a letter or digit) that occur in "
        "the same type's spans of the setting's training notes: what a tagger could learn by heart rather "
        "than from the context. A type the real notes cover and a synthetic corpus does not is learned "
        "from context alone.\n"
    ]
    for name in names:
        if name in ("real", "rule"):
            continue
        rows = [
            [
                tag,
                v["support"],
                v["real"]["f1"],
                v["real"]["recall"],
                v["real"]["coverage"],
                v[name]["f1"],
                v[name]["recall"],
                v[name]["f1_of_real"],
                v[name]["coverage"],
            ]
            for tag, v in diagnosis.items()
        ]
        header = ["tag", "support", "real F1", "real recall", "real coverage", "F1", "recall", "F1 / real", "coverage"]
        out.append(f"### {name}\n\n{markdown_table(header, rows)}")
    return "\n".join(out)
