"""Fresh surrogates after generation: no PHI string of a generated note survives as PHI, offsets
stay valid, the text around the spans is untouched, and the result is deterministic."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from synthdeid import Document, Span, SurrogateError
from synthdeid.api import LanguagePack
from synthdeid.phi.fresh_surrogates import (
    SHIFTED_LABELS,
    leakage_rates,
    refresh,
    refresh_corpus,
    span_strings,
    untagged_copies,
)
from synthdeid.phi.pseudonymize import pseudonymize
from synthdeid.plugins.languages.nl import factory
from synthdeid.sources.demo import generate_demo_corpus


@pytest.fixture(scope="module")
def pack() -> LanguagePack:
    return factory({})


@pytest.fixture(scope="module")
def training(pack: LanguagePack) -> list[Document]:
    """Pseudonymized training notes, as the generator sees them."""
    return [pseudonymize(d, pack, 0) for d in generate_demo_corpus(60, 3)]


def _outside(doc: Document) -> list[str]:
    """The text between the spans, in order."""
    pieces, pos = [], 0
    for s in doc.spans:
        pieces.append(doc.text[pos : s.start])
        pos = s.end
    return [*pieces, doc.text[pos:]]


def test_no_original_phi_string_survives_and_offsets_are_valid(pack: LanguagePack, training: list[Document]) -> None:
    # the worst generator: it copies its training notes verbatim
    fresh, report = refresh_corpus(training, pack, seed=5, real=training)
    assert report.spans_replaced == sum(len(d.spans) for d in training) > 100
    for before, after in zip(training, fresh):
        assert after.id == before.id
        Document.create(after.id, after.text, after.spans)  # offsets in range, no overlaps
        assert [s.label for s in after.spans] == [s.label for s in before.spans]
        # dates and ages are shifted by one offset per note: only the same span must differ
        assert not span_strings(after, SHIFTED_LABELS) & span_strings(before, SHIFTED_LABELS)
        for old, new in zip(before.spans, after.spans):
            assert after.surface(new) == after.surface(new).strip() and after.surface(new)
            assert after.surface(new).casefold() != before.surface(old).casefold()
        assert _outside(after) == _outside(before)
    # every training PHI string was in the copies; far fewer are afterwards
    assert report.leakage_before["rate"] > 0.95 and report.leakage_before["multi_token_rate"] > 0.95
    assert report.leakage_after["multi_token_rate"] < 0.25
    assert report.leakage_after == leakage_rates(training, fresh, pack.tokenize)
    counts = report.as_dict()
    assert counts["spans_with_training_phi_before"] == 1.0 > counts["spans_with_training_phi_after"]


def test_deterministic_and_seeded(pack: LanguagePack, training: list[Document]) -> None:
    a = [refresh(d, pack, 1) for d in training[:10]]
    b = [refresh(d, pack, 1) for d in training[:10]]
    c = [refresh(d, pack, 2) for d in training[:10]]
    assert a == b
    assert a != c


def test_a_note_without_phi_is_unchanged(pack: LanguagePack) -> None:
    doc = Document.create("x", "Rustige nacht gehad.")
    assert refresh(doc, pack, 0) is doc


def test_redraws_when_a_surrogate_repeats_another_span(pack: LanguagePack, monkeypatch: pytest.MonkeyPatch) -> None:
    import synthdeid.phi.fresh_surrogates as fs

    doc = Document.create("n1", "Jan en Piet", [Span(0, 3, "Name"), Span(7, 11, "Name")])
    draws = iter(["Piet Jan", "Kees Joop"])  # first attempt: Jan -> Piet, Piet -> Jan

    def fake(d: Document, p: LanguagePack, seed: int, labels: object = None, heads: object = None) -> Document:
        a, b = next(draws).split()
        return Document.create(
            d.id, f"{a} en {b}", [Span(0, len(a), "Name"), Span(len(a) + 4, len(a) + 4 + len(b), "Name")]
        )

    monkeypatch.setattr(fs, "pseudonymize", fake)
    assert refresh(doc, pack, 0).text == "Kees en Joop"


def test_fails_closed_when_no_fresh_draw_is_found(pack: LanguagePack, monkeypatch: pytest.MonkeyPatch) -> None:
    import synthdeid.phi.fresh_surrogates as fs

    doc = Document.create("n2", "Jan en Piet", [Span(0, 3, "Name"), Span(7, 11, "Name")])
    monkeypatch.setattr(
        fs,
        "pseudonymize",
        lambda d, p, s, labels=None, heads=None: Document.create(
            d.id, "Piet en Jan", [Span(0, 4, "Name"), Span(8, 11, "Name")]
        ),
    )
    with pytest.raises(SurrogateError, match="n2"):
        refresh(doc, pack, 0)


def test_a_two_valued_label_may_repeat_strings_shared_by_training_notes() -> None:
    """MEDDOCAN's patient sex (Other): a note with "mujer" and "varón" cannot draw anything new."""
    from synthdeid.phi.fresh_surrogates import shared_strings
    from synthdeid.plugins.languages.es import factory as es_factory

    es = es_factory({})
    doc = Document.create("n3", "Paciente mujer; su hijo, varón, llamó.", [Span(9, 14, "Other"), Span(25, 30, "Other")])
    with pytest.raises(SurrogateError, match="n3"):
        refresh(doc, es, 0)
    real = [
        Document.create(f"r{i}", f"Una {w}.", [Span(4, 4 + len(w), "Other")])
        for i, w in enumerate(["mujer", "varón"] * 3 + ["Juan", "Juan"])
    ]
    shared = shared_strings(real)
    assert shared == {"mujer", "varón"}  # "juan" is in 2 notes: not shared by 3
    fallbacks: list[str] = []
    new = refresh(doc, es, 0, shared=shared, fallbacks=fallbacks)
    assert [new.surface(s).lower() for s in new.spans] == ["varón", "mujer"] and fallbacks == ["n3"]
    doc2 = Document.create("n4", "Juan y Ana", [Span(0, 4, "Name"), Span(7, 10, "Name")])
    assert refresh(doc2, es, 0, shared=shared, fallbacks=fallbacks).text != doc2.text and fallbacks == ["n3"]


