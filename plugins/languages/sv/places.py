"""Swedish surrogates for addresses, hospitals, care institutes, organisations and internal locations.

Streets are told from towns by their endings ("Storgatan 12", "Björkvägen"), postcodes are five
digits written "123 45".
"""

from __future__ import annotations

import re

from synthdeid.toolkit import PlaceSurrogates

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
)

_POSTCODE = re.compile(r"(?<![\d-])(?:[Ss]-)?[1-9]\d{2}\s?\d{2}(?!\d)")


class SwedishPlaces(PlaceSurrogates):
    """Swedish places: postcodes "123 45", streets by their endings, Swedish institutions."""

    postcode_re = _POSTCODE
    kept_additions = frozenset({"lgh", "tr", "nb", "bv", "uppg"})
    street_suffixes = STREET_SUFFIXES
    po_box_words = frozenset({"box", "postbox", "fack"})
    acronym_tails = ("S", "US", "SUS", "SÄS", "NÄL")
    location_keywords = LOCATION_KEYWORDS
    location_words = LOCATION_WORDS
    location_acronyms = LOCATION_ACRONYMS
    location_names = LOCATION_WORDS + CARE_NAMES
    hospital_templates = HOSPITAL_FORMS + ("{hospital_name}",)
    care_templates = ("{care_kind} {care_name}", "{care_kind} {city}")
    organization_templates = ("{company}", "{org_prefix} {city}", "{surname}s {org_form}")
    words = {
        "hospital_name": HOSPITAL_SAINTS,
        "care_kind": CARE_KINDS,
        "care_name": CARE_NAMES,
        "org_prefix": ORG_PREFIXES,
        "org_form": ORG_FORMS,
    }

    def postcode(self, original: str) -> str:
        """A Swedish postcode with the original's spacing ("123 45" or "12345")."""
        space = " " if " " in original else ""
        prefix = original[:2] if original[:2] in ("S-", "s-") else ""

        def draw() -> str:
            n = f"{self.rng.randint(100, 999)}{space}{self.rng.randint(0, 99):02d}"
            return prefix + n

        return self._mapped("postcode", re.sub(r"\s+", "", original), draw)
