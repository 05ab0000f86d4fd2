"""The learning curve of Libbi et al. (2021), Appendix E: utility taggers trained on growing
fractions of one synthetic corpus, several seeds per fraction, each scored on the real gold test
split (entity-level micro F1), summarized as mean, standard deviation and a Student-t interval
(:mod:`synthdeid.evaluation.metrics.curves`).

For each seed the corpus is split once into training and validation notes, exactly like the
synthetic-only utility setting (:func:`synthdeid.evaluation.utility.hold_out`); the fractions then take the
first notes of a seeded shuffle of the training notes, so one seed's subsets are nested and all
fractions validate on the same notes. The seed is also the tagger's training seed. The subset
models are trained in a temporary folder and deleted after predicting the test split.

The whole corpus with seed ``utility.seed`` is the synthetic-only utility setting itself (the
same training and validation notes, the same tagger seed): a stage that has that setting's test
predictions passes them as ``known`` and the curve scores them instead of training the tagger
again.
"""

from __future__ import annotations

import multiprocessing
import tempfile
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from synthdeid.api import Tagger, Tokenize
from synthdeid.corpus.records import Document
from synthdeid.corpus.split import share_indices
from synthdeid.errors import InputError
from synthdeid.evaluation.metrics import entity_scores, spurious_spans
from synthdeid.evaluation.metrics.curves import curve_rows
from synthdeid.evaluation.metrics.entity import Prediction
from synthdeid.evaluation.utility import hold_out, train_and_predict
from synthdeid.progress import counter, track


@dataclass(frozen=True)
class CurveRun:
    """One tagger of the curve: its training-set fraction and seed, what it trained on, its test scores."""

    fraction: float
    seed: int
    train_documents: int
    train_spans: int
    validation_documents: int
    precision: float
    recall: float
    f1: float
    trained: bool
    """False when the subset held no PHI span: no tagger can learn from it, it predicts nothing (F1 0)."""
    setting: str | None = None
    """The utility setting whose tagger this run is (its test predictions scored, not trained here)."""
    spurious: int = 0
    """Predicted spans touching no gold span (``metrics.spurious_spans``)."""


Known = tuple[str, Sequence[Prediction]]
"""A cell's tagger trained elsewhere: its utility setting and its prediction for each test document
(the documents with their predicted spans, or the spans alone; checked against the test split)."""


def check_fractions(fractions: Sequence[float], seeds: Sequence[int]) -> None:
    """Fractions in (0, 1], none twice, and at least one seed; else an error naming the params key."""
    bad = [f for f in fractions if not (isinstance(f, (int, float)) and 0 < f <= 1)]
    if not fractions or bad or len(set(fractions)) != len(fractions):
        raise InputError(
            f"utility.learning_curve.fractions must be distinct numbers in (0, 1], got {list(fractions)}",
            path="params.yaml",
            fix="e.g. [0.25, 0.5, 1.0]",
        )
    if not seeds or len(set(seeds)) != len(seeds) or not all(isinstance(s, int) for s in seeds):
        raise InputError(
            f"utility.learning_curve.seeds must be distinct integers, got {list(seeds)}",
            path="params.yaml",
            fix="e.g. [0, 1, 2]",
        )


def nested_subset(docs: Sequence[Document], fraction: float, seed: int) -> list[Document]:
    """``round(fraction * n)`` documents (at least one) of a seeded shuffle, in id order; for one
    seed, a smaller fraction's subset lies inside a larger one's (``split.share_indices``)."""
    by_id = sorted(docs, key=lambda d: d.id)
    return [by_id[i] for i in share_indices(len(by_id), fraction, seed)]


