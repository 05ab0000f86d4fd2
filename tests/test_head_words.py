"""Head words of institution names: which words qualify, and what a surrogate keeps."""

from __future__ import annotations

from synthdeid.corpus.records import Document, Span
from synthdeid.phi.head_words import NONE, HeadWords
from synthdeid.phi.pseudonymize import pseudonymize
from synthdeid.plugin_system.manager import registry


def _note(i: int, org: str, label: str = "Organization_Company") -> Document:
    text = f"Opgehaald bij {org} vandaag."
    return Document.create(f"n{i}", text, [Span(14, 14 + len(org), label)])


PHARMACIES = ["Apotheek Dorpskade", "Apotheek Vuren", "apotheek De Linde", "Apotheek Jansen"]


def test_a_word_must_head_enough_distinct_spans_in_enough_notes() -> None:
    docs = [_note(i, org) for i, org in enumerate(PHARMACIES)] + [_note(9, "Apotheek Vuren")]
    heads = HeadWords.from_documents(docs, {"Organization_Company"}, min_spans=4, min_notes=4)
    assert heads.words("Organization_Company") == {"apotheek"}
    # three distinct spans are too few, however many notes repeat them
    fewer = [_note(i, org) for i, org in enumerate(PHARMACIES[:3] * 3)]
    assert HeadWords.from_documents(fewer, {"Organization_Company"}, 4, 4).words("Organization_Company") == set()
    # the same four spans in two notes are too few notes
    two = [Document.create("a", " ".join(PHARMACIES), []), Document.create("b", "x", [])]
    assert HeadWords.from_documents(two, {"Organization_Company"}, 4, 4).by_label == {}


def test_the_words_of_one_name_written_many_ways_are_no_head_words() -> None:
    home = ["Mariënhaven", "Zorgcentrum Mariënhaven", "woonzorgcentrum Mariënhaven", "De Mariënhaven"]
    homes = ["Zorgcentrum De Linde", "Zorgcentrum Vijverhof", "Zorgcentrum Het Anker", "De Eikenhorst"]
    docs = [_note(i, org, "Care_Institute") for i, org in enumerate(home + homes + ["Mariënhaven locatie Oost"])]
    heads = HeadWords.from_documents(docs, {"Care_Institute"}, min_spans=3, min_notes=3)
    # "mariënhaven" is in five distinct spans of five notes, but heads one name: with the candidates
    # (mariënhaven, zorgcentrum, de) taken out, its spans leave "woonzorgcentrum" and "locatie
    # oost", two values; "zorgcentrum" heads linde, vijverhof and het anker; "de" two names
    assert heads.words("Care_Institute") == {"zorgcentrum"}
    # with the first pass alone it would be kept, and "Zorgcentrum Mariënhaven" would be published
    assert not heads.is_generic("Care_Institute", "Zorgcentrum Mariënhaven")


def test_only_the_chosen_labels_and_only_words_of_letters() -> None:
    docs = [_note(i, f"Afdeling 3B {w}", "Care_Institute") for i, w in enumerate("ABCD")]
    heads = HeadWords.from_documents(docs, {"Organization_Company"}, 2, 2)
    assert heads.by_label == {}
    heads = HeadWords.from_documents(docs, {"Care_Institute"}, 2, 2)
    assert heads.words("Care_Institute") == {"afdeling"}  # "3B" holds a digit, A-D one span each


def test_a_surrogate_keeps_the_head_words_and_replaces_the_rest() -> None:
    heads = HeadWords({"Organization_Company": frozenset({"apotheek", "gemeente"})})
    assert heads.surrogate("Organization_Company", "Apotheek Dorpskade", lambda t: "Gemeente Almelo") == (
        "Apotheek Almelo"
    )
    assert heads.surrogate("Organization_Company", "Dorpskade", lambda t: "Gemeente Almelo") == "Gemeente Almelo"
    # nothing but head words left of the draw: the whole draw
    assert heads.surrogate("Organization_Company", "Apotheek X", lambda t: "Gemeente") == "Apotheek Gemeente"
    assert (
        heads.is_generic("Organization_Company", "apotheek")
        and heads.surrogate("Organization_Company", "Apotheek", lambda t: "Zzz") == "Apotheek"
    )
    assert not heads.is_generic("Hospital", "Apotheek")


def test_pseudonymize_keeps_head_words_and_changes_every_identifying_word() -> None:
    pack = registry("language").create("nl")
    heads = HeadWords({"Organization_Company": frozenset({"apotheek"})})
    doc = _note(1, "Apotheek Dorpskade")
    out = pseudonymize(doc, pack, 0, heads=heads)
    new = out.surface(out.spans[0])
    assert new.startswith("Apotheek ") and "Dorpskade" not in new
    assert out.text.startswith("Opgehaald bij ") and out.text.endswith(" vandaag.")
    plain = pseudonymize(doc, pack, 0, heads=NONE)
    assert plain.surface(plain.spans[0]) != "Apotheek Dorpskade"
    generic = pseudonymize(_note(2, "apotheek"), pack, 0, heads=heads)
    assert generic.text == _note(2, "apotheek").text


def test_head_words_survive_a_file_round_trip(tmp_path) -> None:
    heads = HeadWords({"Hospital": frozenset({"ziekenhuis"})}, 5, 4)
    heads.write(tmp_path / "h.json")
    assert HeadWords.read(tmp_path / "h.json") == heads
