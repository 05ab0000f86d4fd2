"""The Swedish language pack: tokenizer, sentences, personnummer and samordningsnummer with a valid
Luhn digit (checked here with independent code and published examples), Swedish dates, phones,
addresses, and the SEPR PHI labels kept as they are."""

from __future__ import annotations

import datetime as dt
import random
import re

import pytest

from synthdeid import Document, Span
from synthdeid.api import LanguagePack
from synthdeid.phi.pseudonymize import pseudonymize
from synthdeid.plugins import registry
from synthdeid.plugins.languages.sv import factory
from synthdeid.plugins.languages.sv.data import MONTHS
from synthdeid.plugins.languages.sv.surrogates import (
    is_valid_personnummer,
    luhn_digit,
    make_personnummer,
)


@pytest.fixture(scope="module")
def pack() -> LanguagePack:
    return factory({})


def _luhn_ok(text: str) -> bool:
    """Independent Luhn check over the last ten digits (YYMMDDNNNC): the weighted digit sum of all
    ten, doubling every other digit from the left, is a multiple of 10."""
    d = [int(c) for c in text if c.isdigit()][-10:]
    total = 0
    for i, x in enumerate(d):
        y = x * 2 if i % 2 == 0 else x
        total += y // 10 + y % 10
    return len(d) == 10 and total % 10 == 0


def _birth(text: str) -> dt.date:
    d = "".join(c for c in text if c.isdigit())
    year = int(d[:4]) if len(d) == 12 else 1900 + int(d[:2])
    ten = d[-10:]
    day = int(ten[4:6])
    return dt.date(year, int(ten[2:4]), day - 60 if day > 60 else day)


def test_registered_with_the_sepr_labels() -> None:
    p = registry("language").create("sv")
    assert (p.code, p.name) == ("sv", "Swedish")
    assert p.tag_map == {
        "First_Name": "Name",
        "Last_Name": "Name",
        "Age": "Age",
        "Phone_Number": "Phone_fax",
        "Location": "Address",
        "Health_Care_Unit": "Care_Institute",
        "Organization": "Organization_Company",
        "Date_Part": "Date",
        "Full_Date": "Date",
        "Date_Full": "Date",  # two names some releases use
        "Social_Security_Number": "SSN",
    }


def test_tokens_and_sentences(pack: LanguagePack) -> None:
    text = "Pat. har bl.a. ont, t.ex. kl. 14.30 den 12/3-19 (tel. 070-123 45 67)."
    assert pack.tokens(text) == [
        "Pat.",
        "har",
        "bl.a.",
        "ont",
        ",",
        "t.ex.",
        "kl.",
        "14.30",
        "den",
        "12/3-19",
        "(",
        "tel.",
        "070-123",
        "45",
        "67",
        ")",
        ".",
    ]
    text = "Pat. inkom kl. 14.30. Hon har bl.a. feber. Dr. Andersson ringde. Sen osv. Nästa dag."
    assert [text[a:b] for a, b in pack.split_sentences(text)] == [
        "Pat. inkom kl. 14.30.",
        "Hon har bl.a. feber.",
        "Dr. Andersson ringde.",
        "Sen osv.",
        "Nästa dag.",
    ]


def test_personnummer_have_a_valid_check_digit(pack: LanguagePack) -> None:
    for published in ("811218-9876", "19121212-1212", "121212-1212"):
        assert _luhn_ok(published) and is_valid_personnummer(published)
    assert not is_valid_personnummer("811218-9875") and not is_valid_personnummer("811318-9876")
    assert luhn_digit("811218987") == 6
    rng = random.Random(0)
    for _ in range(2000):
        n = make_personnummer(rng, samordning=rng.random() < 0.3)
        assert _luhn_ok(n) and is_valid_personnummer(n)
        _birth(n)  # a real date
    layouts = [
        ("19121212-1212", r"(?:19|20)\d{6}-\d{4}"),
        ("121212-1212", r"\d{6}-\d{4}"),
        ("191212121212", r"(?:19|20)\d{10}"),
        ("1212121212", r"\d{10}"),
        ("121212+1212", r"\d{6}\+\d{4}"),
    ]
    for seed in range(100):
        s = pack.surrogates("d", seed)
        for original, shape in layouts:
            new = s.surrogate(original, "SSN")
            assert re.fullmatch(shape, new) and _luhn_ok(new), (original, new)
        assert _birth(s.surrogate("121212+1212", "SSN")).year < 1925  # "+": 100 years or older
        samordning = s.surrogate("701272-1234", "SSN")
        assert int(samordning[4:6]) > 60 and _luhn_ok(samordning)
        assert _luhn_ok(s.surrogate("121212-1212", "ID"))


