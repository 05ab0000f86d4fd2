"""Stage ``privacy@CORPUS``: every configured privacy metric of a synthetic corpus against the
generator's (pseudonymized) training notes, the high-risk pairs with their review page, and the
privacy gate: a corpus over the thresholds fails the stage unless ``privacy.gate.override``. The
metrics add the share of the training notes' PHI tokens found in the corpus's same-label spans
(``evaluation.coverage.exposure``), before and after pseudonymization, and the head words the
surrogates kept (``pseudonymize.head_words``)."""

from __future__ import annotations

import sys
from pathlib import Path

from synthdeid import paths
from synthdeid.api import PrivacyInput
from synthdeid.corpus.accounting import write_json
from synthdeid.corpus.formats import read_jsonl
from synthdeid.evaluation.coverage import exposures
from synthdeid.generation.origin import Origin
from synthdeid.phi.head_words import HeadWords
from synthdeid.plugin_system.manager import registry
from synthdeid.privacy.gate import OVERRIDE_WARNING
from synthdeid.privacy.measure import label_pairs, measure, refill_sources, write_rows
from synthdeid.report.review.page import write_review_page
from synthdeid.spec.packs import language_pack
from synthdeid.stages.common import stage_main, study


@stage_main
def main() -> None:
    corpus = sys.argv[1]
    s = study()
    gate = s.privacy.gate.build()
    metrics = s.privacy.metric_settings("metrics")
    gate.check_metrics(metrics)  # fails before measuring
    if gate.override:
        print(f"warning: {OVERRIDE_WARNING}", file=sys.stderr)
    pack = language_pack(s)
    real = list(read_jsonl(paths.pseudonymized("train")))
    original = list(read_jsonl(paths.annotated("train")))  # the same notes with their real PHI
    synthetic = list(read_jsonl(paths.synthetic_corpus(corpus)))
    generator = Origin.read(paths.corpus_origin(corpus)).generator
    # raw.jsonl (a refilled real note's id, for mlm_fill) is no dvc.yaml dep: machine-annotated corpora
    # have none, and documents.jsonl, which is one, is written from it by postprocess
    data = PrivacyInput(
        real=real,
        synthetic=synthetic,
        tokenize=pack.tokenize,
        heldout=list(read_jsonl(paths.pseudonymized("dev"))),
        original=original,
        sources=refill_sources(paths.raw_corpus(corpus), real),
        data_canaries=Path(paths.data_canaries(generator)) if generator else None,
    )
    out = Path(paths.privacy_dir(corpus))
    out.mkdir(parents=True, exist_ok=True)
    found = measure({m: registry("privacy_metric").create(m, c) for m, c in metrics.items()}, data)
    write_rows(found.notes.values(), out / "notes.jsonl")
    label_pairs(found.pairs, corpus, real, synthetic)
    write_rows(found.pairs, out / "pairs.jsonl")
    write_review_page(found.pairs, paths.review_page(corpus), title=f"synthdeid review: {corpus}")
    found.summary["phi_coverage"] = exposures(original, real, synthetic, pack.tokenize)
    found.summary["head_words_kept"] = HeadWords.read(paths.HEAD_WORDS).as_dict()  # real words, generic by rule
    failures = gate.failures(found.summary)  # a threshold's figure missing or not finite: fails here, closed
    write_json(
        {"corpus": corpus, **found.summary, "gate": gate.verdict(failures)}, paths.stage_metrics("privacy", corpus)
    )
    refusal = gate.refusal(
        corpus,
        failures,
        found.notes.values(),
        paths.stage_metrics("privacy", corpus),
        paths.review_page(corpus),
        found.summary,
    )
    if refusal is not None:
        raise refusal


if __name__ == "__main__":
    main()
