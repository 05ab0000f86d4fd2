"""Stage ``learning_curve@CORPUS`` (Libbi Appendix E): the utility tagger trained on fractions of a
synthetic corpus with several seeds each, scored on the real gold test split; writes the curve
(mean entity F1 with its 95% Student-t interval per fraction) as a DVC plot and every run as metrics
(``python -m synthdeid.stages.learning_curve CORPUS``). The subset models are not kept. The whole
corpus with seed ``utility.seed`` is the ``synthetic-CORPUS`` utility setting: its test predictions
are scored, not trained again."""

from __future__ import annotations

import sys
from dataclasses import asdict

from synthdeid import paths
from synthdeid.corpus.accounting import write_json
from synthdeid.corpus.formats import read_jsonl
from synthdeid.evaluation.learning_curve import Known, run_curve, summarize_runs
from synthdeid.evaluation.metrics.curves import write_curve_csv
from synthdeid.evaluation.redraws import study_redraw, with_redraws
from synthdeid.evaluation.tagger_settings import study_tagger
from synthdeid.evaluation.utility import setting_name
from synthdeid.spec.build import SeededTagger
from synthdeid.spec.packs import language_pack
from synthdeid.stages.common import stage_main, study

CONFIDENCE = 0.95


@stage_main
def main() -> None:
    corpus = sys.argv[1]
    s = study()
    pack, tagger = language_pack(s), s.taggers[s.utility.tagger]
    synthetic = list(read_jsonl(paths.synthetic_corpus(corpus)))
    fractions = list(s.utility.learning_curve.fractions)
    seeds = list(s.utility.learning_curve.seeds)
    _, settings, _ = study_tagger(s, "synthetic", list(read_jsonl(paths.prepared("train"))), pack.tokenize)
    make = SeededTagger(tagger.plugin, settings)
    threads = make.threads()  # split across workers; a tagger without the setting trains alone
    known: dict[tuple[float, int], Known] = {}
    if 1.0 in fractions and s.utility.seed in seeds and make.seed() == s.utility.seed:
        # the synthetic-only setting: the same notes, validation split and seed (its own thread count)
        setting = setting_name("synthetic", corpus)
        known[(1.0, s.utility.seed)] = (setting, list(read_jsonl(paths.predictions(setting))))
    workers = s.utility.learning_curve.workers if threads is not None else 1
    redraws = s.utility.surrogate_redraws
    redraw = study_redraw(s, corpus, pack) if redraws > 1 else None
    runs = run_curve(
        synthetic,
        list(read_jsonl(paths.prepared("test"))),
        fractions,
        seeds,
        s.utility.synthetic_validation_share,
        make,
        pack.tokenize,
        description=f"learning curve {corpus}",
        workers=workers,
        threads=max(1, threads // workers) if threads is not None and workers > 1 else None,
        known=known,
        expand=(lambda docs: with_redraws(docs, redraws, redraw)) if redraw is not None else None,
    )
    rows = summarize_runs(runs, "f1", CONFIDENCE)
    write_curve_csv(rows, paths.learning_curve_plot(corpus))
    write_json(
        {
            "corpus": corpus,
            "tagger": s.utility.tagger,
            "metric": "entity micro F1",
            "confidence": CONFIDENCE,
            "synthetic_documents": len(synthetic),
            "workers": workers,
            "curve": {str(r["fraction"]): {k: v for k, v in r.items() if k != "fraction"} for r in rows},
            "runs": [asdict(r) for r in runs],
        },
        paths.stage_metrics("learning_curve", corpus),
    )


if __name__ == "__main__":
    main()
