"""The rare-PHI-type levers, tried on the dev split: a study's generated notes post-processed with
or without a lever, a tagger trained on them (synthetic-only) and scored per PHI type on the real
dev notes, beside a tagger trained on the real training notes (validated on a tenth of them, so
that the dev notes are unseen by both). The test split is not read.

Run from a study's root after ``dvc repro`` (it reads data/annotated/train.jsonl,
data/prepared/{train,dev}.jsonl and data/synthetic/CORPUS/raw.jsonl):

    python bench/phi_levers.py --corpus lstm_p --seeds 0 1 2 --heads 5 5 --copies 3
    python bench/phi_levers.py --corpus lstm_p lstm_temp ...   # two corpora trained on together

``--heads SPANS NOTES``: keep the head words of institution labels (``synthdeid.phi.head_words``)
in the pseudonymized training notes and in the fresh surrogates; ``--copies K``: the synthetic
training notes K times, each copy with its own fresh surrogates; ``--augmented [--scale-budget]``: real + synthetic notes, the token budget scaled by all / real
tokens. One JSON line per seed and a
mean are printed.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
from pathlib import Path

from synthdeid import paths
from synthdeid.corpus.accounting import Counts
from synthdeid.corpus.formats import read_jsonl
from synthdeid.corpus.records import Document
from synthdeid.corpus.span_bounds import SpanBounds
from synthdeid.corpus.tags import tag_labels
from synthdeid.evaluation.coverage import coverage, label_vocabulary
from synthdeid.evaluation.metrics import entity_scores
from synthdeid.evaluation.utility import hold_out
from synthdeid.generation.postprocess import decode_corpus
from synthdeid.phi.fresh_surrogates import FreshSettings, refresh_corpus
from synthdeid.phi.head_words import NONE, HeadWords
from synthdeid.phi.pseudonymize import pseudonymize
from synthdeid.phi.seeds import derive_seed
from synthdeid.plugin_system.manager import registry
from synthdeid.spec.packs import language_pack
from synthdeid.stages.common import study

INSTITUTIONS = ("Hospital", "Care_Institute", "Organization_Company")


def train_and_score(
    train: list[Document], val: list[Document], dev: list[Document], seed: int, tokenize, budget: float = 1.0
) -> dict:
    s = study()
    spec = s.taggers[s.utility.tagger]
    config = {**spec.config, "seed": seed}
    if budget != 1.0 and config.get("max_train_tokens"):
        config["max_train_tokens"] = round(config["max_train_tokens"] * budget)
    tagger = registry("tagger").create(spec.plugin, config)
    with tempfile.TemporaryDirectory() as out:
        tagger.train(train, val, Path(out), tokenize)
        predicted = tagger.load(Path(out), tokenize).predict(dev)
    pred = [Document.create(d.id, d.text, spans, allow_empty=True) for d, spans in zip(dev, predicted)]
    scores = entity_scores(dev, pred)
    return {
        "micro_f1": round(scores["micro"]["f1"], 4),
        "micro_precision": round(scores["micro"]["precision"], 4),
        "micro_recall": round(scores["micro"]["recall"], 4),
        "per_tag_recall": {t: round(v["recall"], 4) for t, v in scores["per_tag"].items()},
        "per_tag_f1": {t: round(v["f1"], 4) for t, v in scores["per_tag"].items()},
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--corpus", nargs="+", default=["lstm_p"], help="one corpus, or several trained on together")
    ap.add_argument("--seeds", type=int, nargs="+", default=[0])
    ap.add_argument("--heads", type=int, nargs=2, metavar=("SPANS", "NOTES"))
    ap.add_argument("--copies", type=int, default=1)
    ap.add_argument("--real", action="store_true", help="score the real-notes tagger instead")
    ap.add_argument("--augmented", action="store_true", help="real + synthetic notes (validated on real ones)")
    ap.add_argument("--scale-budget", action="store_true", help="augmented: the token budget x (all / real tokens)")
    args = ap.parse_args()
    s = study()
    pack = language_pack(s)
    dev = list(read_jsonl(paths.prepared("dev")))
    results = []
    if args.real:
        real = list(read_jsonl(paths.prepared("train")))
        vocab = label_vocabulary(real, pack.tokenize)
        for seed in args.seeds:
            train, val = hold_out(real, 0.1, seed)
            results.append(train_and_score(train, val, dev, seed, pack.tokenize))
    else:
        annotated = list(read_jsonl(paths.annotated("train")))
        heads = HeadWords.from_documents(annotated, INSTITUTIONS, *args.heads) if args.heads else NONE
        pseudo = [pseudonymize(d, pack, s.pseudonymize.seed, heads=heads) for d in annotated]
        labels = tag_labels(s.tags.mapping)
        bounds = SpanBounds.of(pseudo, pack.tokenize)
        docs, leakage, settings = [], {}, set()
        for corpus in args.corpus:
            raw, _ = decode_corpus(paths.raw_corpus(corpus), labels, False, Counts("levers"), bounds, pack.tokenize)
            fresh = FreshSettings.from_param(s.corpora[corpus].fresh_surrogates, "fresh_surrogates")
            assert fresh is not None
            got, report = refresh_corpus(raw, pack, s.pseudonymize.seed, pseudo, fresh, heads)
            docs += [Document.create(f"{corpus}:{d.id}", d.text, d.spans) for d in got]
            leakage[corpus] = report.leakage_after
            settings.add(fresh)
        if args.copies > 1 and len(settings) > 1:
            sys.exit("--copies redraws with one fresh_surrogates setting: the corpora given differ in theirs")
        vocab = label_vocabulary(docs, pack.tokenize)
        print(json.dumps({"heads": heads.as_dict()["words"], "leakage_after": leakage}), file=sys.stderr)
        real = list(read_jsonl(paths.prepared("train")))
        for seed in args.seeds:
            syn, val = hold_out(docs, s.utility.synthetic_validation_share, seed)
            if args.augmented:
                syn = docs
            copies = list(syn)
            for k in range(1, args.copies):
                again, _ = refresh_corpus(syn, pack, derive_seed(s.pseudonymize.seed, "copy", k), pseudo, fresh, heads)
                copies += [Document.create(f"{d.id}~{k}", d.text, d.spans) for d in again]
            train, budget = copies, 1.0
            if args.augmented:
                real_train, val = hold_out(real, 0.1, seed)
                train = real_train + copies
                size = lambda ds: sum(len(pack.tokenize(d.text)) for d in ds)  # noqa: E731
                budget = size(train) / size(real_train) if args.scale_budget else 1.0
            results.append(train_and_score(train, val, dev, seed, pack.tokenize, budget))
    cov = coverage(dev, vocab, pack.tokenize)
    for seed, r in zip(args.seeds, results):
        print(json.dumps({"seed": seed, **r}))
    tags = sorted({t for r in results for t in r["per_tag_f1"]})
    print(
        json.dumps(
            {
                "mean_micro_f1": round(statistics.mean(r["micro_f1"] for r in results), 4),
                "mean_micro_precision": round(statistics.mean(r["micro_precision"] for r in results), 4),
                "mean_micro_recall": round(statistics.mean(r["micro_recall"] for r in results), 4),
                "mean_per_tag_f1": {
                    t: round(statistics.mean(r["per_tag_f1"].get(t, 0.0) for r in results), 4) for t in tags
                },
                "dev_coverage": {t: v["share"] for t, v in cov.items()},
            }
        )
    )


if __name__ == "__main__":
    main()
