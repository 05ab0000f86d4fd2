"""Mention replacement (``utility.surrogate_redraws``) and the augmented tagger's scaled budget."""

from __future__ import annotations

import re

import pytest

from synthdeid.corpus.records import Document, Span
from synthdeid.errors import SurrogateError
from synthdeid.evaluation.redraws import with_redraws
from synthdeid.evaluation.utility import augmented_config, training_sets
from synthdeid.phi.fresh_surrogates import FreshSettings, redrawer, refresh
from synthdeid.plugin_system.manager import registry


def tokenize(text: str) -> list[tuple[int, int]]:
    return [m.span() for m in re.finditer(r"\S+", text)]


def _notes() -> list[Document]:
    return [
        Document.create("a", "Mw. Jansen woont in Almelo.", [Span(4, 10, "Name"), Span(20, 26, "Address")]),
        Document.create("b", "Gezien door dr. De Vries.", [Span(16, 24, "Name")]),
    ]


def test_each_copy_keeps_the_context_and_draws_new_surrogates() -> None:
    pack = registry("language").create("nl")
    notes = _notes()
    out = with_redraws(notes, 3, redrawer(pack, 0))
    assert [d.id for d in out] == ["a", "b", "a~redraw1", "b~redraw1", "a~redraw2", "b~redraw2"]
    assert out[:2] == notes  # the notes themselves first, as they are
    for d in out[2:]:
        assert d.text.startswith(("Mw. ", "Gezien door dr. "))
        assert [s.label for s in d.spans] == [s.label for s in notes[d.id[0] == "b"].spans]
    names = {d.surface(d.spans[0]) for d in out if d.id.startswith("a")}
    assert len(names) == 3  # three different people in the same context
    assert with_redraws(notes, 3, redrawer(pack, 0)) == out  # seeded
    assert with_redraws(notes, 1, redrawer(pack, 0)) == notes


def test_a_span_without_letters_or_digits_is_kept_as_text_not_redrawn() -> None:
    # a machine annotator's "'" tagged Initials: no surrogate differs from it, so it failed the stage
    pack = registry("language").create("nl")
    note = Document.create("m", "Mw. Jansen zei ' ja.", [Span(4, 10, "Name"), Span(15, 16, "Initials")])
    [_, copy] = with_redraws([note], 2, redrawer(pack, 0))
    assert copy.text.endswith(" zei ' ja.") and [s.label for s in copy.spans] == ["Name"]
    assert copy.surface(copy.spans[0]) != "Jansen"


def test_a_note_whose_every_draw_repeats_its_strings_takes_the_first_draw() -> None:
    # MEDDOCAN's sex words: the es pack swaps "varón" and "mujer", so a note holding both can never
    # draw strings it does not hold; postprocess fails closed there, a redraw (training data,
    # surrogates already) must not stop the tagger's stage
    pack = registry("language").create("es")
    note = Document.create(
        "s", "Paciente varón; su madre, mujer de 60 años.", [Span(9, 14, "Other"), Span(26, 31, "Other")]
    )
    with pytest.raises(SurrogateError, match="kept re-drawing"):
        refresh(note, pack, 0)
    [_, copy] = with_redraws([note], 2, redrawer(pack, 0))
    assert sorted(copy.surface(s) for s in copy.spans) == ["mujer", "varón"]
    assert copy.text.startswith("Paciente ") and copy.text.endswith(" de 60 años.")


def test_a_redraw_that_loses_a_note_is_refused() -> None:
    with pytest.raises(ValueError, match="1 notes for 2"):
        with_redraws(_notes(), 2, lambda docs, k: docs[:1])


def test_training_shapes_need_the_training_notes() -> None:
    pack = registry("language").create("nl")
    with pytest.raises(Exception, match="need the training notes"):
        redrawer(pack, 0, (), FreshSettings(shapes="training"))


def test_only_the_synthetic_notes_are_expanded() -> None:
    real, dev, synthetic = _notes()[:1], _notes()[1:], _notes()
    twice = lambda docs: docs + docs  # noqa: E731
    train, val = training_sets("augmented", real, dev, synthetic, 0.5, 0, twice)
    assert len(train) == 1 + 4 and val == dev
    train, val = training_sets("synthetic", real, dev, synthetic, 0.5, 0, twice)
    assert len(train) == 2 and len(val) == 1 and train[0] == train[1]
    assert training_sets("real", real, dev, synthetic, 0.5, 0, twice) == (real, dev)


def test_the_augmented_budget_grows_with_its_notes() -> None:
    real = [Document.create("r", "een twee drie vier", [])]
    syn = [Document.create("s", "vijf zes zeven acht negen tien elf twaalf", [])]
    config = {"max_train_tokens": 1000, "batch_size": 8}
    assert augmented_config(config, real + syn, real, tokenize) == {"max_train_tokens": 3000, "batch_size": 8}
    assert augmented_config({"max_epochs": 6}, real + syn, real, tokenize) == {"max_epochs": 6}  # no budget
    assert augmented_config({"max_train_tokens": 0}, real + syn, real, tokenize) == {"max_train_tokens": 0}
    from synthdeid.plugins.flair_tagger.config import FlairTaggerConfig
    from synthdeid.plugins.torch_tagger.config import TorchTaggerConfig

    built = TorchTaggerConfig(max_train_tokens=1000, batch_size=8)  # the settings the study spec built
    assert augmented_config(built, real + syn, real, tokenize) == built.replace(max_train_tokens=3000)
    assert augmented_config(FlairTaggerConfig(), real + syn, real, tokenize) == FlairTaggerConfig()  # no budget
