"""Stage ``learning_curve@CORPUS`` (Libbi Appendix E): the utility tagger trained on fractions of a
synthetic corpus with several seeds each, scored on the real gold test split; writes the curve
(mean entity F1 with its 95% Student-t interval per fraction) as a DVC plot and every run as metrics
(``python -m synthdeid.stages.learning_curve CORPUS``). The subset models are not kept."""

from __future__ import annotations

import sys
from dataclasses import asdict

from synthdeid import paths
from synthdeid.corpus.accounting import write_json
from synthdeid.corpus.formats import read_jsonl
from synthdeid.evaluation.learning_curve import run_curve, summarize_runs
from synthdeid.evaluation.metrics.curves import write_curve_csv
from synthdeid.evaluation.utility import tagger_from
from synthdeid.params import get, load_params
from synthdeid.plugin_system.manager import registry
from synthdeid.stages.common import stage_main

CONFIDENCE = 0.95


@stage_main
def main() -> None:
    corpus = sys.argv[1]
    params = load_params()
    pack = registry("language").create(get(params, "language"))
    synthetic = list(read_jsonl(paths.synthetic_corpus(corpus)))
    fractions = list(get(params, "utility.learning_curve.fractions"))
    seeds = list(get(params, "utility.learning_curve.seeds"))
    runs = run_curve(synthetic, list(read_jsonl(paths.prepared("test"))), fractions, seeds,
                     float(get(params, "utility.synthetic_validation_share")),
                     lambda seed: tagger_from(params, {"seed": seed}), pack.tokenize,
                     description=f"learning curve {corpus}")
    rows = summarize_runs(runs, "f1", CONFIDENCE)
    write_curve_csv(rows, paths.learning_curve_plot(corpus))
    write_json({"corpus": corpus, "tagger": get(params, "utility.tagger"), "metric": "entity micro F1",
                "confidence": CONFIDENCE, "synthetic_documents": len(synthetic),
                "curve": {str(r["fraction"]): {k: v for k, v in r.items() if k != "fraction"} for r in rows},
                "runs": [asdict(r) for r in runs]}, paths.stage_metrics("learning_curve", corpus))


if __name__ == "__main__":
    main()
