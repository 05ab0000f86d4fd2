"""Pieces shared by the note types: picking templates, headers, sign-offs and lists."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TypeVar

from synthdeid.sources.demo.builder import Slots, TextBuilder

T = TypeVar("T")

SIGNOFFS = (
    "\n{sig}",
    " {sig}",
    " /{sig}",
    "\n{sig}",
    " ({sig})",
    " /{sig}",
    "\n/{sig}",
    " {sig}/{ini}",
    "\n{sig} i.o.m. {ini}",
    "\ngr. {sig}",
    " [gr|groet] {sig}",
    "\n{sig}, {role}",
    "\nparaaf: {sig}",
    " - {sig}",
    "\n{sig}",
    "\ngr. {sig}",
    " gr {sig}",
    "\nGroet, {authorfirst}",
    "\nGr. {authorfirst}",
    "\n{author}, {role}",
    " ({sig})",
    "\n- {sig}",
    "\n{authorfirst} ({role})",
    "\nMvg {authorfirst}",
    " [groetjes|gr.] {authorfirst}",
    "\n{sig} [{role}|]",
    " - {sig}",
    "\n[Groet|Groeten|Gr], {sig}",
)
SHIFTS = (
    "Ochtenddienst",
    "Dagdienst",
    "Middagdienst",
    "Avonddienst",
    "Nachtdienst",
    "Late dienst",
    "Vroege dienst",
    "Weekenddienst",
)
HEADERS = (
    "Rapportage {today}",
    "[{shift}|{shift} {today}|{today} {shift}]",
    "{today} {time}",
    "{shift}:",
    "Rapportage [{shift}|dagdienst|avonddienst]",
    "{today}",
    "[Observatie|Rapportage] {today:wd_dm}",
    "[Verslag|Notitie] {today}",
    "{shift} [{today:dm}|]",
    "Dagrapportage [{today}|]",
)


def pick(rng: random.Random, pool: Sequence[T], k: int) -> list[T]:
    """``k`` different templates from ``pool`` (fewer if the pool is smaller)."""
    return rng.sample(list(pool), min(k, len(pool)))


def sentences(b: TextBuilder, s: Slots, templates: Sequence[str], sep: str = " ") -> None:
    """Render templates one after the other, separated by ``sep`` (a space or newline);
    a sentence left without final punctuation usually gets a full stop."""
    for i, t in enumerate(templates):
        if i:
            if sep == "\n":
                b.nl()
            else:
                b.space()
        b.render(t, s)
        end = b._tail.rstrip(" ")[-1:]
        if end and end not in ".!?:;\"')\n" and b.rng.random() < 0.85:
            b.text(".")


def header(b: TextBuilder, s: Slots, rng: random.Random, p: float = 0.35) -> None:
    """An optional header line (shift, date) above a note."""
    if rng.random() < p:
        b.render(rng.choice(HEADERS), {**s, "shift": rng.choice(SHIFTS)})
        b.nl(rng.choice((1, 1, 2)))


def signoff(b: TextBuilder, s: Slots, rng: random.Random, p: float = 0.75) -> None:
    """An optional signature of the author (initials or name)."""
    if b.signed and rng.random() < p:
        t = rng.choice(SIGNOFFS)
        at_line_start = b.empty or b._tail.endswith("\n")
        if t.startswith("\n"):
            if not at_line_start:
                b.nl()
            t = t[1:]
        elif at_line_start:
            t = t.lstrip(" ")
        b.render(t, s)


def bullets(b: TextBuilder, s: Slots, rng: random.Random, items: Sequence[str], style: str | None = None) -> None:
    """Items as a list: ``- x``, ``* x``, ``1. x``, ``1) x`` or ``• x``, one per line."""
    style = style or rng.choice(("-", "-", "*", "1.", "1)", "•", "- "))
    for i, t in enumerate(items, 1):
        mark = f"{i}." if style == "1." else f"{i})" if style == "1)" else style.strip()
        b.text(mark + " ", fixed=True)
        b.render(t, s)
        b.nl()


def field(b: TextBuilder, s: Slots, label: str, value: str) -> None:
    """A form line ``Label: value`` (the label gets no typos)."""
    b.text(label + ": ", fixed=True)
    b.render(value, s)
    b.nl()
