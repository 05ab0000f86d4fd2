"""The English (US) language pack: tokenizer and sentences with clinical abbreviations, SSNs with
valid rules (checked here with independent code), NANP phones in the original's layout, US dates
in their format, ZIP and ZIP+4, states, first names that stay first names, ages on their side of
HIPAA's 89-year line, the i2b2 labels kept as they are, and the packs' canary sentences."""

from __future__ import annotations

import datetime as dt
import random
import re

import pytest

from synthdeid import CANONICAL_TAGS, Document, Span, SurrogateError
from synthdeid.api import LanguagePack
from synthdeid.corpus.tags import builtin_mapping
from synthdeid.phi.pseudonymize import pseudonymize
from synthdeid.plugins import registry
from synthdeid.plugins.languages.en import factory
from synthdeid.plugins.languages.en.data import MONTHS, STATES, name_lists
from synthdeid.plugins.languages.en.surrogates import AREA_CODES, is_valid_ssn, make_ssn
from synthdeid.privacy.canaries import DEFAULT_TEMPLATE, SLOT, check_template


@pytest.fixture(scope="module")
def pack() -> LanguagePack:
    return factory({})


def _ssn_ok(text: str) -> bool:
    """Independent SSN rules: area 001-899 but not 666, group 01-99, serial 0001-9999."""
    d = "".join(c for c in text if c.isdigit())
    if len(d) != 9:
        return False
    area, group, serial = int(d[:3]), int(d[3:5]), int(d[5:])
    return 0 < area < 900 and area != 666 and group > 0 and serial > 0


def _nanp_ok(ten: str) -> bool:
    """A NANP number: area and exchange start with 2-9 and are not N11."""
    return len(ten) == 10 and ten[0] in "23456789" and ten[3] in "23456789" and ten[1:3] != "11" and ten[4:6] != "11"


def test_registered_with_the_i2b2_labels() -> None:
    p = registry("language").create("en")
    assert (p.code, p.name) == ("en", "English")
    assert p.tag_map["PATIENT"] == "Name" and p.tag_map["MEDICALRECORD"] == "ID" and p.tag_map["ZIP"] == "Address"
    assert p.tag_map["LOCATION"] == "Address"  # i2b2 2006 too
    assert set(builtin_mapping("i2b2_2014")) | set(builtin_mapping("i2b2_2006")) == set(p.tag_map)
    assert factory({"tag_map": {"PERSON": "Name"}}).tag_map["PERSON"] == "Name"
    with pytest.raises(ValueError, match="tokenizer"):
        factory({"tokenizer": "spacy"})


def test_tokens(pack: LanguagePack) -> None:
    text = "Dr. Smith saw the 67 y/o pt. s/p CABG on 05/03/2067, approx. 2.5 mg p.o. b.i.d. (tel. 617-555-0123 x12)."
    assert pack.tokens(text) == [
        "Dr.",
        "Smith",
        "saw",
        "the",
        "67",
        "y/o",
        "pt.",
        "s/p",
        "CABG",
        "on",
        "05/03/2067",
        ",",
        "approx.",
        "2.5",
        "mg",
        "p.o.",
        "b.i.d.",
        "(",
        "tel.",
        "617-555-0123",
        "x12",
        ")",
        ".",
    ]
    assert pack.tokens("<NameSTART> Ann <NameEND> emailed ann@partners.org via www.example.org/a.") == [
        "<NameSTART>",
        "Ann",
        "<NameEND>",
        "emailed",
        "ann@partners.org",
        "via",
        "www.example.org/a",
        ".",
    ]


