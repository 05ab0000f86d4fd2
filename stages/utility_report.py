"""Stage ``utility_report``: the Table 6-like summary (entity-level P/R/F1 of every setting with
randomization-test marks against the real baseline), the Table 7-like per-tag F1 table and the
per-PHI-type diagnosis (what each setting's training notes teach: the coverage each
``train_tagger`` stage recorded, ``evaluation.coverage``)."""

from __future__ import annotations

from pathlib import Path

from synthdeid import paths
from synthdeid.corpus.accounting import read_json, write_json
from synthdeid.corpus.formats import read_jsonl
from synthdeid.evaluation.utility import per_tag_table, summary_table
from synthdeid.evaluation.utility_report import (
    per_type_diagnosis,
    score_settings,
    utility_markdown,
    utility_settings,
    utility_summary,
)
from synthdeid.spec.packs import language_pack
from synthdeid.stages.common import stage_main, study

METRICS = paths.UTILITY_SUMMARY


@stage_main
def main() -> None:
    s = study()
    gold = list(read_jsonl(paths.prepared("test")))
    preds = {name: list(read_jsonl(paths.predictions(name))) for name in utility_settings(s.utility)}
    pack = language_pack(s)
    scores = score_settings(gold, preds, pack.tokenize)
    sig = s.utility.significance
    rows = summary_table(gold, preds, "real", sig.trials, sig.alpha, sig.seed)
    tags = per_tag_table(gold, preds)
    covered = {name: read_json(paths.tagger_coverage(name)) for name in preds if name != paths.RULE_SETTING}
    diagnosis = per_type_diagnosis(scores, covered)
    write_json(utility_summary(gold, rows, scores, tags, diagnosis), METRICS)
    Path(paths.UTILITY_REPORT).parent.mkdir(parents=True, exist_ok=True)
    Path(paths.UTILITY_REPORT).write_text(
        utility_markdown(gold, rows, scores, tags, list(preds), sig, diagnosis), encoding="utf-8"
    )


if __name__ == "__main__":
    main()
