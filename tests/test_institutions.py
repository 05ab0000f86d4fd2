"""Type-aware institution surrogates and the end of random-letter fallbacks: an institution keeps
its type words and gets a whole name of its kind, Other and URL paths get words, not letters."""

from __future__ import annotations

import re

import pytest

from synthdeid import Document, Span
from synthdeid.phi.head_words import HeadWords
from synthdeid.phi.pseudonymize import pseudonymize
from synthdeid.plugins import registry
from synthdeid.plugins.languages.es import institutions as es_inst
from synthdeid.plugins.languages.es.data import CARE_NAMES as ES_CARE_NAMES
from synthdeid.plugins.languages.es.data import SAINTS
from synthdeid.plugins.languages.nl import institutions as nl_inst
from synthdeid.plugins.languages.nl.data import CARE_NAMES, HOSPITAL_REGIONS, HOSPITAL_SAINTS, name_lists

SEEDS = range(30)


def _draws(code: str, original: str, label: str, **kw: object) -> list[str]:
    pack = registry("language").create(code)
    return [pack.surrogates(f"doc{seed}", seed).surrogate(original, label, **kw) for seed in SEEDS]


@pytest.mark.parametrize(
    ("original", "label", "kept"),
    [
        ("Apotheek Manderveen", "Organization_Company", "Apotheek "),
        ("Gemeente Vuren", "Organization_Company", "Gemeente "),
        ("Zorgcentrum Ruitersbos", "Care_Institute", "Zorgcentrum "),
        ("Deventer Ziekenhuis", "Hospital", " Ziekenhuis"),
    ],
)
def test_dutch_type_words_stay_and_the_name_is_redrawn(original: str, label: str, kept: str) -> None:
    name = original.replace(kept.strip(), "").strip()
    for new in _draws("nl", original, label):
        assert kept in new or new.endswith(kept) or new.startswith(kept), new
        assert name.casefold() not in new.casefold()
        assert new.count(kept.strip()) == 1  # never two kinds stacked ("Apotheek Autobedrijf ...")


def test_a_municipality_gets_a_town_and_a_brand_stays_a_brand() -> None:
    towns = {n.replace("Gemeente ", "") for n in _draws("nl", "Gemeente Vuren", "Organization_Company")}
    assert towns and not towns & set(nl_inst.ORG_NAMES)  # towns, not brand names
    brands = set(_draws("nl", "Efteling", "Organization_Company"))
    assert brands <= set(nl_inst.ORG_NAMES)


def test_no_surname_in_an_organisation_unless_the_original_has_one() -> None:
    surnames = {s.casefold() for s in name_lists()[2]}
    for original in ("Efteling", "Apotheek Manderveen", "Zilveren Kruis", "Belastingdienst"):
        for new in _draws("nl", original, "Organization_Company"):
            assert not {w.casefold() for w in new.split()} & surnames - {"de", "van"}, (original, new)
    for new in _draws("nl", "Timmerbedrijf Jansen", "Organization_Company"):
        assert new.startswith("Timmerbedrijf ") and new[len("Timmerbedrijf ") :].casefold() in surnames


def test_acronyms_become_acronyms_of_the_kind_of_the_same_length() -> None:
    for new in _draws("nl", "ZGT", "Hospital"):
        assert new in nl_inst.HOSPITAL_ACRONYMS and len(new) == 3
    for new in _draws("es", "HULP", "Hospital"):
        assert new in es_inst.HOSPITAL_ACRONYMS and len(new) == 4
    assert set(_draws("es", "MSD", "Organization_Company")) <= set(es_inst.ORG_ACRONYMS)


def test_spanish_hospitals_keep_their_form() -> None:
    for new in _draws("es", "Hospital Universitario Virgen del Rocío", "Hospital"):
        assert new.startswith("Hospital Universitario ") and new[len("Hospital Universitario ") :] in SAINTS
    for new in _draws("es", "Complejo Hospitalario de Jaén", "Hospital"):
        assert re.fullmatch(r"Complejo Hospitalario de [A-ZÁÉÍÓÚ][\w .'-]+", new) and "Jaén" not in new
    for new in _draws("es", "Centro de Salud de Chantrea", "Care_Institute"):
        assert new.startswith("Centro de Salud ") and "Chantrea" not in new
    for new in _draws("es", "Centro de Salud Talavera", "Care_Institute"):
        rest = new[len("Centro de Salud ") :]
        assert rest in ES_CARE_NAMES or rest.startswith("de ") or rest[:1].isupper()


