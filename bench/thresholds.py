"""What ``synthdeid deidentify --min-confidence T`` costs and gains: a trained tagger run over gold
notes at the best path and at each threshold, as the command runs it (``load_annotator``), scored
against the gold spans: entity precision, recall and F1, the share of gold PHI characters marked and
the share of marked characters that are PHI; and the notes/s of the best path (the tagger loaded
once, prediction timed on its own).

    python bench/thresholds.py [--model data/taggers/augmented-lstm_p] [--notes data/prepared/test.jsonl]
                               [--thresholds 0.5 0.2 0.1 0.05]
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Sequence
from pathlib import Path

from synthdeid import Document
from synthdeid.corpus.formats import read_jsonl
from synthdeid.evaluation.metrics import entity_scores
from synthdeid.phi.deidentify import deidentify, load_annotator
from synthdeid.spec import load_study
from synthdeid.spec.build import annotator as build_annotator


def characters(gold: Sequence[Document], found: Sequence[Document]) -> tuple[float, float]:
    """(share of gold PHI characters marked, share of marked characters that are gold PHI)."""
    phi = marked = both = 0
    for g, f in zip(gold, found, strict=True):
        gold_chars = {i for s in g.spans for i in range(s.start, s.end) if not g.text[i].isspace()}
        found_chars = {i for s in f.spans for i in range(s.start, s.end) if not f.text[i].isspace()}
        phi, marked, both = phi + len(gold_chars), marked + len(found_chars), both + len(gold_chars & found_chars)
    return both / max(phi, 1), both / max(marked, 1)


def main(argv: Sequence[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--model", type=Path, default=Path("data/taggers/augmented-lstm_p"))
    ap.add_argument("--notes", type=Path, default=Path("data/prepared/test.jsonl"))
    ap.add_argument("--language", default=None, help="the tagger's language pack (default: params.yaml's)")
    ap.add_argument("--thresholds", type=float, nargs="+", default=[0.5, 0.2, 0.1, 0.05])
    args = ap.parse_args(argv)
    language = args.language or load_study().language
    gold = list(read_jsonl(args.notes))
    print(f"{args.model} on {len(gold)} notes of {args.notes} ({sum(len(d.spans) for d in gold)} gold spans)")
    print("| decoding | spans | entity precision | entity recall | entity F1 | PHI characters found "
          "| of the characters marked, PHI |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    for threshold in [None, *args.thresholds]:
        annotator = load_annotator(args.model, None, language, min_confidence=threshold, create=build_annotator)
        started = time.perf_counter()
        found = list(deidentify(gold, annotator, "annotate"))
        seconds = time.perf_counter() - started
        micro = entity_scores(gold, found)["micro"]
        recall_chars, precision_chars = characters(gold, found)
        name = "best path (default)" if threshold is None else f"`--min-confidence {threshold:g}`"
        print(f"| {name} | {sum(len(d.spans) for d in found)} | {micro['precision']:.3f} | {micro['recall']:.3f} "
              f"| {micro['f1']:.4f} | {recall_chars:.2%} | {precision_chars:.2%} |")
        if threshold is None:
            speed = f"best path: {len(gold) / seconds:.0f} notes/s ({seconds:.2f} s for {len(gold)} notes, tagger loaded)"
    print(speed)


if __name__ == "__main__":
    main()
