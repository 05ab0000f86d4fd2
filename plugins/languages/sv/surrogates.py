"""Swedish surrogate PHI for one document: the shared generators with Swedish word lists, Swedish
places, and personnummer (or samordningsnummer) with a valid Luhn check digit."""

from __future__ import annotations

import datetime as dt
import random
import re

from faker import Faker

from synthdeid.toolkit import BaseSurrogates, shape_replace

from .data import surrogate_data
from .places import SwedishPlaces

_PNR = re.compile(r"^(?P<century>\d{2})?(?P<date>\d{6})(?P<sep>[-+\s]?)(?P<serial>\d{4})$")


class SwedishSurrogates(BaseSurrogates):
    """Surrogates for the PHI of one Swedish document (implements ``DocumentSurrogates``)."""

    language = "Swedish"
    code = "sv"
    places_class = SwedishPlaces

    def __init__(self, doc_id: str, seed: int, faker: Faker) -> None:
        super().__init__(doc_id, seed, faker, surrogate_data())

    def ssn(self, original: str) -> str:
        """A personnummer with a valid check digit in the original's layout ("YYMMDD-NNNC",
        "YYYYMMDDNNNC", "+" for 100 years or older); a samordningsnummer (day + 60) stays one."""
        new = self._personnummer(original)
        return new if new is not None else shape_replace(original, self.rng)

    def identifier(self, original: str) -> str:
        """A personnummer-shaped identifier gets a valid one; anything else keeps its shape."""
        new = self._personnummer(original)
        return new if new is not None else shape_replace(original, self.rng)

    def _personnummer(self, original: str) -> str | None:
        m = _PNR.match(original)
        if m is None:
            return None
        samordning = int(m.group("date")[4:6]) > 60
        centenarian = m.group("sep") == "+"
        new = make_personnummer(self.rng, samordning=samordning, centenarian=centenarian)
        century, rest = new[:2], new[2:]
        return (century if m.group("century") else "") + rest[:6] + m.group("sep") + rest[6:]


def luhn_digit(digits: str) -> int:
    """The Luhn check digit of ``digits`` (weights 2, 1, 2, ... from the left, as for the nine
    digits YYMMDDNNN of a personnummer)."""
    total = 0
    for i, c in enumerate(digits):
        d = int(c) * (2 if i % 2 == 0 else 1)
        total += d - 9 if d > 9 else d
    return (10 - total % 10) % 10


def make_personnummer(rng: random.Random, samordning: bool = False, centenarian: bool = False) -> str:
    """A random 12-digit personnummer "YYYYMMDDNNNC" with a valid check digit; born 1925-2020
    (1905-1924 for ``centenarian``); a samordningsnummer has 60 added to the day."""
    start, end = (
        (dt.date(1905, 1, 1), dt.date(1924, 12, 31)) if centenarian else (dt.date(1925, 1, 1), dt.date(2020, 12, 31))
    )
    born = start + dt.timedelta(days=rng.randrange((end - start).days + 1))
    day = born.day + (60 if samordning else 0)
    nine = f"{born.year % 100:02d}{born.month:02d}{day:02d}{rng.randint(0, 999):03d}"
    return f"{born.year // 100}{nine}{luhn_digit(nine)}"


def is_valid_personnummer(text: str) -> bool:
    """Whether ``text`` is a personnummer or samordningsnummer (10 or 12 digits, optional "-",
    "+" or space before the last four) with a real birth date and a right check digit."""
    s = re.sub(r"[-+\s]", "", text)
    if not re.fullmatch(r"\d{10}|\d{12}", s):
        return False
    ten = s[-10:]
    month, day = int(ten[2:4]), int(ten[4:6])
    day = day - 60 if day > 60 else day
    years = [int(s[:4])] if len(s) == 12 else [1900 + int(ten[:2]), 2000 + int(ten[:2])]
    if not any(_is_date(y, month, day) for y in years):
        return False
    return luhn_digit(ten[:9]) == int(ten[9])


def _is_date(year: int, month: int, day: int) -> bool:
    try:
        dt.date(year, month, day)
    except ValueError:
        return False
    return True