def test_sentences_do_not_end_at_abbreviations_or_decimals(pack: LanguagePack) -> None:
    note = (
        "Mr. Jones is a 67 y/o man seen by Dr. Lee on Jan. 5 at 10 a.m. for f/u. Pt. was given approx. "
        "2.5 mg. p.o. b.i.d. and Tylenol p.r.n., e.g. for pain, i.e. headache. Temp 98.6. BP 120/80 vs. "
        "130/85 on admission, No. 4 St. Mary's Rd. Lasix 40 mg p.o. q.d. Follow up in 2 wks. Meds: "
        "aspirin, etc. Discharged home."
    )
    assert [note[a:b] for a, b in pack.split_sentences(note)] == [
        "Mr. Jones is a 67 y/o man seen by Dr. Lee on Jan. 5 at 10 a.m. for f/u.",
        "Pt. was given approx. 2.5 mg. p.o. b.i.d. and Tylenol p.r.n., e.g. for pain, i.e. headache.",
        "Temp 98.6.",
        "BP 120/80 vs. 130/85 on admission, No. 4 St. Mary's Rd. Lasix 40 mg p.o. q.d.",
        "Follow up in 2 wks.",
        "Meds: aspirin, etc.",
        "Discharged home.",
    ]


def test_ssns_follow_the_rules_and_keep_their_layout(pack: LanguagePack) -> None:
    assert _ssn_ok("078-05-1121") and not _ssn_ok("666-12-3456") and not _ssn_ok("900-12-3456")
    assert not _ssn_ok("123-00-4567") and not _ssn_ok("123-45-0000") and not _ssn_ok("000-12-3456")
    assert is_valid_ssn("123-45-6789") and is_valid_ssn("001010001") and not is_valid_ssn("666-45-6789")
    assert not is_valid_ssn("123-45-678") and not is_valid_ssn("899-00-1234")
    rng = random.Random(0)
    for _ in range(5000):
        ssn = make_ssn(rng)
        assert _ssn_ok(ssn) and is_valid_ssn(ssn)
    layouts = [("123-45-6789", r"\d{3}-\d{2}-\d{4}"), ("123456789", r"\d{9}"), ("123 45 6789", r"\d{3} \d{2} \d{4}")]
    for seed in range(300):
        s = pack.surrogates(f"d{seed}", seed)
        for original, shape in layouts:
            for label in ("SSN", "ID"):
                new = s.surrogate(original, label)
                assert re.fullmatch(shape, new) and _ssn_ok(new), (original, new)
        assert re.fullmatch(r"xxx-xx-\d{4}", s.surrogate("xxx-xx-1234", "SSN"))


def test_phones_keep_their_layout_and_are_valid_nanp_numbers(pack: LanguagePack) -> None:
    layouts = [
        ("(617) 555-0123", r"\((\d{3})\) (\d{3})-(\d{4})"),
        ("617-555-0123", r"(\d{3})-(\d{3})-(\d{4})"),
        ("617.555.0123", r"(\d{3})\.(\d{3})\.(\d{4})"),
        ("+1 617 555 0123", r"\+1 (\d{3}) (\d{3}) (\d{4})"),
        ("1-617-555-0123", r"1-(\d{3})-(\d{3})-(\d{4})"),
        ("617-555-0123 ext. 45", r"(\d{3})-(\d{3})-(\d{4}) ext\. \d\d"),
        ("(617) 555-0123 x1234", r"\((\d{3})\) (\d{3})-(\d{4}) x\d{4}"),
    ]
    for seed in range(100):
        s = pack.surrogates(f"d{seed}", seed)
        for original, shape in layouts:
            new = s.surrogate(original, "Phone_fax")
            m = re.fullmatch(shape, new)
            assert m, (original, new)
            ten = "".join(m.groups())
            assert _nanp_ok(ten) and ten[:3] in AREA_CODES and ten[3:6] != "555", new
        assert re.fullmatch(r"[2-9]\d\d-\d{4}", s.surrogate("555-0123", "Phone_fax"))
        assert re.fullmatch(r"[1-9]-\d{4}", s.surrogate("5-1234", "Phone_fax"))
        assert re.fullmatch(r"x[1-9]\d{4}", s.surrogate("x51234", "Phone_fax"))


def _us_date(text: str) -> dt.date:
    m = re.fullmatch(rf"({'|'.join(MONTHS)}) (\d{{1,2}}), (\d{{4}})", text)
    assert m, text
    return dt.date(int(m.group(3)), MONTHS.index(m.group(1)) + 1, int(m.group(2)))


