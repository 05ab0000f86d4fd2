"""Calibrated unknown-word training: the rate at which a tagger trained on synthetic notes reads
ordinary words as unknown, and the study's share taken from the real training notes."""

from __future__ import annotations

from pathlib import Path

import pytest
from toy_notes import toy_docs

from synthdeid import Document, Span
from synthdeid.corpus.formats.conll import default_tokenize
from synthdeid.corpus.rare_words import SMALL_CORPUS_TOKENS
from synthdeid.evaluation.utility import unknown_calibrated
from synthdeid.plugins import registry
from synthdeid.plugins.torch_tagger import create
from synthdeid.plugins.torch_tagger.training import ordinary_unknown_rate

FAST = {"threads": 1, "batch_size": 8, "hidden_size": 16, "embedding_size": 16, "char_filters": 8, "max_epochs": 2}


def _windows(rows: list[list[tuple[int, int]]]) -> tuple[list, list]:
    """(items, tags) of windows given as (word id, tag id) pairs."""
    return [([w for w, _ in r], [], []) for r in rows], [[t for _, t in r] for r in rows]


def _unknown_phi_share(items: list, tags: list, singletons: set[int], rate: float, ordinary: float) -> float:
    """The expected share of PHI among the occurrences read as unknown."""
    phi = o = 0.0
    for (words, _, _), row in zip(items, tags):
        for w, t in zip(words, row):
            p = rate if w in singletons else (ordinary if not t else 0.0)
            phi, o = (phi + p, o) if t else (phi, o + p)
    return phi / (phi + o)


def test_the_rate_gives_the_asked_share_of_phi_among_unknown_words() -> None:
    # singletons 10..29 are PHI (tag 1), 30..34 ordinary; words 2..5 frequent ordinary words
    rows = [[(10 + i, 1), (2, 0), (3, 0), (4, 0), (5, 0), (2, 0)] for i in range(20)]
    rows += [[(30 + i, 0), (3, 0), (4, 0)] for i in range(5)]
    items, tags = _windows(rows)
    singletons = set(range(10, 35))
    for share in (0.2, 0.5, 0.7):
        r = ordinary_unknown_rate(items, tags, singletons, 0.5, share)
        assert 0 < r <= 0.5
        assert _unknown_phi_share(items, tags, singletons, 0.5, r) == pytest.approx(share, abs=1e-4)


def test_no_ordinary_words_are_dropped_when_the_singletons_are_already_ordinary_enough() -> None:
    rows = [[(10 + i, 1 if i < 2 else 0), (2, 0), (3, 0)] for i in range(20)]  # 10% of singletons PHI
    items, tags = _windows(rows)
    assert ordinary_unknown_rate(items, tags, set(range(10, 30)), 0.5, 0.5) == 0.0


def test_the_rate_is_capped_at_the_singleton_rate() -> None:
    rows = [[(10 + i, 1), (2, 0)] for i in range(50)]  # 50 PHI singletons, 50 ordinary tokens
    items, tags = _windows(rows)
    assert ordinary_unknown_rate(items, tags, set(range(10, 60)), 0.4, 0.01) == 0.4


def test_without_phi_singletons_nothing_is_calibrated() -> None:
    items, tags = _windows([[(10, 0), (2, 0), (2, 0)]])
    assert ordinary_unknown_rate(items, tags, {10}, 0.5, 0.3) == 0.0


def _train(tmp_path: Path, name: str, **config: object) -> tuple[dict, bytes]:
    """A small tagger on toy notes plus notes whose names are all singletons (as fresh surrogates are)."""
    surrogates = [
        Document.create(f"s{i}", f"Dhr. Naam{chr(97 + i)}sen kwam op 12 maart.", [Span(5, 14, "Name")])
        for i in range(20)
    ]
    tagger = create({**FAST, **config})
    metrics = tagger.train(toy_docs(30, seed=2) + surrogates, toy_docs(5, seed=3), tmp_path / name, default_tokenize)
    return metrics, (tmp_path / name / "model.safetensors").read_bytes()


def test_calibrated_training_reads_ordinary_words_as_unknown_and_is_reproducible(tmp_path: Path) -> None:
    plain, plain_weights = _train(tmp_path, "plain")
    assert plain["unknown_ordinary_rate"] == 0.0
    calibrated, weights = _train(tmp_path, "a", unknown_phi_share=0.05)
    again, weights_again = _train(tmp_path, "b", unknown_phi_share=0.05)
    assert calibrated["unknown_ordinary_rate"] > 0
    assert weights == weights_again and calibrated["history"] == again["history"]
    assert weights != plain_weights  # the ordinary words read as unknown changed what it learned


def _docs() -> list[Document]:
    # singletons: "Jansen" (PHI) and "koorts" (ordinary): half of them inside PHI
    return [
        Document.create("a", "Jansen heeft koorts en pijn", [Span(0, 6, "Name")]),
        Document.create("b", "Bakker heeft pijn en pijn", [Span(0, 6, "Name")]),
        Document.create("c", "Bakker en heeft", [Span(0, 6, "Name")]),
    ]


def _calibrated(settings: object, docs: list[Document], kind: str, mode: str) -> tuple[object, float | None]:
    return unknown_calibrated(settings, docs, kind, mode, default_tokenize)


def test_the_study_sets_the_real_notes_singleton_share_for_the_kinds_it_calibrates() -> None:
    settings = registry("tagger").settings("torch_bilstm_crf", {"max_epochs": 3})
    calibrated, share = _calibrated(settings, _docs(), "synthetic", "synthetic")
    assert share == 0.5 and calibrated.unknown_phi_share == 0.5 and calibrated.max_epochs == 3
    assert _calibrated(settings, _docs(), "augmented", "synthetic") == (settings, None)
    assert _calibrated(settings, _docs(), "augmented", "all")[1] == 0.5
    assert _calibrated(settings, _docs(), "synthetic", "off") == (settings, None)
    assert _calibrated(settings, _docs(), "real", "all") == (settings, None)


def test_auto_calibrates_a_small_corpus_only() -> None:
    settings = registry("tagger").settings("torch_bilstm_crf", {})
    assert _calibrated(settings, _docs(), "synthetic", "auto")[1] == 0.5
    assert _calibrated(settings, _docs(), "augmented", "auto") == (settings, None)
    words = " ".join(f"woord{i}" for i in range(SMALL_CORPUS_TOKENS))  # one note of 50,000 tokens more
    large = [*_docs(), Document.create("big", words, [], allow_empty=True)]
    assert _calibrated(settings, large, "synthetic", "auto") == (settings, None)
    assert _calibrated(settings, large, "synthetic", "synthetic")[1] is not None


def test_a_tagger_without_the_setting_or_real_notes_without_phi_singletons_are_left_alone() -> None:
    flair = registry("tagger").settings("flair_bilstm_crf", {})
    assert _calibrated(flair, _docs(), "synthetic", "synthetic") == (flair, None)
    mapping = {"max_epochs": 2}
    assert _calibrated(mapping, _docs(), "synthetic", "synthetic") == (mapping, None)
    torch_settings = registry("tagger").settings("torch_bilstm_crf", {})
    no_phi = [Document.create("a", "koorts en pijn", [], allow_empty=True)]
    assert _calibrated(torch_settings, no_phi, "synthetic", "synthetic") == (torch_settings, None)
