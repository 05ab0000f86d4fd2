"""German surrogate PHI for one document: synthdeid's shared generators with German word lists,
German places (postcodes "12345", streets by their endings) and the local rule of this pack: a
Steuer-ID (steuerliche Identifikationsnummer) with a valid ISO 7064 MOD 11,10 check digit."""

from __future__ import annotations

import random
import re
from collections import Counter

from faker import Faker

from synthdeid.toolkit import BaseSurrogates, PlaceSurrogates, shape_replace

from .data import (
    CARE_KINDS,
    CARE_NAMES,
    HOSPITAL_FORMS,
    HOSPITAL_SAINTS,
    LOCATION_ACRONYMS,
    LOCATION_KEYWORDS,
    LOCATION_WORDS,
    ORG_FORMS,
    ORG_PREFIXES,
    STREET_SUFFIXES,
    surrogate_data,
)


class GermanPlaces(PlaceSurrogates):
    """German places: five-digit postcodes, streets told from towns by their endings."""

    postcode_re = re.compile(r"(?<![\d.,])(?:D-)?\d{5}(?![\d.,]\d)")
    kept_additions = frozenset({"hh", "vh", "og", "eg", "dg"})
    street_suffixes = STREET_SUFFIXES
    po_box_words = frozenset({"postfach"})
    acronym_tails = ("K", "KH", "UK", "KL")
    location_keywords = LOCATION_KEYWORDS
    location_words = LOCATION_WORDS
    location_acronyms = LOCATION_ACRONYMS
    location_names = LOCATION_WORDS + CARE_NAMES
    hospital_templates = HOSPITAL_FORMS + ("{hospital_name}",)
    care_templates = ("{care_kind} {care_name}", "{care_kind} {care_name}", "Hausarztpraxis Dr. {surname}")
    organization_templates = ("{company}", "{org_prefix} {city}", "{surname} {org_form}")
    words = {"hospital_name": HOSPITAL_SAINTS, "care_kind": CARE_KINDS, "care_name": CARE_NAMES,
             "org_prefix": ORG_PREFIXES, "org_form": ORG_FORMS}

    def postcode(self, original: str) -> str:
        prefix = "D-" if original.startswith("D-") else ""
        return self._mapped("postcode", original, lambda: f"{prefix}{self.rng.randint(1067, 99998):05d}")


class GermanSurrogates(BaseSurrogates):
    """Surrogates for the PHI of one German document (implements ``DocumentSurrogates``)."""

    language = "German"
    code = "de"
    places_class = GermanPlaces

    def __init__(self, doc_id: str, seed: int, faker: Faker) -> None:
        super().__init__(doc_id, seed, faker, surrogate_data())

    def ssn(self, original: str) -> str:
        """An 11-digit number (the Steuer-ID) gets a valid Steuer-ID in the original's layout
        ("12 345 678 901"); other numbers keep only their shape."""
        positions = [i for i, c in enumerate(original) if c.isdigit()]
        if len(positions) != 11 or len(positions) != sum(c.isalnum() for c in original):
            return shape_replace(original, self.rng)
        out = list(original)
        for i, d in zip(positions, make_steuer_id(self.rng)):
            out[i] = d
        return "".join(out)


def steuer_id_check_digit(first10: str) -> int:
    """The check digit of a Steuer-ID (ISO 7064, MOD 11,10) over its first ten digits."""
    product = 10
    for c in first10:
        total = (int(c) + product) % 10 or 10
        product = (total * 2) % 11
    check = 11 - product
    return 0 if check == 10 else check


def make_steuer_id(rng: random.Random) -> str:
    """A random Steuer-ID: ten digits not starting with 0 in which exactly one digit occurs twice
    and the others at most once, then the check digit."""
    while True:
        digits = rng.sample("0123456789", 9)
        digits.append(rng.choice(digits))
        rng.shuffle(digits)
        if digits[0] != "0":
            first10 = "".join(digits)
            return first10 + str(steuer_id_check_digit(first10))


def is_valid_steuer_id(text: str) -> bool:
    """Whether the digits of ``text`` form a Steuer-ID: 11 digits, no leading 0, one digit of the
    first ten twice or three times (three never in a row) and the others at most once, and a
    right check digit."""
    d = re.sub(r"\D", "", text)
    if len(d) != 11 or d[0] == "0":
        return False
    counts = Counter(d[:10])
    repeated = [c for c, n in counts.items() if n > 1]
    if len(repeated) != 1 or counts[repeated[0]] > 3 or repeated[0] * 3 in d[:10]:
        return False
    return steuer_id_check_digit(d[:10]) == int(d[10])