def test_dates_keep_their_us_format_and_shift_together(pack: LanguagePack) -> None:
    months = "|".join(MONTHS)
    formats = [
        ("05/03/2067", r"\d\d/\d\d/\d{4}"),
        ("5/3/67", r"\d{1,2}/\d{1,2}/\d\d"),
        ("05-13-2067", r"\d\d-\d\d-\d{4}"),
        ("May 3, 2067", rf"(?:{months}) \d{{1,2}}, \d{{4}}"),
        ("3 May 2067", rf"\d{{1,2}} (?:{months}) \d{{4}}"),
        ("2067-05-03", r"\d{4}-\d\d-\d\d"),
        ("May 2067", rf"(?:{months}) \d{{4}}"),
        ("May 3", rf"(?:{months}) \d{{1,2}}"),
        ("5/3", r"\d{1,2}/\d{1,2}"),
        ("Sept. 3", r"[A-Z][a-z]{2}\. \d{1,2}"),
        ("2067", r"\d{4}"),
        ("Tuesday", r"Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday"),
        ("05/03/2067 at 10:30 am", r"\d\d/\d\d/\d{4} at (?:[1-9]|1[0-2]):\d\d am"),
    ]
    for seed in range(40):
        s = pack.surrogates(f"d{seed}", seed)
        for original, shape in formats:
            new = s.surrogate(original, "Date")
            assert re.fullmatch(shape, new) and new != original, (original, new)
        # US month-first: 05/13/2067 is May 13, ten days after May 3
        a, b = s.surrogate("05/03/2067", "Date"), s.surrogate("05/13/2067", "Date")
        da, db = (dt.datetime.strptime(x, "%m/%d/%Y").date() for x in (a, b))
        assert (db - da).days == 10
        assert (_us_date(s.surrogate("May 13, 2067", "Date")) - _us_date(s.surrogate("May 3, 2067", "Date"))).days == 10
        ordinal = s.surrogate("May 3rd", "Date")
        day = int(re.fullmatch(rf"(?:{months}) (\d+)(?:st|nd|rd|th)", ordinal).group(1))
        assert ordinal.endswith({1: "st", 2: "nd", 3: "rd", 21: "st", 22: "nd", 23: "rd", 31: "st"}.get(day, "th"))
        assert s.surrogate("Christmas", "Date") not in ("Christmas", "")


def test_ages_keep_their_wording_and_their_side_of_89(pack: LanguagePack) -> None:
    wordings = [
        ("67-year-old", r"(\d+)-year-old"),
        ("67 yo", r"(\d+) yo"),
        ("67 y/o", r"(\d+) y/o"),
        ("67 y.o.", r"(\d+) y\.o\."),
        ("67", r"(\d+)"),
    ]
    for seed in range(100):
        s = pack.surrogates(f"d{seed}", seed)
        for original, shape in wordings:
            m = re.fullmatch(shape, s.surrogate(original, "Age"))
            assert m and 1 <= int(m.group(1)) <= 89, original
        for old in (90, 92, 97, 101):
            assert 89 < int(s.surrogate(str(old), "Age")) <= 105
            assert int(s.surrogate(f"{old}-year-old", "Age").split("-")[0]) > 89
        for old in (85, 88, 89):
            assert int(s.surrogate(f"{old} yo", "Age").split()[0]) <= 89
        assert re.fullmatch(r"[a-z]+(?:-[a-z]+)?-year-old", s.surrogate("sixty-seven-year-old", "Age"))


def test_zip_codes_keep_5_or_9_digits_and_states_their_form(pack: LanguagePack) -> None:
    for seed in range(100):
        s = pack.surrogates(f"d{seed}", seed)
        assert re.fullmatch(r"\d{5}", s.surrogate("02114", "Address"))
        assert re.fullmatch(r"\d{5}-\d{4}", s.surrogate("02114-1234", "Address"))
        code, name = s.surrogate("MA", "Address"), s.surrogate("Massachusetts", "Address")
        assert code in STATES and STATES[code] == name  # the same state in the original's form
        full = s.surrogate("1420 Beacon Street, Apt 4B, Boston, MA 02114-1234", "Address")
        assert re.fullmatch(r"\d{1,4} [A-Z][a-z]+ Street, Apt [1-9][A-F], [A-Z][\w. ]+, [A-Z]{2} \d{5}-\d{4}", full), (
            full
        )
        assert "Beacon" not in full and "Boston" not in full
        assert re.fullmatch(r"\d+ N\. [A-Z][a-z]+ St\.", s.surrogate("123 N. Main St.", "Address"))
        assert re.fullmatch(r"[A-Z][\w. ]+ [A-Z]{2}", s.surrogate("Boston MA", "Address"))


