"""The Spanish language pack: tokenizer, sentences, identity numbers with valid check characters
(checked here with independent code and published examples), two-surname names, dates in Spanish
formats, addresses, phones, and MEDDOCAN's labels kept as they are."""

from __future__ import annotations

import datetime as dt
import random
import re

import pytest

from synthdeid import Document, Span, SurrogateError
from synthdeid.api import LanguagePack
from synthdeid.phi.pseudonymize import pseudonymize
from synthdeid.plugins import registry
from synthdeid.plugins.languages.es import factory
from synthdeid.plugins.languages.es.data import MONTHS, countries, name_lists
from synthdeid.plugins.languages.es.surrogates import (
    is_valid_dni,
    is_valid_nss,
    make_dni,
    make_nie,
    make_nss,
)


@pytest.fixture(scope="module")
def pack() -> LanguagePack:
    return factory({})


def _dni_ok(text: str) -> bool:
    """Independent DNI/NIE check: the letter is the remainder mod 23 looked up in the table."""
    s = text.replace(".", "").replace("-", "").replace(" ", "").upper()
    s = {"X": "0", "Y": "1", "Z": "2"}.get(s[0], s[0]) + s[1:]
    return len(s) == 9 and s[:8].isdigit() and "TRWAGMYFPDXBNJZSQVHLCKE"[int(s[:8]) % 23] == s[8]


def _nss_ok(text: str) -> bool:
    """Independent NSS check: the last two digits are (province and number) mod 97."""
    d = "".join(c for c in text if c.isdigit())
    if len(d) != 12:
        return False
    number = int(d[2:10])
    base = int(d[:10]) if number >= 10**7 else number + int(d[:2]) * 10**7
    return base % 97 == int(d[10:])


def test_registered_with_the_meddocan_labels() -> None:
    p = registry("language").create("es")
    assert (p.code, p.name) == ("es", "Spanish")
    assert p.tag_map["NOMBRE_SUJETO_ASISTENCIA"] == "Name" and p.tag_map["ID_ASEGURAMIENTO"] == "SSN"
    assert factory({"tag_map": {"PACIENTE": "Name"}}).tag_map["PACIENTE"] == "Name"
    with pytest.raises(ValueError, match="tokeniser"):
        factory({"tokeniser": "spacy"})


def test_tokens_and_sentences(pack: LanguagePack) -> None:
    text = "La Dra. García vio al Sr. J.M. Rivera (p.ej. en c/ Mayor 5, 2º dcha.) el 12/03/2019."
    assert pack.tokens(text) == [
        "La",
        "Dra.",
        "García",
        "vio",
        "al",
        "Sr.",
        "J.M.",
        "Rivera",
        "(",
        "p.ej.",
        "en",
        "c/",
        "Mayor",
        "5",
        ",",
        "2º",
        "dcha.",
        ")",
        "el",
        "12/03/2019",
        ".",
    ]
    assert pack.tokens("<NameSTART> Ana <NameEND> llamó a ana@hotmail.es") == [
        "<NameSTART>",
        "Ana",
        "<NameEND>",
        "llamó",
        "a",
        "ana@hotmail.es",
    ]
    text = "Paciente de 70 años. ¿Dolor? ¡No! Visto por el Dr. Pérez. Alergias: ninguna, etc. Fin."
    assert [text[a:b] for a, b in pack.split_sentences(text)] == [
        "Paciente de 70 años.",
        "¿Dolor?",
        "¡No!",
        "Visto por el Dr. Pérez.",
        "Alergias: ninguna, etc.",
        "Fin.",
    ]