def test_untagged_copies_are_counted(pack: LanguagePack) -> None:
    doc = Document.create("n3", "Mw. Jansen belde. Jansen komt morgen.", [Span(4, 10, "Name")])
    after = refresh(doc, pack, 0)
    assert untagged_copies(doc, after) == 1  # the second, untagged "Jansen" is out of reach


def test_multi_token_surrogates_avoid_training_phi_strings_when_a_draw_allows(
    pack: LanguagePack, training: list[Document]
) -> None:
    doc = training[0]
    plain = refresh(doc, pack, 1)
    drawn = {k for k in span_strings(plain, SHIFTED_LABELS) if " " in k}
    assert drawn  # the demo note has full names and addresses
    avoided = refresh(doc, pack, 1, frozenset(drawn))  # as if the first draw's strings were training PHI
    assert not {k for k in span_strings(avoided, SHIFTED_LABELS) if " " in k} & drawn


def test_the_report_tables() -> None:
    from synthdeid.report import fresh_table, generator_table

    fresh = {
        "spans_replaced": 10,
        "spans_with_training_phi_before": 0.6,
        "spans_with_training_phi_after": 0.4,
        "notes_with_untagged_copies": 1,
        "phi_leakage_before": {"rate": 0.1, "multi_token_rate": 0.05},
        "phi_leakage_after": {"rate": 0.2, "multi_token_rate": 0.01},
    }
    table = fresh_table({"a": {"fresh_surrogates": fresh}, "b": {}})
    assert "| a | 10 | 60.00% -> 40.00% | 10.00% -> 20.00% | 5.00% -> 1.00% | 1 |" in table and "| b |" not in table
    rows = generator_table(
        {"plain": {}, "private": {"dp": {"epsilon": 9.99, "delta": 6.25e-5, "noise_multiplier": 0.63}}},
        {
            "plain": {
                "name_probe": {
                    "predictions": 4000,
                    "train_phi_rate": 0.76,
                    "train_phi_multi_token_rate": 0.47,
                    "distinct_train_phi_predicted": 362,
                }
            },
            "private": {"name_probe": {"skipped": "why"}},
        },
    )
    assert "| plain | no DP | 4,000 | 76.00% | 47.00% | 362 |" in rows
    assert "| private | 9.99 (delta 6.3e-05, noise 0.63) | skipped |" in rows


def test_spans_without_letters_or_digits_lose_their_label_and_are_counted(pack: LanguagePack) -> None:
    """A generated Phone_fax span ``)`` is no PHI and has nothing to re-draw (the phone surrogate
    keeps punctuation): its label goes, its text stays, and the report counts it."""
    doc = Document.create("g1", "Bel ( ) of Jansen.", [Span(6, 7, "Phone_fax"), Span(11, 17, "Name")])
    [after], report = refresh_corpus([doc], pack, 0)
    assert [s.label for s in after.spans] == ["Name"] and after.text.startswith("Bel ( ) of ")
    assert report.as_dict()["spans_unlabelled_without_letters_or_digits"] == 1 and report.spans_replaced == 1


