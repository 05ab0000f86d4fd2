"""The learning curve (Libbi Appendix E): nested seeded subsets, one tagger per fraction and seed
scored on a test split, subset models deleted, mean and interval per fraction. Tiny flair taggers."""

from __future__ import annotations

import csv
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest
from toy_notes import toy_docs

from synthdeid import Document, InputError, Span, SynthdeidError
from synthdeid.corpus.formats.conll import default_tokenize
from synthdeid.evaluation.learning_curve import (
    CurveRun,
    check_fractions,
    nested_subset,
    run_curve,
    summarize_runs,
)
from synthdeid.evaluation.metrics.curves import COLUMNS, write_curve_csv
from synthdeid.evaluation.utility import hold_out, train_and_predict
from synthdeid.plugins.flair_tagger import create
from synthdeid.spec import validate
from synthdeid.spec.build import tagger as build_tagger

pytestmark = pytest.mark.slow  # trains a tagger per fraction and seed (`make test-fast` leaves it out)

TINY = {"threads": 1, "batch_size": 8, "hidden_size": 64, "max_epochs": 8}


def test_nested_subset_sizes_nesting_and_seeds() -> None:
    docs = toy_docs(40)
    half, full = nested_subset(docs, 0.5, 3), nested_subset(docs, 1.0, 3)
    quarter = nested_subset(docs, 0.25, 3)
    assert (len(quarter), len(half), len(full)) == (10, 20, 40)
    assert {d.id for d in quarter} <= {d.id for d in half} <= {d.id for d in full}
    assert [d.id for d in half] == sorted(d.id for d in half)
    assert nested_subset(docs, 0.5, 3) == half and nested_subset(docs, 0.5, 4) != half
    assert nested_subset(list(reversed(docs)), 0.5, 3) == half  # input order does not matter
    assert len(nested_subset(docs, 0.001, 0)) == 1 and nested_subset([], 0.5, 0) == []


@pytest.mark.parametrize(
    "fractions,seeds,match",
    [
        ([], [0], "fractions"),
        ([0.5, 0.5], [0], "fractions"),
        ([0.0, 1.0], [0], "fractions"),
        ([1.5], [0], "fractions"),
        (["a"], [0], "fractions"),
        ([1.0], [], "seeds"),
        ([1.0], [1, 1], "seeds"),
        ([1.0], [0.5], "seeds"),
    ],
)
def test_bad_fractions_or_seeds_name_the_params_key(fractions: list, seeds: list, match: str) -> None:
    with pytest.raises(InputError, match=f"utility.learning_curve.{match}"):
        check_fractions(fractions, seeds)


def test_the_utility_tagger_with_overrides() -> None:
    study = validate(
        {
            "utility": {"tagger": "small"},
            "taggers": {"small": {"plugin": "flair_bilstm_crf", "config": {"max_epochs": 3, "seed": 1}}},
        }
    )
    assert build_tagger(study).config.seed == 1
    tagger = build_tagger(study, {"seed": 7})
    assert (tagger.config.seed, tagger.config.max_epochs) == (7, 3)
    with pytest.raises(SynthdeidError, match="no setting"):
        build_tagger(study, {"sede": 7})


class ShortTagger:
    """Trains nothing and predicts one document too few."""

    name = "short"

    def train(self, train: Sequence[Document], dev: Sequence[Document], out_dir: Path, tokenize: Any) -> dict:
        return {}

    def load(self, out_dir: Path, tokenize: Any) -> ShortTagger:
        return self

    def predict(self, docs: Sequence[Document]) -> list[list[Span]]:
        return [[] for _ in docs][1:]


def test_train_and_predict_refuses_a_missing_prediction(tmp_path: Path) -> None:
    with pytest.raises(SynthdeidError, match="predicted 1 of 2 test documents"):
        train_and_predict(ShortTagger(), [], [], tmp_path, default_tokenize, toy_docs(2))