def test_dates_keep_swedish_formats(pack: LanguagePack) -> None:
    months = "|".join(MONTHS)
    formats = [
        ("2019-03-12", r"\d{4}-\d\d-\d\d"),
        ("12/3", r"\d{1,2}/\d{1,2}"),
        ("12/3-19", r"\d{1,2}/\d{1,2}-\d\d"),
        ("12 mars 2019", rf"\d{{1,2}} (?:{months}) \d{{4}}"),
        ("20190312", r"\d{8}"),
        ("12:e mars", rf"\d{{1,2}}:e (?:{months})"),
        ("2019-03-12 kl. 14.30", r"\d{4}-\d\d-\d\d kl\. \d\d\.\d\d"),
        ("måndag", "måndag|tisdag|onsdag|torsdag|fredag|lördag|söndag"),
    ]
    for seed in range(30):
        s = pack.surrogates("d", seed)
        for original, shape in formats:
            new = s.surrogate(original, "Date")
            assert re.fullmatch(shape, new) and new != original, (original, new)
        compact = s.surrogate("20190312", "Date")
        dt.date(int(compact[:4]), int(compact[4:6]), int(compact[6:]))
        a = dt.date.fromisoformat(s.surrogate("2019-03-01", "Date"))
        b = dt.date.fromisoformat(s.surrogate("2019-03-11", "Date"))
        assert (b - a).days == 10


def test_phones_addresses_ages(pack: LanguagePack) -> None:
    for seed in range(50):
        s = pack.surrogates("d", seed)
        assert re.fullmatch(r"07\d-\d{3} \d\d \d\d", s.surrogate("070-123 45 67", "Phone_fax"))
        assert re.fullmatch(r"\+46 7\d \d{3} \d\d \d\d", s.surrogate("+46 70 123 45 67", "Phone_fax"))
        assert re.fullmatch(
            r"\S+ \d{1,3}[A-H]?, [1-9]\d\d \d\d \S.*", s.surrogate("Storgatan 12, 123 45 Uppsala", "Address")
        )
        assert re.fullmatch(r"\d{2,3} år", s.surrogate("83 år", "Age"))
        assert re.fullmatch(r"[a-zåäö]+", s.surrogate("åttiotre", "Age"))


def test_names_keep_double_first_names(pack: LanguagePack) -> None:
    for seed in range(30):
        s = pack.surrogates("d", seed)
        full = s.surrogate("Lars-Erik Johansson", "Name")
        assert re.fullmatch(r"[A-ZÅÄÖÉ][a-zåäöéü]+-[A-ZÅÄÖÉ][a-zåäöéü]+ [A-ZÅÄÖÉ][a-zåäöéü]+", full), full
        assert s.surrogate("Johansson", "Name") == full.split(" ")[1]


def test_sepr_labels_kept_as_they_are_get_surrogates(pack: LanguagePack) -> None:
    text = "Anna Svensson, 83 år, inkom 12/3 till avd 54."
    labels = [
        ("Anna", "First_Name"),
        ("Svensson", "Last_Name"),
        ("83", "Age"),
        ("12/3", "Date_Part"),
        ("avd 54", "Health_Care_Unit"),
    ]
    spans = [Span(text.index(s), text.index(s) + len(s), label) for s, label in labels]
    out = pseudonymize(Document.create("s1", text, spans), pack, 0)
    assert [s.label for s in out.spans] == [label for _, label in labels]
    for surface, _ in labels:
        assert surface not in [out.surface(s) for s in out.spans]