def run_curve(
    synthetic: Sequence[Document],
    test: Sequence[Document],
    fractions: Sequence[float],
    seeds: Sequence[int],
    validation_share: float,
    make_tagger: Callable[..., Tagger],
    tokenize: Tokenize,
    description: str = "learning curve",
    workers: int = 1,
    threads: int | None = None,
    known: Mapping[tuple[float, int], Known] | None = None,
    expand: Callable[[list[Document]], list[Document]] | None = None,
) -> list[CurveRun]:
    """Train and score one tagger per (fraction, seed); ``make_tagger(seed, threads)`` builds an
    untrained tagger. With ``workers`` > 1 the taggers train side by side in that many spawned
    processes (``make_tagger`` and ``tokenize`` must then pickle), each with ``threads`` threads;
    every run depends on its cell and ``threads`` only, not on which process ran it or when.
    ``known`` maps a (fraction, seed) cell to a tagger trained on it elsewhere: its setting name
    and its spans for each ``test`` document, scored as they are. ``expand`` turns a cell's training
    notes into what its tagger trains on (``utility.surrogate_redraws``), in this process."""
    check_fractions(fractions, seeds)
    known = dict(known or {})
    for cell, (setting, _) in known.items():
        if cell not in {(float(f), s) for f in fractions for s in seeds}:
            raise ValueError(f"{setting}: the cell {cell} is not one of the curve's (fraction, seed) cells")
    if len(synthetic) < 2:
        raise InputError(
            f"a learning curve needs at least 2 synthetic notes, got {len(synthetic)}",
            fix="generate a larger corpus (generate.target_tokens)",
        )
    cells = [(f, s) for s in seeds for f in sorted(fractions)]
    splits = {s: hold_out(synthetic, validation_share, s) for s in seeds}
    runs = [_known_run(f, s, *splits[s], test, *known[(float(f), s)]) for f, s in cells if (float(f), s) in known]
    grow = expand or list
    jobs = [
        (fraction, seed, grow(nested_subset(splits[seed][0], fraction, seed)), splits[seed][1])
        for fraction, seed in cells
        if (float(fraction), seed) not in known
    ]
    if workers <= 1 or not jobs:
        for job in track(jobs, description, total=len(jobs)):
            runs.append(_run_cell(make_tagger, threads, tokenize, test, *job))
    else:
        context = multiprocessing.get_context("spawn")  # not fork: torch's thread pools do not survive it
        with (
            ProcessPoolExecutor(max_workers=min(workers, len(jobs)), mp_context=context) as pool,
            counter(description, len(jobs)) as advance,
        ):
            futures = [pool.submit(_run_cell, make_tagger, threads, tokenize, test, *job) for job in jobs]
            for future in as_completed(futures):
                future.result()  # a failed tagger stops the curve now, with its error
                advance(1)
            runs += [f.result() for f in futures]
    return sorted(runs, key=lambda r: (r.fraction, r.seed))


def _run_cell(
    make_tagger: Callable[..., Tagger],
    threads: int | None,
    tokenize: Tokenize,
    test: Sequence[Document],
    fraction: float,
    seed: int,
    train: Sequence[Document],
    dev: Sequence[Document],
) -> CurveRun:
    """One tagger of the curve, trained on ``train`` (the cell's notes) in a temporary folder and
    scored on ``test``."""
    trained = any(d.spans for d in train)
    if trained:
        tagger = make_tagger(seed) if threads is None else make_tagger(seed, threads)
        with tempfile.TemporaryDirectory(prefix="synthdeid-curve-") as tmp:
            _, predicted = train_and_predict(tagger, train, dev, Path(tmp), tokenize, test)
    else:
        predicted = [[] for _ in test]
    return _scored(fraction, seed, train, dev, test, predicted)


def _known_run(
    fraction: float,
    seed: int,
    pool: Sequence[Document],
    dev: Sequence[Document],
    test: Sequence[Document],
    setting: str,
    predicted: Sequence[Prediction],
) -> CurveRun:
    """The run of a cell whose tagger was trained elsewhere (``setting``), scored from its predictions."""
    return _scored(fraction, seed, nested_subset(pool, fraction, seed), dev, test, predicted, setting)


def _scored(
    fraction: float,
    seed: int,
    train: Sequence[Document],
    dev: Sequence[Document],
    test: Sequence[Document],
    predicted: Sequence[Prediction],
    setting: str | None = None,
) -> CurveRun:
    """A cell's run: what its tagger trained on and its scores on ``test``."""
    micro = entity_scores(test, predicted)["micro"]
    return CurveRun(
        fraction=float(fraction),
        seed=seed,
        train_documents=len(train),
        train_spans=sum(len(d.spans) for d in train),
        validation_documents=len(dev),
        precision=micro["precision"],
        recall=micro["recall"],
        f1=micro["f1"],
        trained=any(d.spans for d in train),
        setting=setting,
        spurious=spurious_spans(test, predicted)["total"],
    )


def summarize_runs(runs: Sequence[CurveRun], metric: str = "f1", confidence: float = 0.95) -> list[dict[str, Any]]:
    """:func:`~synthdeid.evaluation.metrics.curves.curve_rows` of ``metric`` over the seeds of each fraction
    (precision, recall and F1 lie in [0, 1]: the intervals are clipped there)."""
    by_fraction: dict[float | str, list[float]] = {}
    for r in runs:
        by_fraction.setdefault(r.fraction, []).append(float(getattr(r, metric)))
    return curve_rows(by_fraction, confidence, bounds=(0.0, 1.0))
