"""Stage ``train_tagger_{real,synthetic,augmented}``: train the utility tagger on real gold, on a
synthetic corpus, or on both, and predict the real gold test split with it
(``python -m synthdeid.stages.train_tagger KIND [CORPUS]``), and record which of the test split's PHI
tokens its training notes (redrawn copies included) hold under the same label. Scoring is the
``utility_report``."""

from __future__ import annotations

import sys
from functools import partial
from pathlib import Path

from synthdeid import paths
from synthdeid.corpus.accounting import split_timing, write_json
from synthdeid.corpus.formats import read_jsonl, write_jsonl
from synthdeid.corpus.records import Document, Span
from synthdeid.evaluation.coverage import coverage, label_vocabulary
from synthdeid.evaluation.redraws import study_redraw, with_redraws
from synthdeid.evaluation.tagger_settings import study_tagger
from synthdeid.evaluation.utility import (
    augmented_config,
    budget_of,
    setting_name,
    train_and_predict,
    training_sets,
)
from synthdeid.generation import distributed
from synthdeid.plugin_system.manager import registry
from synthdeid.spec.packs import language_pack
from synthdeid.stages.common import stage_main, study


def write_predictions(test: list[Document], predicted: list[list[Span]], path: str) -> None:
    """Every test document with its predicted spans (``train_and_predict`` checked there is one per document)."""
    write_jsonl([Document.create(d.id, d.text, spans, allow_empty=True) for d, spans in zip(test, predicted)], path)


@stage_main
def main() -> None:
    distributed.init()  # under torchrun: join the process group before any model is built
    kind = sys.argv[1]
    corpus = sys.argv[2] if len(sys.argv) > 2 else None
    s = study()
    pack = language_pack(s)
    synthetic = list(read_jsonl(paths.synthetic_corpus(corpus))) if corpus else []
    # the real training notes: trained on, or (synthetic) the unknown-word calibration's share
    real = {
        "train": list(read_jsonl(paths.prepared("train"))),
        "dev": list(read_jsonl(paths.prepared("dev"))) if kind != "synthetic" else [],
    }
    redraws = s.utility.surrogate_redraws if kind == "synthetic" else 1  # copies, each with its own surrogates
    expand = (
        partial(with_redraws, redraws=redraws, redraw=study_redraw(s, corpus, pack)) if redraws > 1 and corpus else None
    )
    train, dev = training_sets(
        kind, real["train"], real["dev"], synthetic, s.utility.synthetic_validation_share, s.utility.seed, expand
    )
    setting = setting_name(kind, corpus)
    out = distributed.output_dir(Path(paths.tagger_dir(setting)))  # under torchrun: the main process writes
    out.mkdir(parents=True, exist_ok=True)
    test = list(read_jsonl(paths.prepared("test")))
    tagger, settings, unknown_share = study_tagger(s, kind, real["train"], pack.tokenize)
    if kind == "augmented" and s.utility.augmented_budget == "scaled":
        settings = augmented_config(settings, train, real["train"], pack.tokenize)
    trained, predicted = train_and_predict(
        registry("tagger").create(tagger.plugin, settings),
        train,
        dev,
        out,
        pack.tokenize,
        test,
    )
    metrics, timing = split_timing(trained)
    print(f"train_tagger {setting}: {timing}")
    if not distributed.is_main():
        return
    write_predictions(test, predicted, paths.predictions(setting))
    write_json(coverage(test, label_vocabulary(train, pack.tokenize), pack.tokenize), paths.tagger_coverage(setting))
    write_json(
        {
            "setting": setting,
            "train_documents": len(train),
            "validation_documents": len(dev),
            "train_spans": sum(len(d.spans) for d in train),
            # the budget params set (grown for augmented), null when left to the tagger's default
            "max_train_tokens": budget_of(settings) if "max_train_tokens" in tagger.config else None,
            # calibrated unknown-word training: the real training notes' singleton PHI share (null: off)
            "unknown_phi_share": unknown_share,
            **metrics,
        },
        paths.stage_metrics("train_tagger", setting),
    )


if __name__ == "__main__":
    main()
