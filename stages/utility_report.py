"""Stage ``utility_report``: the Table 6-like summary (entity-level P/R/F1 of every setting with
randomization-test marks against the real baseline) and the Table 7-like per-tag F1 table."""

from __future__ import annotations

from pathlib import Path

from synthdeid.accounting import write_json
from synthdeid.formats import read_jsonl
from synthdeid.metrics import MARK_BETTER, MARK_NONE, MARK_WORSE
from synthdeid.params import get, load_params
from synthdeid.stages.common import stage_main
from synthdeid.errors import SynthdeidError
from synthdeid.metrics import entity_scores, token_scores
from synthdeid.plugin_manager import registry
from synthdeid.stages.train_tagger import PRED, TEST
from synthdeid.utility import markdown_table, per_tag_table, setting_name, summary_table

REPORT = "data/reports/utility.md"
METRICS = "data/metrics/utility_summary.json"


def settings(params: dict) -> list[str]:
    names = [setting_name("real", None)]
    names += [setting_name("synthetic", c) for c in get(params, "utility.synthetic")]
    names += [setting_name("augmented", c) for c in get(params, "utility.augmented")]
    return names + (["rule"] if get(params, "utility.rule_baseline") else [])


@stage_main
def main() -> None:
    params = load_params()
    gold = list(read_jsonl(TEST))
    preds = {name: list(read_jsonl(PRED.format(setting=name))) for name in settings(params)}
    pack = registry("language").create(get(params, "language"))
    n_gold = sum(len(d.spans) for d in gold)
    scores = {}
    for name, pred in preds.items():
        entity = entity_scores(gold, pred)  # raises when a test document has no prediction
        if entity["gold_entities"] != n_gold:
            raise SynthdeidError(f"{name}: {entity['gold_entities']} gold entities scored of {n_gold}")
        scores[name] = {"entity": entity, "token": token_scores(gold, pred, pack.tokenize)}
    sig = get(params, "utility.significance")
    rows = summary_table(gold, preds, "real", int(sig["trials"]), float(sig["alpha"]), int(sig["seed"]))
    tags = per_tag_table(gold, preds)
    write_json({"settings": {r["setting"]: {**r, "token_f1": scores[r["setting"]]["token"]["micro"]["f1"]} for r in rows},
                "scores": scores, "per_tag_f1": tags,
                "gold_entities": sum(len(d.spans) for d in gold), "test_documents": len(gold)}, METRICS)
    table6 = markdown_table(
        ["setting", "precision", "", "recall", "", "F1", "", "token F1"],
        [[r["setting"], r["precision"], r["precision_mark"], r["recall"], r["recall_mark"], r["f1"], r["f1_mark"],
          scores[r["setting"]]["token"]["micro"]["f1"]] for r in rows])
    names = list(preds)
    table7 = markdown_table(["tag", "support", *names], [[t, v["support"], *(v.get(n) for n in names)] for t, v in tags.items()])
    Path(REPORT).parent.mkdir(parents=True, exist_ok=True)
    Path(REPORT).write_text(
        "# Utility: taggers scored on the real gold test split\n\n"
        f"Entity level, exact span and tag, micro-averaged; {len(gold)} test documents, "
        f"{sum(len(d.spans) for d in gold)} gold entities. Marks: approximate randomization test "
        f"({sig['trials']} shuffles) against `real` at alpha = {sig['alpha']}: {MARK_BETTER} significantly "
        f"better, {MARK_WORSE} significantly worse, {MARK_NONE} no significant difference.\n\n"
        f"## Table 6: precision, recall and F1 per setting\n\n{table6}\n"
        f"## Table 7: F1 per PHI tag\n\n{table7}", encoding="utf-8")


if __name__ == "__main__":
    main()