@pytest.fixture(scope="module")
def curve(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    temp = tmp_path_factory.mktemp("curve-temp")
    synthetic, test = toy_docs(30, seed=0), toy_docs(12, seed=9)
    seeds_seen: list[int] = []
    model_dirs: list[Path] = []

    def make(seed: int) -> Any:
        seeds_seen.append(seed)
        tagger = create({**TINY, "seed": seed})
        train = tagger.train

        def recording_train(train_docs: Any, dev: Any, out_dir: Path, tokenize: Any) -> dict:
            model_dirs.append(Path(out_dir))
            return train(train_docs, dev, out_dir, tokenize)

        tagger.train = recording_train
        return tagger

    old, tempfile.tempdir = tempfile.tempdir, str(temp)
    try:
        runs = run_curve(synthetic, test, [1.0, 0.5], [0, 1], 0.1, make, default_tokenize)
    finally:
        tempfile.tempdir = old
    return {"runs": runs, "temp": temp, "seeds": seeds_seen, "synthetic": synthetic, "model_dirs": model_dirs}


def test_one_scored_tagger_per_fraction_and_seed(curve: dict[str, Any]) -> None:
    runs: list[CurveRun] = curve["runs"]
    assert [(r.fraction, r.seed) for r in runs] == [(0.5, 0), (0.5, 1), (1.0, 0), (1.0, 1)]
    assert sorted(curve["seeds"]) == [0, 0, 1, 1]  # the seed is also the tagger's
    for r in runs:
        assert r.trained and 0.0 <= r.precision <= 1.0 and 0.0 <= r.recall <= 1.0 and 0.0 <= r.f1 <= 1.0
        assert r.validation_documents == 3
    pool, _ = hold_out(curve["synthetic"], 0.1, 0)
    assert {r.fraction: r.train_documents for r in runs if r.seed == 0} == {0.5: 14, 1.0: len(pool)}
    assert max(r.f1 for r in runs if r.fraction == 1.0) > 0.3  # the toy tags are learnable


def test_subset_models_are_deleted(curve: dict[str, Any]) -> None:
    assert len(curve["model_dirs"]) == 4
    for d in curve["model_dirs"]:
        assert d.parent == curve["temp"] and not d.exists()


def test_curve_rows_and_csv(curve: dict[str, Any], tmp_path: Path) -> None:
    rows = summarize_runs(curve["runs"])
    assert [r["fraction"] for r in rows] == [0.5, 1.0] and all(r["n"] == 2 for r in rows)
    full = [r.f1 for r in curve["runs"] if r.fraction == 1.0]
    assert rows[1]["mean"] == pytest.approx(sum(full) / 2)
    assert rows[1]["ci_low"] <= rows[1]["mean"] <= rows[1]["ci_high"]
    with open(write_curve_csv(rows, tmp_path / "c.csv"), newline="") as f:
        assert next(csv.DictReader(f)).keys() == set(COLUMNS)


def test_a_subset_without_phi_scores_zero_without_training() -> None:
    synthetic = [Document.create(f"n{i}", "Goed geslapen vandaag.") for i in range(5)]
    test = toy_docs(4, seed=9)

    def make(seed: int) -> Any:
        raise AssertionError("no tagger should be trained")

    runs = run_curve(synthetic, test, [1.0], [0], 0.2, make, default_tokenize)
    assert runs[0].trained is False and runs[0].f1 == 0.0 and runs[0].train_documents == 4


class _NoPHI:
    """A tagger that learns nothing and predicts no span; records the seeds it was built with."""

    name = "no_phi"

    def __init__(self, seeds: list[int], seed: int) -> None:
        seeds.append(seed)

    def train(self, train: Any, dev: Any, out_dir: Path, tokenize: Any) -> dict:
        return {}

    def load(self, out_dir: Path, tokenize: Any) -> _NoPHI:
        return self

    def predict(self, docs: Sequence[Document]) -> list[list[Span]]:
        return [[] for _ in docs]


def test_a_known_cell_is_scored_from_its_predictions_not_trained() -> None:
    """The whole corpus with utility.seed is the synthetic-only setting: the stage passes that
    setting's test predictions and the curve scores them (here: the gold spans, F1 1) without
    training; the other cells train as before (a tagger that finds nothing: F1 0)."""
    synthetic, test = toy_docs(30, seed=0), toy_docs(12, seed=9)
    seeds: list[int] = []
    known = {(1.0, 0): ("synthetic-toy", [Document.create(d.id, d.text, d.spans) for d in test])}
    runs = run_curve(
        synthetic, test, [0.5, 1.0], [0, 1], 0.1, lambda seed: _NoPHI(seeds, seed), default_tokenize, known=known
    )
    assert sorted(seeds) == [0, 1, 1]  # (0.5, 0), (0.5, 1), (1.0, 1): not (1.0, 0)
    by_cell = {(r.fraction, r.seed): r for r in runs}
    reused = by_cell[(1.0, 0)]
    assert reused.setting == "synthetic-toy" and reused.f1 == 1.0 and reused.trained
    pool, dev = hold_out(synthetic, 0.1, 0)
    assert (reused.train_documents, reused.validation_documents) == (len(pool), len(dev))
    assert reused.train_spans == sum(len(d.spans) for d in pool)
    assert all(r.setting is None and r.f1 == 0.0 for cell, r in by_cell.items() if cell != (1.0, 0))


def test_known_predictions_must_match_the_test_split_and_a_cell() -> None:
    synthetic, test = toy_docs(20, seed=0), toy_docs(6, seed=9)
    never = lambda seed: pytest.fail("no tagger should be trained")  # noqa: E731
    short = {(1.0, 0): ("synthetic-toy", test[:-1])}
    with pytest.raises(InputError, match="5 predictions"):
        run_curve(synthetic, test, [1.0], [0], 0.1, never, default_tokenize, known=short)
    with pytest.raises(ValueError, match=r"cell \(0.5, 0\)"):
        run_curve(synthetic, test, [1.0], [0], 0.1, never, default_tokenize, known={(0.5, 0): ("x", test)})


def test_too_small_a_corpus_is_refused() -> None:
    with pytest.raises(InputError, match="at least 2 synthetic notes"):
        run_curve(toy_docs(1), toy_docs(2), [1.0], [0], 0.1, create, default_tokenize)


def test_taggers_side_by_side_score_as_one_at_a_time() -> None:
    """``workers: 2`` trains the curve's taggers in two spawned processes: every run equals the
    run of the same cell trained alone with the same thread count."""
    from synthdeid.spec.build import SeededTagger

    synthetic, test = toy_docs(24, seed=0), toy_docs(8, seed=9)
    make = SeededTagger("torch_bilstm_crf", {"batch_size": 8, "hidden_size": 16, "embedding_size": 16, "max_epochs": 3})
    assert make.threads() == 2  # the plugin's default: split across the workers
    alone = run_curve(synthetic, test, [0.5, 1.0], [0, 1], 0.1, make, default_tokenize, threads=1)
    side_by_side = run_curve(synthetic, test, [0.5, 1.0], [0, 1], 0.1, make, default_tokenize, workers=2, threads=1)
    assert side_by_side == alone
    assert len({r.f1 for r in alone}) > 1  # the runs differ from each other: the comparison means something
    assert SeededTagger("torch_bilstm_crf")(3, threads=1).config.threads == 1


def test_a_seeded_tagger_holds_the_settings_the_spec_built() -> None:
    """It reads the thread and seed settings without building a tagger, copies the settings
    with each seed, and pickles (worker processes build their own)."""
    import pickle

    from synthdeid.plugins.torch_tagger.config import TorchTaggerConfig
    from synthdeid.spec.build import SeededTagger

    make = SeededTagger("torch_bilstm_crf", TorchTaggerConfig(threads=4, seed=3, max_epochs=2))
    assert pickle.loads(pickle.dumps(make)) == make
    assert (make.threads(), make.seed()) == (4, 3)
    assert make(5, threads=1).config == TorchTaggerConfig(threads=1, seed=5, max_epochs=2)
    assert make(6).config == TorchTaggerConfig(threads=4, seed=6, max_epochs=2)
    assert (SeededTagger("flair_bilstm_crf", {"threads": 1}).threads(), SeededTagger("flair_bilstm_crf").seed()) == (
        1,
        0,
    )


def test_expand_gives_each_trained_cell_its_grown_notes() -> None:
    synthetic = toy_docs(10, seed=3)
    test = toy_docs(4, seed=9)
    seeds: list[int] = []
    grown: list[int] = []

    def expand(docs: list[Document]) -> list[Document]:
        grown.append(len(docs))
        return docs + [Document.create(d.id + "~copy", d.text, d.spans) for d in docs]

    runs = run_curve(synthetic, test, [0.5, 1.0], [0], 0.2, lambda s: _NoPHI(seeds, s), default_tokenize, expand=expand)
    assert grown == [4, 8] and [r.train_documents for r in runs] == [8, 16]
