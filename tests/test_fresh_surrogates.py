"""Fresh surrogates after generation: no PHI string of a generated note survives as PHI, offsets
stay valid, the text around the spans is untouched, and the result is deterministic."""

from __future__ import annotations

import pytest

from synthdeid import Document, Span, SurrogateError
from synthdeid.demo import generate_demo_corpus
from synthdeid.fresh_surrogates import SHIFTED_LABELS, leakage_rates, refresh, refresh_corpus, span_strings, untagged_copies
from synthdeid.language import LanguagePack
from synthdeid.plugins.languages.nl import factory
from synthdeid.pseudonymize import pseudonymize


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
        pieces.append(doc.text[pos:s.start])
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
    import synthdeid.fresh_surrogates as fs

    doc = Document.create("n1", "Jan en Piet", [Span(0, 3, "Name"), Span(7, 11, "Name")])
    draws = iter(["Piet Jan", "Kees Joop"])  # first attempt: Jan -> Piet, Piet -> Jan

    def fake(d: Document, p: LanguagePack, seed: int) -> Document:
        a, b = next(draws).split()
        return Document.create(d.id, f"{a} en {b}", [Span(0, len(a), "Name"), Span(len(a) + 4, len(a) + 4 + len(b), "Name")])

    monkeypatch.setattr(fs, "pseudonymize", fake)
    assert refresh(doc, pack, 0).text == "Kees en Joop"


def test_fails_closed_when_no_fresh_draw_is_found(pack: LanguagePack, monkeypatch: pytest.MonkeyPatch) -> None:
    import synthdeid.fresh_surrogates as fs

    doc = Document.create("n2", "Jan en Piet", [Span(0, 3, "Name"), Span(7, 11, "Name")])
    monkeypatch.setattr(fs, "pseudonymize", lambda d, p, s: Document.create(
        d.id, "Piet en Jan", [Span(0, 4, "Name"), Span(8, 11, "Name")]))
    with pytest.raises(SurrogateError, match="n2"):
        refresh(doc, pack, 0)


def test_untagged_copies_are_counted(pack: LanguagePack) -> None:
    doc = Document.create("n3", "Mw. Jansen belde. Jansen komt morgen.", [Span(4, 10, "Name")])
    after = refresh(doc, pack, 0)
    assert untagged_copies(doc, after) == 1  # the second, untagged "Jansen" is out of reach


def test_multi_token_surrogates_avoid_training_phi_strings_when_a_draw_allows(pack: LanguagePack,
                                                                              training: list[Document]) -> None:
    doc = training[0]
    plain = refresh(doc, pack, 1)
    drawn = {k for k in span_strings(plain, SHIFTED_LABELS) if " " in k}
    assert drawn  # the demo note has full names and addresses
    avoided = refresh(doc, pack, 1, frozenset(drawn))  # as if the first draw's strings were training PHI
    assert not {k for k in span_strings(avoided, SHIFTED_LABELS) if " " in k} & drawn


def test_the_report_tables() -> None:
    from synthdeid.report import fresh_table, generator_table

    fresh = {"spans_replaced": 10, "spans_with_training_phi_before": 0.6, "spans_with_training_phi_after": 0.4,
             "notes_with_untagged_copies": 1, "phi_leakage_before": {"rate": 0.1, "multi_token_rate": 0.05},
             "phi_leakage_after": {"rate": 0.2, "multi_token_rate": 0.01}}
    table = fresh_table({"a": {"fresh_surrogates": fresh}, "b": {}})
    assert "| a | 10 | 60.00% -> 40.00% | 10.00% -> 20.00% | 5.00% -> 1.00% | 1 |" in table and "| b |" not in table
    rows = generator_table({"plain": {}, "private": {"dp": {"epsilon": 9.99, "delta": 6.25e-5, "noise_multiplier": 0.63}}},
                           {"plain": {"name_probe": {"predictions": 4000, "train_phi_rate": 0.76,
                                                     "train_phi_multi_token_rate": 0.47,
                                                     "distinct_train_phi_predicted": 362}},
                            "private": {"name_probe": {"skipped": "why"}}})
    assert "| plain | no DP | 4,000 | 76.00% | 47.00% | 362 |" in rows
    assert "| private | 9.99 (delta 6.3e-05, noise 0.63) | skipped |" in rows


def test_spans_without_letters_or_digits_lose_their_label_and_are_counted(pack: LanguagePack) -> None:
    """A generated Phone_fax span ``)`` is no PHI and has nothing to re-draw (the phone surrogate
    keeps punctuation): its label goes, its text stays, and the report counts it."""
    doc = Document.create("g1", "Bel ( ) of Jansen.", [Span(6, 7, "Phone_fax"), Span(11, 17, "Name")])
    [after], report = refresh_corpus([doc], pack, 0)
    assert [s.label for s in after.spans] == ["Name"] and after.text.startswith("Bel ( ) of ")
    assert report.as_dict()["spans_unlabelled_without_letters_or_digits"] == 1 and report.spans_replaced == 1
