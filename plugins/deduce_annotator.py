"""DEDUCE (Menger et al. 2018), the rule-based Dutch de-identifier, as the ``deduce`` annotator:
the rule-based baseline of the Libbi paper's Table 6. Its tags are mapped onto the canonical set."""

from __future__ import annotations

import re
from functools import cache
from typing import Any

from synthdeid import Span, SynthdeidError, hookimpl
from synthdeid.api import RegisterAnnotator

from . import deduce_cache

DEDUCE_TAGS: dict[str, str] = {
    "persoon": "Name",
    "patient": "Name",
    "voornaam": "Name",
    "achternaam": "Name",
    "pseudo_name": "Name",
    "locatie": "Address",
    "straat": "Address",
    "datum": "Date",
    "leeftijd": "Age",
    "telefoonnummer": "Phone_fax",
    "emailadres": "Email",
    "url": "URL_IP",
    "bsn": "SSN",
    "id": "ID",
    "ziekenhuis": "Hospital",
    "zorginstelling": "Care_Institute",
    "instelling": "Organization_Company",
}
# DEDUCE includes titles in person spans ("Dhr. Jan Jansen"); the canonical Name does not.
_TITLE = re.compile(
    r"^(?:(?:dhr|mw|mevr|mr|dr|drs|prof|ir|ing|zr|br)\.?|de heer|mevrouw|meneer|zuster|broeder)\s+", re.I
)


@cache
def _deduce(cache_path: str | None) -> Any:
    """One DEDUCE per process and cache folder (``deduce_cache.load``)."""
    return deduce_cache.load(cache_path)


class DeduceAnnotator:
    """Runs DEDUCE over a note and returns canonical spans."""

    languages: tuple[str, ...] = ("nl",)
    """DEDUCE's rules and word lists are Dutch (``synthdeid.api.LanguageSpecific``)."""

    def __init__(self, cache_path: str | None = None) -> None:
        self.cache_path = cache_path

    def annotate(self, text: str) -> list[Span]:
        doc = _deduce(self.cache_path).deidentify(text)
        spans: list[Span] = []
        for a in sorted(doc.annotations, key=lambda a: (a.start_char, -a.end_char)):
            label = DEDUCE_TAGS.get(a.tag)
            if label is None:
                raise SynthdeidError(
                    f"DEDUCE produced the tag {a.tag!r}, which synthdeid does not map; "
                    "add it to synthdeid.plugins.deduce_annotator.DEDUCE_TAGS"
                )
            start, end = a.start_char, a.end_char
            if label == "Name":
                m = _TITLE.match(text[start:end])
                if m and start + m.end() < end:
                    start += m.end()
            if spans and start < spans[-1].end:  # overlapping annotations: keep the first, longer one
                continue
            spans.append(Span(int(start), int(end), label))  # DEDUCE may give numpy integers
        return spans


@hookimpl
def register_annotators(register: RegisterAnnotator) -> None:
    register("deduce", lambda config: DeduceAnnotator(config.get("cache_path")))
