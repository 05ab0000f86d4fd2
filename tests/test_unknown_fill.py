"""Filling the <unk> a word-level LM writes (synthdeid.generation.unknown_fill)."""

from __future__ import annotations

import re
from collections import Counter

import pytest

from synthdeid.corpus.records import Document, Span
from synthdeid.errors import SynthdeidError
from synthdeid.generation.unknown_fill import (
    LOWER,
    SMALL_CORPUS_TOKENS,
    TITLE,
    UPPER,
    UnknownFiller,
    rare_shapes,
    token_shape,
    writes_unknown,
)
from synthdeid.plugin_system.manager import registry


def spaces(text: str) -> list[tuple[int, int]]:
    return [m.span() for m in re.finditer(r"\S+", text)]


def doc(id: str, text: str, *phi: tuple[str, str]) -> Document:
    spans = []
    for surface, label in phi:
        start = text.index(surface)
        spans.append(Span(start, start + len(surface), label))
    return Document.create(id, text, spans)


def test_shapes_keep_case_or_digits() -> None:
    assert token_shape("koorts") == LOWER
    assert token_shape("Katzenallergie") == TITLE
    assert token_shape("MRI") == UPPER
    assert token_shape("A") == TITLE  # one capital letter is a capitalised word, not an acronym
    assert token_shape("37,5") == "dd,d"
    assert token_shape("±") == "±"


def test_rare_shapes_are_the_lm_unknowns_outside_phi() -> None:
    notes = [
        doc("a", "de koorts bij Jansen 38,5", ("Jansen", "Name")),
        doc("b", "de koorts bij Spaltung"),
    ]
    # seen once and outside PHI: 38,5 and Spaltung (Jansen is inside a span)
    assert sorted(rare_shapes(notes, spaces, 2)) == ["dd,d", TITLE]
    # min_count 3: the words seen twice are <unk> as well
    assert Counter(rare_shapes(notes, spaces, 3)) == Counter({LOWER: 6, "dd,d": 1, TITLE: 1})


def test_a_filled_note_has_ordinary_words_and_its_spans_moved() -> None:
    training = [doc("t", "de de patient patient Ehemann")]
    filler = UnknownFiller.of(("koorts", "patient", "hoofdpijn"), training, spaces, 2, seed=0)
    assert filler.words == ("koorts", "hoofdpijn")  # a training word is never drawn
    assert filler.shapes == (TITLE,)
    text = "<unk> met bij <unk> en Anna <unk> gezien"
    note = Document.create("n", text, [Span(text.index("<unk> en"), text.index(" gezien"), "Name")])
    filled, shapes, inside = filler.fill(note)
    assert "<unk>" not in filled.text and shapes == Counter({TITLE: 3}) and inside == 2
    words = filled.text.split()
    assert words[0] in ("Koorts", "Hoofdpijn") and words[-1] == "gezien"
    (span,) = filled.spans
    assert filled.surface(span).startswith(words[3]) and filled.surface(span).endswith(words[6])
    assert filled.text[span.end :] == " gezien"
    # seeded per note: the same note fills the same way, another note id differently (in general)
    assert filler.fill(note)[0] == filled


def test_number_shapes_get_digits_of_that_shape() -> None:
    filler = UnknownFiller(("woord",), ("dd,d",), seed=1)
    filled, shapes, _ = filler.fill(Document.create("x", "temperatuur <unk> graden"))
    assert re.fullmatch(r"temperatuur [1-9]\d,\d graden", filled.text) and shapes == Counter({"number": 1})


def test_a_word_list_of_training_words_only_is_refused() -> None:
    with pytest.raises(SynthdeidError, match="unknown_words: never"):
        UnknownFiller.of(("koorts",), [doc("t", "koorts")], spaces, 2, seed=0)


def test_the_real_notes_words_are_excluded_too() -> None:
    lm_notes = [doc("t", "patient Pieter", ("Pieter", "Name"))]
    real = [doc("t", "patient Jansen", ("Jansen", "Name"))]
    filler = UnknownFiller.of(("jansen", "pieter", "koorts"), lm_notes, spaces, 2, seed=0, also_exclude=real)
    assert filler.words == ("koorts",)


def test_auto_fills_a_small_corpus_with_a_word_list_and_fill_without_one_is_refused() -> None:
    nl = registry("language").create("nl")
    assert nl.ordinary_words is not None and writes_unknown("auto", nl, "lstm_p", SMALL_CORPUS_TOKENS - 1)
    assert not writes_unknown("auto", nl, "lstm_p", SMALL_CORPUS_TOKENS)  # a larger corpus: measured worse
    assert writes_unknown("fill", nl, "lstm_p", 10**6)
    assert not writes_unknown("never", nl, "lstm_p", 10)
    assert not writes_unknown("auto", nl, "lstm_dp_p", 10, dp=True)  # outside the DP guarantee
    with pytest.raises(SynthdeidError, match="trains with DP"):
        writes_unknown("fill", nl, "lstm_dp_p", 10, dp=True)
    bare = type(nl)(**{**nl.__dict__, "ordinary_words": None})
    assert not writes_unknown("auto", bare, "lstm_p", 10)
    with pytest.raises(SynthdeidError, match="no ordinary words"):
        writes_unknown("fill", bare, "lstm_p", 10)


def test_the_built_in_packs_words_hold_no_surrogate_names() -> None:
    from faker import Faker

    words = set(registry("language").create("nl").ordinary_words())
    assert len(words) > 20_000 and {"kippenvel", "bankoverval"} <= words
    fake = Faker("nl_NL")
    fake.seed_instance(0)
    names = {fake.last_name().lower() for _ in range(200)} | {fake.city().lower() for _ in range(200)}
    assert not {n for n in names if " " not in n} & words
    assert not {"york", "michigan", "amsterdam"} & words