def test_first_names_stay_first_names_and_keep_their_sex(pack: LanguagePack) -> None:
    male, female, surnames = name_lists()
    drawn = set(male) | set(female)
    # common, uncommon and old-fashioned first names: all first names, none a surname
    for original in ("Mary", "James", "Mildred", "Gertrude", "Delbert", "Eugene", "Bertha", "Clarence"):
        for seed in range(20):
            new = pack.surrogates(f"d{seed}", seed).surrogate(original, "Name")
            assert new in drawn, (original, new)
    for seed in range(20):
        s = pack.surrogates(f"d{seed}", seed)
        assert s.surrogate("Mildred", "Name") in female and s.surrogate("Delbert", "Name") in male
        full = s.surrogate("Mildred J. Baker", "Name")
        first, initial, last = full.split(" ")
        assert first in female and re.fullmatch(r"[A-Z]\.", initial) and last in surnames
        assert s.surrogate("Baker", "Name") == last and s.surrogate("Mildred", "Name") == first
        assert s.surrogate("Dr. Thomas", "Name").split(" ")[1] in surnames  # a lone name after a title
        assert s.surrogate("Baker, Mildred", "Name") == f"{last}, {first}"
        assert s.surrogate("Mildred Baker, M.D.", "Name") == f"{first} {last}, M.D."
        assert s.surrogate("BAKER, MILDRED", "Name") == f"{last}, {first}".upper()


def test_i2b2_labels_kept_as_they_are_get_surrogates(pack: LanguagePack) -> None:
    text = "Patient: Mildred Baker. MRN: 0098123. SSN 078-05-1121. Seen at Boston General on 05/03/2067, age 92."
    labels = [
        ("Mildred Baker", "PATIENT"),
        ("0098123", "MEDICALRECORD"),
        ("078-05-1121", "SSN"),
        ("Boston General", "HOSPITAL"),
        ("05/03/2067", "DATE"),
        ("92", "AGE"),
    ]
    spans = [Span(text.index(s), text.index(s) + len(s), label) for s, label in labels]
    out = pseudonymize(Document.create("i1", text, spans), pack, 0)
    assert [s.label for s in out.spans] == [label for _, label in labels]
    surfaces = [out.surface(s) for s in out.spans]
    for original, _ in labels:
        assert not re.search(rf"(?<!\w){re.escape(original)}(?!\w)", out.text), original
    assert re.fullmatch(r"\d{7}", surfaces[1]) and _ssn_ok(surfaces[2]) and int(surfaces[5]) > 89
    with pytest.raises(SurrogateError, match="FOO"):
        pseudonymize(Document.create("i2", "Hi Ann.", [Span(3, 6, "FOO")]), pack, 0)


# -- canary sentences ---------------------------------------------------------------------------


@pytest.mark.parametrize("code", ["nl", "sv", "es", "en"])
def test_canary_templates_are_valid_and_tokenize_to_themselves(code: str) -> None:
    p = registry("language").create(code)
    template = p.canary_template
    assert template is not None and template.endswith(" <EOD>")
    tokens = template.split(" ")
    assert tokens.count(SLOT) == 8 and "" not in tokens
    assert tokens[tokens.index("<Phone_faxSTART>") + 1 : tokens.index("<Phone_faxEND>")] == [SLOT] * 8
    check_template(template, CANONICAL_TAGS)
    for filler in ("0", "12", "2067"):
        filled = template.replace(SLOT, filler)
        assert " ".join(p.tokens(filled)) == filled, (code, p.tokens(filled))
    if code == "nl":
        assert template == DEFAULT_TEMPLATE