def test_dni_and_nie_have_a_valid_letter(pack: LanguagePack) -> None:
    assert _dni_ok("12345678Z") and _dni_ok("X1234567L") and not _dni_ok("12345678A")
    assert is_valid_dni("12345678Z") and is_valid_dni("X1234567L") and not is_valid_dni("X1234567A")
    rng = random.Random(0)
    for _ in range(2000):
        assert _dni_ok(make_dni(rng)) and _dni_ok(make_nie(rng))
    for seed in range(100):
        s = pack.surrogates("d", seed)
        for original, shape in [
            ("12345678Z", r"\d{8}[A-Z]"),
            ("12.345.678-Z", r"\d\d\.\d{3}\.\d{3}-[A-Z]"),
            ("X1234567L", r"[XYZ]\d{7}[A-Z]"),
            ("y-1234567-x", r"[xyz]-\d{7}-[a-z]"),
        ]:
            for label in ("SSN", "ID"):
                new = s.surrogate(original, label)
                assert re.fullmatch(shape, new) and _dni_ok(new), (original, new)


def test_social_security_numbers_have_valid_control_digits(pack: LanguagePack) -> None:
    rng = random.Random(1)
    for _ in range(2000):
        n = make_nss(rng)
        assert _nss_ok(n) and is_valid_nss(n) and 1 <= int(n[:2]) <= 52
    assert not is_valid_nss("281234567841")
    for seed in range(100):
        new = pack.surrogates("d", seed).surrogate("28 12345678 40", "SSN")
        assert re.fullmatch(r"\d\d \d{8} \d\d", new) and _nss_ok(new)
        assert re.fullmatch(r"\d\d \d{8}", pack.surrogates("d", seed).surrogate("26 63514095", "SSN"))


def test_two_surnames_map_consistently(pack: LanguagePack) -> None:
    for seed in range(40):
        s = pack.surrogates("d", seed)
        full = s.surrogate("Ernesto Rivera Bueno", "Name")
        first, sur1, sur2 = full.split(" ")
        assert s.surrogate("Rivera Bueno", "Name") == f"{sur1} {sur2}"
        assert s.surrogate("Rivera", "Name") == sur1
        assert s.surrogate("Bueno", "Name") == sur2
        assert s.surrogate("Ernesto", "Name") == first
        assert s.surrogate("Dr. Rivera", "Name") == f"Dr. {sur1}"
        assert s.surrogate("RIVERA BUENO", "Name") == f"{sur1} {sur2}".upper()
        assert sur1 != sur2


def test_names_keep_gender_particles_and_titles(pack: LanguagePack) -> None:
    _male, female, _ = name_lists()
    for seed in range(40):
        s = pack.surrogates("d", seed)
        ana = s.surrogate("Ana", "Name")
        assert ana in female, ana
        dra = s.surrogate("Dra. María García de la Fuente", "Name")
        title, given, *surnames = dra.split(" ")
        assert title == "Dra." and given in female and len(surnames) == 2
        assert s.surrogate("García", "Name") == surnames[0]
        assert "garcía" not in dra.casefold() and "fuente" not in dra.casefold()


def _date(text: str) -> dt.date:
    m = re.fullmatch(r"(\d{1,2}) de (\w+) de (\d{4})", text)
    assert m, text
    return dt.date(int(m.group(3)), MONTHS.index(m.group(2)) + 1, int(m.group(1)))


def test_dates_keep_spanish_formats_and_shift_together(pack: LanguagePack) -> None:
    formats = [
        ("03/03/1946", r"\d\d/\d\d/\d{4}"),
        ("3/3/46", r"\d{1,2}/\d{1,2}/\d\d"),
        ("12 de marzo de 2019", rf"\d{{1,2}} de (?:{'|'.join(MONTHS)}) de \d{{4}}"),
        ("enero de 2006", rf"(?:{'|'.join(MONTHS)}) de \d{{4}}"),
        ("mayo del 2017", rf"(?:{'|'.join(MONTHS)}) del \d{{4}}"),
        ("Marzo", "|".join(m.capitalize() for m in MONTHS)),
        ("diciembre-99", rf"(?:{'|'.join(MONTHS)})-\d\d"),
        ("año 2000", r"año \d{4}"),
        ("12/03/2019 a las 14:30 h", r"\d\d/\d\d/\d{4} a las \d\d:\d\d h"),
    ]
    for seed in range(30):
        s = pack.surrogates("d", seed)
        for original, shape in formats:
            new = s.surrogate(original, "Date")
            assert re.fullmatch(shape, new) and new != original, (original, new)
        a = _date(s.surrogate("1 de marzo de 2019", "Date"))
        b = _date(s.surrogate("11 de marzo de 2019", "Date"))
        assert (b - a).days == 10