def test_settings_from_params() -> None:
    """``corpora.NAME.fresh_surrogates`` as the study spec builds it: the short forms, and each
    refusal at its key."""
    from synthdeid.phi.fresh_surrogates import FreshSettings
    from synthdeid.spec.study import CorpusSpec

    def built(value):
        return CorpusSpec.model_validate({"generator": "g", "decoder": "d", "fresh_surrogates": value}).fresh_surrogates

    assert (
        built(False) is None and CorpusSpec.model_validate({"generator": "g", "decoder": "d"}).fresh_surrogates is None
    )
    assert built(True) == FreshSettings(labels=None, shapes="generated")
    assert built(["Phone_fax"]) == FreshSettings(labels=("Phone_fax",), shapes="generated")
    assert built({"labels": "all", "shapes": "training"}) == FreshSettings(labels=None, shapes="training")
    for bad, says in [
        ("yes", "must be true, false"),
        ({"label": ["ID"]}, "label\n  Extra inputs"),
        ({"labels": []}, "labels\n  must be all or a non-empty list"),
        ({"labels": "ID"}, "labels\n  must be all or a non-empty list"),
        ({"shapes": "model"}, "shapes\n  Input should be 'generated' or 'training'"),
    ]:
        with pytest.raises(ValidationError, match=says):
            built(bad)


def test_only_the_chosen_labels_are_redrawn(pack: LanguagePack, training: list[Document]) -> None:
    from synthdeid.phi.fresh_surrogates import FreshSettings

    settings = FreshSettings(labels=("Date", "Phone_fax"))
    fresh, report = refresh_corpus(training, pack, seed=3, real=training, settings=settings)
    changed = {"Date": 0, "Phone_fax": 0}
    for before, after in zip(training, fresh):
        assert [s.label for s in after.spans] == [s.label for s in before.spans]
        for old, new in zip(before.spans, after.spans):
            same = after.surface(new) == before.surface(old)
            if old.label in changed:
                assert not same
                changed[old.label] += 1
            else:
                assert same
    assert changed["Date"] > 10 and changed["Phone_fax"] > 0
    assert report.spans_replaced == sum(changed.values())
    assert report.as_dict()["labels"] == ["Date", "Phone_fax"] and report.as_dict()["shapes"] == "generated"


def test_training_shapes_give_well_formed_surrogates_for_garbled_spans(
    pack: LanguagePack, training: list[Document]
) -> None:
    """A word-level generator writes a phone number as ``( 7 )``; modelled on the training notes'
    phone numbers the surrogate is a phone number, and no training number is copied."""
    from synthdeid.phi.fresh_surrogates import FreshSettings
    from synthdeid.phi.span_shapes import ShapeBank

    text = "Bel ( 7 ) of mail Plástica, of ( 7 ) nogmaals. Jan belt."
    at = [text.index("( 7 )"), text.index("Plástica"), text.rindex("( 7 )"), text.index("Jan")]
    doc = Document.create(
        "g1",
        text,
        [
            Span(at[0], at[0] + 5, "Phone_fax"),
            Span(at[1], at[1] + 8, "Email"),
            Span(at[2], at[2] + 5, "Phone_fax"),
            Span(at[3], at[3] + 3, "Name"),
        ],
    )
    settings = FreshSettings(labels=("Phone_fax", "Email"), shapes="training")
    bank = ShapeBank.from_documents(training)
    assert bank.by_label["Phone_fax"] and bank.by_label["Email"]
    after = refresh(doc, pack, 0, settings=settings, shapes=bank)
    phone1, email, phone2, name = (after.surface(s) for s in after.spans)
    assert sum(c.isdigit() for c in phone1) >= 9 and "@" in email
    assert phone1 == phone2  # the same generated text stays one number within the note
    assert name == "Jan"
    assert phone1 not in bank.by_label["Phone_fax"] and email not in bank.by_label["Email"]
    assert refresh(doc, pack, 0, settings=settings, shapes=bank) == after  # seeded
    with pytest.raises(Exception, match="need the training notes"):
        refresh_corpus([doc], pack, 0, real=(), settings=settings)


def test_shape_bank_keeps_labels_it_has_no_shapes_for() -> None:
    from synthdeid.phi.span_shapes import ShapeBank

    doc = Document.create("s", "Op 3 mei belde X.", [Span(3, 8, "Date"), Span(15, 16, "Initials")])
    bank = ShapeBank.from_documents([Document.create("t", "Gezien 12-05-2020.", [Span(7, 17, "Date")])])
    shaped = bank.reshape(doc, 0)
    assert [shaped.surface(s) for s in shaped.spans] == ["12-05-2020", "X"]
    assert bank.reshape(doc, 0, labels={"Initials"}) == doc
