"""Stage ``predict_rule``: the rule-based baseline (``utility.rule_baseline``, e.g. DEDUCE) run
over the real gold test split, no training (Libbi Table 6)."""

from __future__ import annotations

from synthdeid import paths
from synthdeid.corpus.formats import read_jsonl, write_jsonl
from synthdeid.phi.annotate import annotate_documents
from synthdeid.plugin_system.manager import registry
from synthdeid.stages.common import empty_on_purpose, stage_main, study


@stage_main
def main() -> None:
    name = study().utility.rule_baseline
    test = list(read_jsonl(paths.prepared("test")))
    docs = [] if not name else list(annotate_documents(test, registry("annotator").create(name, {})))
    write_jsonl(docs, paths.predictions(paths.RULE_SETTING))
    if not name:  # the report leaves it out
        empty_on_purpose(paths.predictions(paths.RULE_SETTING), "utility.rule_baseline is null: no rule baseline")


if __name__ == "__main__":
    main()
