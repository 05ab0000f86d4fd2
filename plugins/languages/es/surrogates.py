"""Spanish surrogate PHI for one document: the shared generators with Spanish word lists, Spanish
places, and identity numbers with valid check characters: DNI and NIE (control letter) and the
social security number (NSS/NASS, two control digits)."""

from __future__ import annotations

import random
import re

from faker import Faker

from synthdeid.toolkit import BaseSurrogates, shape_replace

from .data import surrogate_data
from .places import SpanishPlaces

DNI_LETTERS = "TRWAGMYFPDXBNJZSQVHLCKE"
_DNI = re.compile(r"^(?P<num>\d{8}|\d{2}\.\d{3}\.\d{3})(?P<sep>[\s-]?)(?P<letter>[A-Za-z])$")
_NIE = re.compile(r"^(?P<prefix>[XYZxyz])(?P<sep1>[\s-]?)(?P<num>\d{7})(?P<sep2>[\s-]?)(?P<letter>[A-Za-z])$")


class SpanishSurrogates(BaseSurrogates):
    """Surrogates for the PHI of one Spanish document (implements ``DocumentSurrogates``)."""

    language = "Spanish"
    code = "es"
    places_class = SpanishPlaces

    def __init__(self, doc_id: str, seed: int, faker: Faker) -> None:
        super().__init__(doc_id, seed, faker, surrogate_data())

    def ssn(self, original: str) -> str:
        """A DNI or NIE with a valid letter, or a social security number (12 digits with valid
        control digits; 10 digits: province and number), in the original's layout."""
        new = self._national_id(original)
        if new is not None:
            return new
        positions = [i for i, c in enumerate(original) if c.isdigit()]
        if len(positions) == 12 and len(positions) == sum(c.isalnum() for c in original):
            return _fill(original, positions, make_nss(self.rng))
        if len(positions) == 10 and len(positions) == sum(c.isalnum() for c in original):
            return _fill(original, positions, make_nss(self.rng)[:10])
        return shape_replace(original, self.rng)

    def identifier(self, original: str) -> str:
        """A DNI/NIE-shaped identifier gets a valid one; anything else keeps its shape."""
        new = self._national_id(original)
        return new if new is not None else shape_replace(original, self.rng)

    def _national_id(self, original: str) -> str | None:
        m = _DNI.match(original)
        if m:
            num = m.group("num")
            new = make_dni(self.rng)
            digits = new[:8] if "." not in num else f"{new[:2]}.{new[2:5]}.{new[5:8]}"
            return digits + m.group("sep") + _case(m.group("letter"), new[8])
        m = _NIE.match(original)
        if m:
            new = make_nie(self.rng)
            return (
                _case(m.group("prefix"), new[0])
                + m.group("sep1")
                + new[1:8]
                + m.group("sep2")
                + _case(m.group("letter"), new[8])
            )
        return None


def _case(like: str, letter: str) -> str:
    return letter.lower() if like.islower() else letter


def _fill(original: str, positions: list[int], digits: str) -> str:
    out = list(original)
    for i, d in zip(positions, digits):
        out[i] = d
    return "".join(out)


def dni_letter(number: int) -> str:
    """The control letter of a DNI number (also of a NIE, after X/Y/Z -> 0/1/2)."""
    return DNI_LETTERS[number % 23]


def make_dni(rng: random.Random) -> str:
    """A random DNI: 8 digits and the control letter ("12345678Z")."""
    n = rng.randint(1_000_000, 99_999_999)
    return f"{n:08d}{dni_letter(n)}"


def make_nie(rng: random.Random) -> str:
    """A random NIE: X, Y or Z, 7 digits and the control letter ("X1234567L")."""
    prefix = rng.randrange(3)
    n = rng.randint(0, 9_999_999)
    return f"{'XYZ'[prefix]}{n:07d}{dni_letter(prefix * 10_000_000 + n)}"


def is_valid_dni(text: str) -> bool:
    """Whether ``text`` is a DNI (8 digits, optional dots/space/dash, letter) or a NIE
    (X/Y/Z, 7 digits, letter) whose control letter is right."""
    s = re.sub(r"[\s.-]", "", text).upper()
    if re.fullmatch(r"[XYZ]\d{7}[A-Z]", s):
        s = str("XYZ".index(s[0])) + s[1:]
    if not re.fullmatch(r"\d{8}[A-Z]", s):
        return False
    return dni_letter(int(s[:8])) == s[8]


def nss_control(province: int, number: int) -> int:
    """The two control digits of a social security number (province + 8-digit number), mod 97;
    numbers below 10,000,000 count as ``number + province * 10,000,000``."""
    value = number + province * 10_000_000 if number < 10_000_000 else province * 100_000_000 + number
    return value % 97


def make_nss(rng: random.Random) -> str:
    """A random 12-digit social security number: province (01-52), number, control digits."""
    province = rng.randint(1, 52)
    number = rng.randint(10_000_000, 99_999_999)
    return f"{province:02d}{number:08d}{nss_control(province, number):02d}"


def is_valid_nss(text: str) -> bool:
    """Whether the digits of ``text`` form a 12-digit social security number with right control digits."""
    d = re.sub(r"\D", "", text)
    if len(d) != 12:
        return False
    return nss_control(int(d[:2]), int(d[2:10])) == int(d[10:])