def test_the_studys_head_words_are_kept_but_a_saints_first_word_is_not_taken_for_one() -> None:
    # MEDDOCAN's head words hold "virgen" and "del": "Virgen del Rocío" is still a saint's name
    keep = {"hospital", "universitario", "virgen", "del"}
    for new in _draws("es", "Hospital Universitario Virgen del Rocío", "Hospital", keep=keep):
        assert new[len("Hospital Universitario ") :] in SAINTS
    for new in _draws("nl", "Service Apotheek Vijverhof", "Organization_Company", keep={"service", "apotheek"}):
        assert new.startswith("Service Apotheek ") and "Vijverhof" not in new


def test_pseudonymization_hands_the_whole_span_to_a_type_aware_pack() -> None:
    pack = registry("language").create("nl")
    heads = HeadWords({"Care_Institute": frozenset({"dagbesteding", "de"})})
    text = "Zij gaat naar Dagbesteding De Ruwaard."
    doc = Document.create("n1", text, [Span(14, 37, "Care_Institute")])
    for seed in SEEDS:
        new = pseudonymize(doc, pack, seed, heads=heads)
        span = new.text[new.spans[0].start : new.spans[0].end]
        assert span.startswith("Dagbesteding ") and "Ruwaard" not in span
        assert span.count("Dagbesteding") == 1 and not re.search(r"\b(?:Verpleeghuis|Zorgcentrum)\b", span)
        assert span[len("Dagbesteding ") :] in CARE_NAMES or span[len("Dagbesteding ") :][:1].isupper()


def test_hospital_names_without_type_words_are_whole_names_of_the_kind() -> None:
    whole = set(HOSPITAL_REGIONS) | set(HOSPITAL_SAINTS)
    assert set(_draws("nl", "Dijklander", "Hospital")) <= whole


def test_other_and_url_paths_get_words_not_random_letters() -> None:
    given = {n.casefold() for n in name_lists()[0] + name_lists()[1]}
    for new in _draws("nl", "Twee Gebroeders", "Other"):
        assert all(w.casefold() in given for w in new.split()), new
    pack = registry("language").create("nl")
    path_words = set(pack.surrogates("d", 0).data.path_words)
    for new in _draws("nl", "https://www.zorgaccent.nl/mijn-dossier/123", "URL_IP"):
        path = new.split(".nl/", 1)[1]
        assert set(re.findall(r"[a-z]+", path)) <= path_words and re.search(r"/\d{3}$", path), new
    for new in _draws("es", "diez años", "Other"):
        assert not re.search(r"[bcdfghjklmnpqrstvwxz]{4}", new), new  # a swap word, not "swia jena"


def _demo_literals() -> set[str]:
    import ast
    from pathlib import Path

    out: set[str] = set()
    for path in (Path(__file__).resolve().parents[1] / "core" / "sources" / "demo").glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Constant) and isinstance(node.value, str):
                out.add(" ".join(node.value.split()).casefold())
    return out


def test_no_pack_imports_the_demo_source_nor_copies_its_names() -> None:
    from pathlib import Path

    root = Path(__file__).resolve().parents[1]
    for path in [*(root / "plugins").rglob("*.py"), *(root / "examples").rglob("*.py")]:
        text = path.read_text(encoding="utf-8")
        assert "sources.demo" not in text and "sources/demo" not in text, path
    names = {
        *nl_inst.ORG_NAMES,
        *nl_inst.ORG_ACRONYMS,
        *nl_inst.HOSPITAL_ACRONYMS,
        *es_inst.ORG_NAMES,
        *es_inst.ORG_ACRONYMS,
        *es_inst.HOSPITAL_ACRONYMS,
    }
    assert not {n.casefold() for n in names} & _demo_literals()


def test_other_keeps_only_function_words_of_the_original() -> None:
    for new in _draws("es", "finca los robles de villanueva", "Other"):
        words = new.split()
        assert "robles" not in words and "villanueva" not in words and "finca" not in words, new
        assert words[1:2] == ["los"] and words[3:4] == ["de"]
