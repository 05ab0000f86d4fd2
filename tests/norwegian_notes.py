"""A small Norwegian-like corpus where Age dominates the multi-token PHI (issue #28 item 8): 42
short notes, each with an age ("tre år", "60 år": 24 distinct values, most in several notes, one
"92 år" and one "elleve år" in a single note) and a patient name found in that note only. Synthetic
notes reuse every age, as any generator of such notes does by chance, and copy ``leaked_names`` of
the real names verbatim."""

from __future__ import annotations

import itertools
import re

from synthdeid import Document, Span

_TOKEN = re.compile(r"\w+|[^\w\s]")

AGES = (
    ["tre år"] * 4
    + ["to år"] * 3
    + ["fire måneder"] * 3
    + ["elleve år"]
    + ["60 år"] * 4
    + ["45 år"] * 3
    + ["7 år"] * 3
    + ["82 år"] * 3
    + ["3 måneder"] * 3
    + [
        "15 år",
        "33 år",
        "71 år",
        "5 uker",
        "92 år",
        "18 år",
        "50 år",
        "66 år",
        "2 år",
        "9 måneder",
        "24 år",
        "88 år",
        "40 år",
        "1 år",
        "12 år",
    ]
)
NAMES = [
    f"{first} {last}"
    for first, last in itertools.product(
        ["Kari", "Ingrid", "Solveig", "Astrid", "Sigrid", "Liv", "Randi"],
        ["Nordmann", "Bakken", "Haugen", "Johansen", "Lunde", "Strand"],
    )
]
SYNTHETIC_NAMES = [
    f"{first} {last}"
    for first, last in itertools.product(["Ola", "Per", "Knut", "Lars"], ["Dahl", "Berg", "Moen", "Vik", "Lie", "Holm"])
]


def tokenize(text: str) -> list[tuple[int, int]]:
    return [m.span() for m in _TOKEN.finditer(text)]


REAL = "Pasienten er {age} gammel. Samtale med {name} om medisinene, sover godt."
SYNTHETIC = "Barnet, {age}, kom med {name} til kontroll. Spiser lite."


def _note(doc_id: str, age: str, name: str, template: str = REAL) -> Document:
    text = template.format(age=age, name=name)
    a, n = text.index(age), text.index(name)
    return Document.create(doc_id, text, [Span(a, a + len(age), "Age"), Span(n, n + len(name), "Name")])


def real_notes() -> list[Document]:
    return [_note(f"r{i}", age, name) for i, (age, name) in enumerate(zip(AGES, NAMES))]


def synthetic_notes(leaked_names: int = 1) -> list[Document]:
    """One note per distinct age; the first ``leaked_names`` notes name a real patient, the others
    a name no real note has."""
    ages = list(dict.fromkeys(AGES))
    names = NAMES[:leaked_names] + SYNTHETIC_NAMES
    return [_note(f"s{i}", age, names[i], SYNTHETIC) for i, age in enumerate(ages)]
