"""The German pack's own tests: it is found through its entry point, keeps inline tags whole,
splits sentences, and gives every canonical tag a seeded surrogate; Steuer-IDs are valid."""

from __future__ import annotations

import random
import re

import pytest
from synthdeid_lang_de import factory
from synthdeid_lang_de.surrogates import is_valid_steuer_id, make_steuer_id

from synthdeid import CANONICAL_TAGS, Document, Span, SurrogateError
from synthdeid.toolkit import pseudonymize, registry

PHI = {
    "Name": "Hans-Peter Müller", "Initials": "H.M.", "Date": "12. März 2019", "Age": "83 Jahre",
    "Address": "Hauptstraße 12a, 10115 Berlin", "Email": "hp.mueller@gmx.de", "Phone_fax": "0171 1234567",
    "URL_IP": "www.charite.de", "SSN": "86 095 742 719", "ID": "KH-12345", "Hospital": "Charité Berlin",
    "Care_Institute": "Pflegeheim Sonnenhof", "Organization_Company": "Siemens AG",
    "Internal_Location": "Station 4B", "Profession": "Bäcker", "Other": "männlich",
}


def _steuer_id_ok(text: str) -> bool:
    """Independent check digit (ISO 7064 MOD 11,10, written out as in the BZSt description)."""
    d = [int(c) for c in text if c.isdigit()]
    if len(d) != 11:
        return False
    product = 10
    for x in d[:10]:
        s = (x + product) % 10
        if s == 0:
            s = 10
        product = (s * 2) % 11
    return (11 - product) % 10 == d[10]


def test_found_through_the_entry_point() -> None:
    entry = registry("language").entry("de")
    assert entry.package == "synthdeid-lang-de"
    pack = registry("language").create("de")
    assert (pack.code, pack.name) == ("de", "German")


def test_tokens_and_sentences() -> None:
    pack = factory()
    assert pack.tokens("<NameSTART> Hr. Müller <NameEND> kam z.B. am 12.03.2019 um 14.30h.<PAR>") == [
        "<NameSTART>", "Hr.", "Müller", "<NameEND>", "kam", "z.B.", "am", "12.03.2019", "um", "14.30h", ".", "<PAR>"]
    text = "Pat. kam am 12. März 2019 in die Klinik. Z.n. Sturz. Er hat Fieber, usw. Dann Entlassung."
    assert [text[a:b] for a, b in pack.split_sentences(text)] == [
        "Pat. kam am 12. März 2019 in die Klinik.", "Z.n. Sturz.", "Er hat Fieber, usw.", "Dann Entlassung."]


def test_steuer_id_has_a_valid_check_digit() -> None:
    assert _steuer_id_ok("86095742719") and is_valid_steuer_id("86095742719")  # the BZSt example
    assert not is_valid_steuer_id("86095742718") and not is_valid_steuer_id("06095742719")
    rng = random.Random(0)
    for _ in range(2000):
        n = make_steuer_id(rng)
        assert _steuer_id_ok(n) and is_valid_steuer_id(n)
    for seed in range(50):
        new = factory().surrogates("d", seed).surrogate("86 095 742 719", "SSN")
        assert re.fullmatch(r"\d\d \d{3} \d{3} \d{3}", new) and _steuer_id_ok(new)


def test_every_canonical_tag_gets_a_surrogate() -> None:
    assert set(PHI) == set(CANONICAL_TAGS)
    pack = factory()
    for seed in range(20):
        s = pack.surrogates(f"d{seed}", seed)
        for label, original in PHI.items():
            new = s.surrogate(original, label)
            assert new and new.casefold() != original.casefold(), (label, original)


def test_german_formats() -> None:
    for seed in range(30):
        s = factory().surrogates("d", seed)
        assert re.fullmatch(r"\d{1,2}\. [A-ZÄ][a-zä]+ \d{4}", s.surrogate("12. März 2019", "Date"))
        assert re.fullmatch(r"\d\d\.\d\d\.\d{4}", s.surrogate("12.03.2019", "Date"))
        assert re.fullmatch(r"01\d{2} \d{7}", s.surrogate("0171 1234567", "Phone_fax"))
        assert re.fullmatch(r"\+49 \d\d \d{8}", s.surrogate("+49 30 12345678", "Phone_fax"))
        assert re.fullmatch(r"\S+ \d{1,3}[a-h]?, \d{5} \S.*", s.surrogate("Hauptstraße 12a, 10115 Berlin", "Address"))


def test_deterministic_and_fail_closed() -> None:
    text = "Herr Hans-Peter Müller, geb. 12.03.1950, Tel. 0171 1234567."
    spans = [Span(text.index(x), text.index(x) + len(x), label)
             for x, label in (("Hans-Peter Müller", "Name"), ("12.03.1950", "Date"), ("0171 1234567", "Phone_fax"))]
    doc = Document.create("n1", text, spans)
    out = pseudonymize(doc, factory(), 3)
    assert out == pseudonymize(doc, factory(), 3) and out != pseudonymize(doc, factory(), 4)
    assert "Müller" not in out.text and "0171 1234567" not in out.text
    with pytest.raises(SurrogateError, match="PERSON"):
        factory().surrogates("d", 1).surrogate("Hans", "PERSON")
