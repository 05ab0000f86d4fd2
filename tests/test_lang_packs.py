"""What every language pack promises, checked for each installed one (nl, sv, es, en, and the German
example pack when it is installed): inline tags stay single tokens, sentences cover the text, every
canonical tag gets a surrogate that differs from the original, the same seed gives the same
surrogates, documents do not disturb each other, unknown labels fail closed."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from synthdeid import CANONICAL_TAGS, Document, Span, SurrogateError
from synthdeid.api import LanguagePack
from synthdeid.phi.pseudonymize import pseudonymize
from synthdeid.plugins import registry

# one example of every canonical tag, per language
PHI: dict[str, dict[str, str]] = {
    "nl": {
        "Name": "Johannes van der Meulen",
        "Initials": "J.v.d.M.",
        "Date": "17 augustus 2021",
        "Age": "87-jarige",
        "Address": "Kastanjelaan 41, 6543 KL Hengelo",
        "Email": "jvdmeulen@ziggo.nl",
        "Phone_fax": "06-98765432",
        "URL_IP": "https://www.mst.nl/patienten",
        "SSN": "123.456.782",
        "ID": "MST-0098123",
        "Hospital": "Medisch Spectrum Twente",
        "Care_Institute": "Woonzorgcentrum De Posten",
        "Organization_Company": "Stork Turbo Blading",
        "Internal_Location": "afdeling C4 West",
        "Profession": "lasser",
        "Other": "Elfstedentocht 1997",
    },
    "sv": {
        "Name": "Karin Lindqvist",
        "Initials": "K.L.",
        "Date": "12 mars 2019",
        "Age": "83 år",
        "Address": "Storgatan 12, 123 45 Uppsala",
        "Email": "karin.lindqvist@telia.com",
        "Phone_fax": "070-123 45 67",
        "URL_IP": "www.akademiska.se",
        "SSN": "19121212-1212",
        "ID": "AS-0098123",
        "Hospital": "Akademiska sjukhuset",
        "Care_Institute": "Vårdcentralen Gränby",
        "Organization_Company": "Upplands Bygg AB",
        "Internal_Location": "avdelning 54",
        "Profession": "undersköterska",
        "Other": "kvinna",
    },
    "es": {
        "Name": "Ernesto Rivera Bueno",
        "Initials": "E.R.B.",
        "Date": "12 de marzo de 2019",
        "Age": "70 años",
        "Address": "Calle Miguel Benitez 90, 28016 Madrid",
        "Email": "nnavcu@hotmail.com",
        "Phone_fax": "967 597 100",
        "URL_IP": "www.hospital-lapaz.es",
        "SSN": "28 12345678 40",
        "ID": "NHC 368503",
        "Hospital": "Hospital Universitario La Paz",
        "Care_Institute": "Centro de Salud Chantrea",
        "Organization_Company": "Facultad de Odontología",
        "Internal_Location": "planta 3",
        "Profession": "minero",
        "Other": "varón",
    },
    "en": {
        "Name": "John A. Smith",
        "Initials": "J.A.S.",
        "Date": "May 3, 2067",
        "Age": "67-year-old",
        "Address": "1420 Beacon Street, Boston, MA 02114",
        "Email": "jsmith@comcast.net",
        "Phone_fax": "(617) 555-0123",
        "URL_IP": "www.bostongeneral.org",
        "SSN": "123-45-6789",
        "ID": "MRN 0098123",
        "Hospital": "Boston General Hospital",
        "Care_Institute": "Maple Grove Nursing Home",
        "Organization_Company": "Raytheon",
        "Internal_Location": "Room 412",
        "Profession": "electrician",
        "Other": "female",
    },
    "de": {
        "Name": "Hans-Peter Müller",
        "Initials": "H.-P.M.",
        "Date": "12. März 2019",
        "Age": "83 Jahre",
        "Address": "Hauptstraße 12a, 10115 Berlin",
        "Email": "hp.mueller@gmx.de",
        "Phone_fax": "0171 1234567",
        "URL_IP": "www.charite.de",
        "SSN": "86 095 742 719",
        "ID": "KH-12345",
        "Hospital": "Charité Berlin",
        "Care_Institute": "Pflegeheim Sonnenhof",
        "Organization_Company": "Siemens AG",
        "Internal_Location": "Station 4B",
        "Profession": "Bäcker",
        "Other": "männlich",
    },
}
TAGGED = "Gezien: <NameSTART> X <NameEND> op <DateSTART> 1 <DateEND>.<PAR>Tweede regel<EOD>"


def _installed() -> list[str]:
    return [code for code in PHI if code in registry("language")]


CODES = _installed()
PACKS = {code: registry("language").create(code) for code in CODES}


@pytest.fixture(scope="module", params=CODES)
def pack(request: pytest.FixtureRequest) -> LanguagePack:
    return registry("language").create(request.param)


def test_the_built_in_packs_are_registered() -> None:
    assert {"nl", "sv", "es", "en"} <= set(CODES)


def test_every_language_has_an_example_for_every_tag() -> None:
    for code, examples in PHI.items():
        assert set(examples) == set(CANONICAL_TAGS), code


def test_inline_tags_are_single_tokens(pack: LanguagePack) -> None:
    tokens = pack.tokens(TAGGED)
    assert [t for t in tokens if t.startswith("<")] == [
        "<NameSTART>",
        "<NameEND>",
        "<DateSTART>",
        "<DateEND>",
        "<PAR>",
        "<EOD>",
    ]
    glued = "x<Phone_faxSTART>y<Phone_faxEND>z<Care_InstituteSTART>"
    assert pack.tokens(glued) == ["x", "<Phone_faxSTART>", "y", "<Phone_faxEND>", "z", "<Care_InstituteSTART>"]


_TAGS = st.sampled_from(["<NameSTART>", "<NameEND>", "<PAR>", "<EOD>", "<DateSTART>", "<URL_IPEND>"])
_PIECES = st.one_of(
    st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=10),
    st.text(alphabet="aZJ.P-/:,;'0123456789 \n\t<>@éñåº¿¡", max_size=10),
    _TAGS,
)


@settings(max_examples=150, deadline=None)
@given(st.lists(_PIECES, max_size=10).map("".join))
def test_tokens_and_sentences_cover_the_text(text: str) -> None:
    for code, pack in PACKS.items():
        for spans in (pack.tokenize(text), pack.split_sentences(text)):
            covered = [0] * len(text)
            prev = 0
            for a, b in spans:
                assert prev <= a < b <= len(text), code
                prev = b
                for i in range(a, b):
                    covered[i] += 1
            assert all(covered[i] == (0 if c.isspace() else 1) for i, c in enumerate(text) if not c.isspace()), code
        assert [t for t in pack.tokens(text) if t in ("<NameSTART>", "<PAR>", "<EOD>")] == re.findall(
            r"<NameSTART>|<PAR>|<EOD>", text
        )


def test_every_canonical_tag_gets_a_different_surrogate(pack: LanguagePack) -> None:
    for seed in range(20):
        s = pack.surrogates(f"doc{seed}", seed)
        for label, original in PHI[pack.code].items():
            new = s.surrogate(original, label)
            assert new and new == new.strip(), (label, original)
            assert new.casefold() != original.casefold(), (label, original)
            assert s.surrogate(original, label) == new  # consistent within the document


def _document(code: str) -> Document:
    text, spans = "", []
    for i, (label, surface) in enumerate(PHI[code].items()):
        text += f"{i}: "
        spans.append(Span(len(text), len(text) + len(surface), label))
        text += surface + ".\n"
    return Document.create("note-1", text, spans)


def test_pseudonymize_replaces_every_span_deterministically(pack: LanguagePack) -> None:
    doc = _document(pack.code)
    out = pseudonymize(doc, pack, 7)
    assert [s.label for s in out.spans] == [s.label for s in doc.spans]
    for surface in PHI[pack.code].values():
        assert surface.casefold() not in out.text.casefold()
    again = registry("language").create(pack.code)
    assert pseudonymize(doc, again, 7) == out
    assert pseudonymize(doc, pack, 8) != out


def test_interleaved_documents_do_not_disturb_each_other(pack: LanguagePack) -> None:
    calls = [(o, label) for label, o in PHI[pack.code].items()]
    one = pack.surrogates("a", 1)
    alone = [one.surrogate(o, label) for o, label in calls]
    a, b = pack.surrogates("a", 1), pack.surrogates("b", 2)
    mixed = []
    for o, label in calls:
        mixed.append(a.surrogate(o, label))
        b.surrogate(o, label)
    assert mixed == alone


def test_unknown_labels_and_empty_spans_fail_closed(pack: LanguagePack) -> None:
    s = pack.surrogates("d", 1)
    with pytest.raises(SurrogateError, match="PERSOON"):
        s.surrogate("Jan", "PERSOON")
    with pytest.raises(SurrogateError):
        s.surrogate("   ", "Name")
    with pytest.raises(SurrogateError):
        s.surrogate("--/--", "ID")


@settings(max_examples=150, deadline=None)
@given(
    st.sampled_from(CANONICAL_TAGS),
    st.text(alphabet=st.characters(blacklist_categories=("Cs",)), min_size=1, max_size=20)
    | st.text(alphabet="Ana.P -/,0123456789abAB@:ñåºs", min_size=1, max_size=20),
)
def test_any_text_gets_a_valid_surrogate_or_a_surrogate_error(label: str, text: str) -> None:
    for code, pack in PACKS.items():
        s = pack.surrogates("fuzz", 1)
        try:
            new = s.surrogate(text, label)
        except SurrogateError:
            continue
        assert new and new == new.strip() and new.casefold() != text.strip().casefold(), (code, label, text)


def test_a_tokenizer_without_abbreviations_gives_no_empty_tokens() -> None:
    from synthdeid.language_kit.tokenizer import Tokenizer

    text = "Dhr. <NameSTART> J. Jansen <NameEND> belt 06-12345678 , zie www.x.nl ."
    spans = Tokenizer(()).tokenize(text)
    assert all(end > start for start, end in spans)
    assert [text[a:b] for a, b in spans] == [
        "Dhr",
        ".",
        "<NameSTART>",
        "J.",
        "Jansen",
        "<NameEND>",
        "belt",
        "06-12345678",
        ",",
        "zie",
        "www.x.nl",
        ".",
    ]


def test_email_surrogates_for_names_without_an_ascii_form() -> None:
    from faker import Faker

    from synthdeid.language_kit.surrogates import BaseSurrogates
    from synthdeid.plugins.languages.nl.data import surrogate_data

    data = surrogate_data()
    cyrillic = type(data.names)(("Иван",), ("Анна",), ("Иванов",))
    surrogates = BaseSurrogates(
        "doc",
        0,
        Faker("ru_RU"),
        type(data)(
            **{
                **{f: getattr(data, f) for f in ("dates", "professions", "email_domains", "domain_words", "phone")},
                "names": cyrillic,
            }
        ),
    )
    for original in ("j.jansen@gmail.com", "jan_jansen@ziekenhuis.nl", "jjansen@x.nl"):
        local, _, domain = surrogates.email(original).partition("@")
        assert local and local.isascii() and domain, original