def test_ages_in_digits_and_words(pack: LanguagePack) -> None:
    for seed in range(30):
        s = pack.surrogates("d", seed)
        assert re.fullmatch(r"\d{1,3} años", s.surrogate("70 años", "Age"))
        assert re.fullmatch(r"[a-zéú ]+ meses", s.surrogate("tres meses", "Age"))


def test_addresses(pack: LanguagePack) -> None:
    all_countries = countries()
    for seed in range(30):
        s = pack.surrogates("d", seed)
        street = s.surrogate("Calle Miguel Benitez 90", "Address")
        assert re.fullmatch(r"Calle \S.* \d{1,3}", street) and "Benitez" not in street
        assert re.fullmatch(r"Avenida \S.* s/n", s.surrogate("Avenida de Elvas s/n", "Address"))
        assert re.fullmatch(r"\S.*, s/n", s.surrogate("Hermanos Falcó, s/n", "Address"))
        assert re.fullmatch(r"c/ \S.* \d+-\d+, \d+º dcha", s.surrogate("c/ del Abedul 5-7, 2º dcha", "Address"))
        assert re.fullmatch(r"Calle \S.*, \d+, Bajo [A-H]", s.surrogate("Calle Via Limite, 45, Bajo C", "Address"))
        postcode = s.surrogate("28016", "Address")
        assert re.fullmatch(r"\d{5}", postcode) and 1 <= int(postcode[:2]) <= 52
        assert s.surrogate("España", "Address").casefold() in all_countries
        assert s.surrogate("Madrid", "Address") not in ("Madrid", "")


def test_phones_keep_prefix_and_kind(pack: LanguagePack) -> None:
    for seed in range(50):
        s = pack.surrogates("d", seed)
        assert re.fullmatch(r"9\d\d \d{3} \d{3}", s.surrogate("967 597 100", "Phone_fax"))
        assert re.fullmatch(r"6\d{8}", s.surrogate("612345678", "Phone_fax"))
        assert re.fullmatch(r"\+34 9\d \d{3} \d\d \d\d", s.surrogate("+34 93 567 22 28", "Phone_fax"))


def test_sex_and_kinship_words_are_swapped_consistently(pack: LanguagePack) -> None:
    for seed in range(20):
        s = pack.surrogates("d", seed)
        assert (s.surrogate("H", "Other"), s.surrogate("Varón", "Other"), s.surrogate("mujer", "Other")) == (
            "M",
            "Mujer",
            "varón",
        )
        assert s.surrogate("madre", "Other") not in ("madre", "")
        assert s.surrogate("padres", "Other") in (
            "abuelos",
            "hermanos",
            "hijos",
            "tíos",
            "primos",
            "sobrinos",
            "familiares",
        )


def test_meddocan_labels_kept_as_they_are_get_surrogates(pack: LanguagePack) -> None:
    text = "Nombre: Ernesto. Apellidos: Rivera Bueno. NASS: 28 12345678 40. Sexo: H."
    labels = [
        ("Ernesto", "NOMBRE_SUJETO_ASISTENCIA"),
        ("Rivera Bueno", "NOMBRE_SUJETO_ASISTENCIA"),
        ("28 12345678 40", "ID_ASEGURAMIENTO"),
        ("H", "SEXO_SUJETO_ASISTENCIA"),
    ]
    spans = [Span(text.index(s), text.index(s) + len(s), label) for s, label in labels]
    out = pseudonymize(Document.create("m1", text, spans), pack, 0)
    assert [s.label for s in out.spans] == [label for _, label in labels]
    surfaces = [out.surface(s) for s in out.spans]
    assert "Ernesto" not in out.text and "Rivera" not in out.text and "28 12345678 40" not in out.text
    assert _nss_ok(surfaces[2]) and surfaces[3] == "M"
    with pytest.raises(SurrogateError, match="FOO"):
        pseudonymize(Document.create("m2", "Hola Ana.", [Span(5, 8, "FOO")]), pack, 0)
