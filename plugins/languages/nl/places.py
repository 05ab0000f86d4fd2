"""Dutch surrogates for addresses, hospitals, care institutes, organisations and internal locations."""

from __future__ import annotations

import re
import string

from synthdeid.toolkit import PlaceSurrogates

from .data import (
    CARE_ACRONYMS,
    CARE_NAMES,
    CARE_TYPES,
    HOSPITAL_ACRONYM_TAILS,
    HOSPITAL_PREFIXES,
    HOSPITAL_REGIONS,
    HOSPITAL_SAINTS,
    HOSPITAL_SUFFIXES,
    LOCATION_ACRONYMS,
    LOCATION_KEYWORDS,
    LOCATION_WORDS,
    ORG_FORMS,
    ORG_PREFIXES,
    STREET_SUFFIXES,
)
from .institutions import DUTCH_INSTITUTIONS, ORG_NAMES

_POSTCODE = re.compile(r"(?<!\d)([1-9]\d{3})(\s*)([A-Za-z]{2})(?![A-Za-z])")


class DutchPlaces(PlaceSurrogates):
    """Dutch places: postcodes "1234 AB", streets told from towns by their endings, Dutch institutions."""

    postcode_re = _POSTCODE
    kept_additions = frozenset({"bis", "hs", "huis", "boven", "beneden", "rood", "zwart", "i", "ii", "iii"})
    street_suffixes = STREET_SUFFIXES
    po_box_words = frozenset({"postbus", "antwoordnummer"})
    part_words = ("te",)
    acronym_tails = HOSPITAL_ACRONYM_TAILS
    location_keywords = LOCATION_KEYWORDS
    location_words = LOCATION_WORDS
    location_acronyms = LOCATION_ACRONYMS
    location_names = LOCATION_WORDS + CARE_NAMES
    articles = ("De", "Het")
    hospital_templates = (
        "{hprefix} {region}",
        "{saint} {hsuffix}",
        "{umc} {city}",
        "{region} {hsuffix}",
        "Ziekenhuis {city}",
        "{hprefix} {saint}",
    )
    care_templates = (
        "{care_type} {care_name}",
        "{care_type} {care_name}",
        "{care_acronym} {region}",
        "{care_type} {city}",
        "Huisartsenpraktijk {surname_core}",
    )
    organization_templates = ("{company}", "{org_prefix} {city}", "{Surname} {org_form}")
    institutions = DUTCH_INSTITUTIONS  # type-aware: the templates above are no longer drawn
    words = {
        "hprefix": HOSPITAL_PREFIXES,
        "region": HOSPITAL_REGIONS,
        "saint": HOSPITAL_SAINTS,
        "hsuffix": HOSPITAL_SUFFIXES,
        "umc": ("UMC", "Universitair Medisch Centrum", "Medisch Centrum", "MC"),
        "care_type": CARE_TYPES,
        "care_name": CARE_NAMES,
        "care_acronym": CARE_ACRONYMS,
        "org_prefix": ORG_PREFIXES,
        "org_form": ORG_FORMS,
        "org_name": ORG_NAMES,
    }

    def postcode(self, original: str) -> str:
        """A Dutch postcode ("1234 AB") with the original's spacing and letter case."""
        m = _POSTCODE.fullmatch(original)
        space, letters = (m.group(2), m.group(3)) if m else (" ", "AB")

        def draw() -> str:
            while True:
                pair = "".join(self.rng.choice(string.ascii_uppercase) for _ in range(2))
                if pair not in ("SA", "SD", "SS"):
                    break
            pair = pair.lower() if letters.islower() else pair
            return f"{self.rng.randint(1000, 9999)}{space}{pair}"

        return self._mapped("postcode", re.sub(r"\s+", "", original), draw)
