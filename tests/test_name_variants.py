"""Variants of a found PHI string never stay beside its surrogate: case variants (``aafje``,
``JAN.JANSEN@GMAIL.COM``), a family or given name alone after the full name, a genitive ``-s``.
Each gets the surrogate of the string it varies (its part, in its case), with a tagger's or
DEDUCE's spans alike; particles and words that only hold a name stay."""

from __future__ import annotations

import re

import pytest
from tiny_draws import TinyDraws

from synthdeid import Document, Span
from synthdeid.phi.deidentify import deidentify
from synthdeid.phi.name_variants import find_variants
from synthdeid.phi.surrogate_key import SurrogateKey
from synthdeid.plugin_system.manager import registry

TEXT = (
    "Mw. Aafje Jansen kwam op controle. aafje belde later; Jansen ook. JANSEN is bekend. "
    "Jansens dochter en Aafjes zus kwamen mee. Mail: jan.jansen@gmail.com of JAN.JANSEN@GMAIL.COM. "
    "De Jansenweg is ver, de patiënt van de afdeling was rustig."
)


class Spans:
    """An annotator that finds what it is told to (as a tagger that saw the name once)."""

    name = "fixed"
    language = "nl"

    def __init__(self, found: list[tuple[str, str]]) -> None:
        self.found = found

    def annotate(self, text: str) -> list[Span]:
        spans = []
        for surface, label in self.found:
            start = text.index(surface)
            spans.append(Span(start, start + len(surface), label))
        return spans


def _found() -> list[tuple[str, str]]:
    return [("Aafje Jansen", "Name"), ("jan.jansen@gmail.com", "Email")]


def words(text: str) -> list[str]:
    return re.findall(r"\w+", text.casefold())


def _run(mode: str, annotator: Spans | None = None) -> Document:
    pack = registry("language").create("nl")
    [out] = deidentify(
        [Document.create("n", TEXT)], annotator or Spans(_found()), mode, pack, SurrogateKey(b"k" * 31 + b"!")
    )
    return out


def test_no_variant_of_a_found_name_stays_beside_its_surrogate() -> None:
    out = _run("surrogate")
    left = set(words(out.text)) & {"aafje", "jansen", "jansens", "aafjes"}
    assert not left, out.text
    assert "gmail" not in out.text.casefold() or "jan.jansen" not in out.text.casefold(), out.text
    assert "Jansenweg" in out.text  # a word that only holds the name is no occurrence of it
    assert "de patiënt van de afdeling" in out.text  # particles of a surrogate name are no names


def test_each_variant_gets_the_surrogate_of_its_full_form_in_its_case() -> None:
    out = _run("surrogate")
    full = out.surface(out.spans[0])
    given, family = full.split(" ")[0], " ".join(full.split(" ")[1:])
    assert out.text.startswith(f"Mw. {full} kwam op controle. {given.lower()} belde later; {family} ook. ")
    assert f" {family.upper()} is bekend. {family}s dochter en {given}s zus kwamen mee." in out.text
    emails = [out.surface(s) for s in out.spans if s.label == "Email"]
    assert len(emails) == 2 and emails[1] == emails[0].upper()


def test_redact_and_annotate_mark_the_variants_too() -> None:
    redacted = _run("redact")
    assert set(words(redacted.text)).isdisjoint({"aafje", "jansen", "jansens", "aafjes"}), redacted.text
    annotated = _run("annotate")
    surfaces = [annotated.surface(s) for s in annotated.spans]
    for variant in ("aafje", "Jansen", "JANSEN", "Jansens", "Aafjes", "JAN.JANSEN@GMAIL.COM"):
        assert variant in surfaces, surfaces


@pytest.mark.parametrize(
    ("text", "found", "untouched"),
    [
        ("Dhr. Bo de Wit belde. de wit jas, Bo ging.", "Bo de Wit", ["de"]),
        ("Mw. Li Jansen belde; Li kwam.", "Li Jansen", ["Li"]),
        ("Mw. Visser-Jansen belde; Visserij.", "Visser-Jansen", ["Visserij"]),
    ],
)
def test_short_parts_and_particles_are_not_names_alone(text: str, found: str, untouched: list[str]) -> None:
    start = text.index(found)
    doc, variants = find_variants(Document.create("n", text, [Span(start, start + len(found), "Name")]))
    marked = {doc.text[a:b] for a, b in variants}
    assert not marked & set(untouched), marked


def test_the_deduce_annotator_gets_the_variants_replaced() -> None:
    pytest.importorskip("deduce")
    from synthdeid.plugin_system.manager import registry as plugins

    deduce = plugins("annotator").create("deduce", {})
    out = _run("surrogate", deduce)
    assert not set(words(out.text)) & {"aafje", "jansen", "jansens", "aafjes"}, out.text


def test_no_surrogate_is_a_variant_of_another_name_of_the_note() -> None:
    """``Jansen`` alone is PHI of a note about ``Aafje Jansen``: another span's surrogate is never
    it (nor ``AAFJE``), any more than it is a whole found string."""
    import dataclasses

    from synthdeid.phi.name_variants import surrogate_with_variants

    nl = registry("language").create("nl")
    small = dataclasses.replace(
        nl, surrogates=lambda doc_id, seed: TinyDraws(seed, ["Jansen", "aafje", "Smit Mol", "Kok", "de Wit Bos", "Vos"])
    )
    text = "Mw. Aafje Jansen belde. Dhr. Bakker kwam; Jansen ook."
    doc, variants = find_variants(Document.create("n", text, [Span(4, 16, "Name"), Span(29, 35, "Name")]))
    for k in range(20):
        out = surrogate_with_variants(doc, variants, small, SurrogateKey(bytes([k + 1]) * 32))
        assert not set(words(out.text)) & {"aafje", "jansen", "bakker"}, out.text


@pytest.mark.parametrize("found", ["Meneer Vos", "Dhr. Vos", "Mevrouw de Vries", "Frau Müller", "Prof. Bakker"])
def test_a_title_is_no_part_of_the_name(found: str) -> None:
    """The tagger often takes the title into the span; the pack keeps it in the surrogate, so it
    is neither a name alone elsewhere nor forbidden in a surrogate (every draw would fail)."""
    from synthdeid.phi.name_variants import name_parts

    title = found.split(" ")[0].rstrip(".")
    assert title not in [word for _, word in name_parts(found, "Name")]
    text = f"{found} kwam op 3 januari. {title} belde later."
    doc, variants = find_variants(Document.create("n", text, [Span(0, len(found), "Name")]))
    assert title not in {doc.text[a:b] for a, b in variants}
    nl = registry("language").create("nl")
    [out] = deidentify([Document.create("n", text)], Spans([(found, "Name")]), "surrogate", nl, SurrogateKey(b"t" * 32))
    assert out.spans  # not rejected: the pack's surrogate keeps the title


def test_a_family_name_with_its_particle_is_replaced_whole() -> None:
    """``de Vries`` alone after ``Jan de Vries`` becomes the surrogate's family name, particle and
    all: never ``de`` + a surrogate (``de van Oosten``)."""
    text = "Dhr. Jan de Vries kwam. Later belde de Vries terug."
    found = "Jan de Vries"
    out = _one(text, [(found, "Name")])
    full = out.surface(out.spans[0])
    family = " ".join(full.split(" ")[1:])
    assert out.text.endswith(f"Later belde {family} terug."), out.text


def _one(text: str, found: list[tuple[str, str]]) -> Document:
    nl = registry("language").create("nl")
    [out] = deidentify([Document.create("n", text)], Spans(found), "surrogate", nl, SurrogateKey(b"p" * 32))
    return out
