"""Spanish surrogates for addresses, hospitals, care institutes, organisations and internal locations.

Spanish addresses put the street type first ("Calle", "c/", "Avda.") and may separate the number
with a comma ("Paseo de la Castellana, 261", "Hermanos Falcó, s/n", "c/ del Abedul 5-7, 2º dcha");
postcodes are five digits whose first two name the province (01-52).
"""

from __future__ import annotations

import re

from synthdeid.toolkit import PlaceSurrogates, capitalize_like, match_case, shape_replace

from .data import (
    ADDRESS_KEEP,
    CARE_KINDS,
    CARE_NAMES,
    HOSPITAL_KINDS,
    LOCATION_ACRONYMS,
    LOCATION_KEYWORDS,
    LOCATION_WORDS,
    ORG_FORMS,
    ORG_PREFIXES,
    SAINTS,
    STREET_PREFIXES,
    countries,
    name_lists,
)
from .institutions import ORG_NAMES, SPANISH_INSTITUTIONS

_POSTCODE = re.compile(r"(?<![\d.,])(?:0[1-9]|[1-4]\d|5[0-2])\d{3}(?![\d.,]\d)")
_PREFIX = re.compile(
    r"^(?P<prefix>(?:"
    + "|".join(re.escape(p) for p in sorted(STREET_PREFIXES, key=len, reverse=True))
    + r"))(?P<sp>\s*)(?P<name>\S.*)$",
    re.IGNORECASE,
)
_NO_NUMBER = re.compile(r"^(?P<core>.*\S)(?P<sn>,?\s+s/n\.?)$", re.IGNORECASE)
_NUMBER_WORD = r"(?:n\s*\.?\s*º|nº|núm\.?|número|no\.)"
_STREET_NUMBER = re.compile(
    rf"^(?P<street>.*?[^\W\d_].*?)(?P<sp>,?\s+(?:{_NUMBER_WORD}\s*)?)(?P<num>\d{{1,4}})"
    r"(?P<add>(?:\s?[-/]\s?\d{1,4})?(?:\s?[A-Za-z](?![\w.]))?)(?P<tail>(?:\s+\S.*)?)$",
    re.IGNORECASE,
)
_NUMBER_ONLY = re.compile(
    rf"^(?P<pre>{_NUMBER_WORD}\s*)?(?P<num>\d{{1,4}})(?P<add>(?:\s?[-/]\s?\d{{1,4}})?)$", re.IGNORECASE
)
# floor and door: "2º dcha", "3.º C", "piso 4", "puerta 12"; a door alone: "Bajo C"
_DOOR_WORD = (
    r"(?:[A-Za-z](?![\w.])|" + "|".join(re.escape(w) for w in sorted(ADDRESS_KEEP, key=len, reverse=True)) + ")"
)
_FLOOR = re.compile(
    r"^(?P<pre>(?:piso|planta|puerta|pta\.?|portal|esc\.?|escalera|bloque)\s*)?(?P<num>\d{1,3})"
    rf"(?P<rest>\s*\.?\s*[ºª°]?(?:\s*{_DOOR_WORD})*)$",
    re.IGNORECASE,
)
_DOOR = re.compile(rf"^{_DOOR_WORD}(?:\s*{_DOOR_WORD})*$", re.IGNORECASE)


class SpanishPlaces(PlaceSurrogates):
    """Spanish places: 5-digit postcodes, street types before the name, Spanish institutions."""

    postcode_re = _POSTCODE
    acronym_tails = ("H", "HU", "HGU", "CHU", "HCU")
    location_keywords = LOCATION_KEYWORDS
    location_words = LOCATION_WORDS
    location_acronyms = LOCATION_ACRONYMS
    articles = ("El", "La", "Los", "Las")
    hospital_templates = (
        "Hospital {hospital_kind} de {city}",
        "Hospital Universitario {saint}",
        "Hospital {saint}",
        "Hospital General {saint}",
        "Complejo Hospitalario Universitario de {city}",
        "Complejo Hospitalario de {city}",
        "Hospital Universitario Doctor {surname}",
        "Clínica {saint}",
    )
    care_templates = ("{care_kind} {care_name}", "{care_kind} {city}")
    organization_templates = ("{company}", "{org_prefix} {city}", "{surname} {org_form}", "Fundación {surname}")
    institutions = SPANISH_INSTITUTIONS  # type-aware: the templates above are no longer drawn
    words = {
        "hospital_kind": HOSPITAL_KINDS,
        "saint": SAINTS,
        "care_kind": CARE_KINDS,
        "care_name": CARE_NAMES,
        "org_prefix": ORG_PREFIXES,
        "org_form": ORG_FORMS,
        "org_name": ORG_NAMES,
    }

    def postcode(self, original: str) -> str:
        """Another province and district (01000-52999)."""
        return self._mapped(
            "postcode", original, lambda: f"{self.rng.randint(1, 52):02d}{self.rng.randint(0, 999):03d}"
        )

    def _address_part(self, core: str, later: bool, following: str) -> str:
        if core.casefold() in ADDRESS_KEEP:
            return core
        m = _NO_NUMBER.match(core)
        if m:  # "Avenida de Elvas s/n"
            return self._address_part(m.group("core"), later, "s/n") + m.group("sn")
        m = _NUMBER_ONLY.match(core)
        if m:
            return (m.group("pre") or "") + self._number(m.group("num"), m.group("add"))
        m = _FLOOR.match(core)
        if m and (later or m.group("pre")):
            return (m.group("pre") or "") + self._digits(m.group("num")) + self._door(m.group("rest"))
        if later and _DOOR.match(core):  # "Bajo C"
            return self._door(core)
        m = _STREET_NUMBER.match(core)
        if m:
            return (
                self.street(m.group("street"))
                + m.group("sp")
                + self._number(m.group("num"), m.group("add"))
                + self._tail(m.group("tail"))
            )
        if any(c.isdigit() for c in core):
            return shape_replace(core, self.rng)
        if core.casefold() in countries():
            return self.country(core)
        numbered = following.casefold() in ADDRESS_KEEP or bool(re.match(rf"(?:{_NUMBER_WORD}\s*)?\d", following))
        if _PREFIX.match(core) or (numbered and not later):
            return self.street(core)
        return self.city(core)

    def street(self, original: str) -> str:
        """A new street name after the original's street type ("c/ del Abedul" -> "c/ Goya")."""
        m = _PREFIX.match(original)
        if m is None:
            return capitalize_like(original, self._mapped("street", original, self._street_name))
        name = self._mapped("street", m.group("name"), self._street_name)
        return m.group("prefix") + m.group("sp") + match_case(m.group("name"), name)

    def _street_name(self) -> str:
        male, female, surnames = name_lists()
        form = self.rng.randrange(4)
        if form == 0:
            return f"{self.rng.choice(male + female)} {self.rng.choice(surnames)}"
        if form == 1:
            return self.rng.choice(surnames)
        if form == 2:
            return f"de {self.fake().city()}"
        return f"del Doctor {self.rng.choice(surnames)}"

    def _digits(self, num: str) -> str:
        """Other digits, as many ("3" -> "7")."""
        while True:
            new = "".join(str(self.rng.randint(1 if k == 0 else 0, 9)) for k in range(len(num)))
            if new != num:
                return new

    def _door(self, rest: str) -> str:
        """Door letters replaced ("C" -> "A"), words such as "dcha" kept."""
        return re.sub(r"(?<![\w.])[A-Za-z](?![\w.])", lambda m: self._letter(m.group()), rest)

    def _letter(self, letter: str) -> str:
        new = self.rng.choice([c for c in "ABCDEFGH" if c != letter.upper()])
        return new if letter.isupper() else new.lower()

    def _tail(self, tail: str) -> str:
        """What follows a street number in the same part ("2º dcha", "bajo B")."""
        if not tail.strip():
            return tail
        lead = tail[: len(tail) - len(tail.lstrip())]
        m = _FLOOR.match(tail.strip())
        if m:
            return lead + (m.group("pre") or "") + self._digits(m.group("num")) + self._door(m.group("rest"))
        if tail.strip().casefold() in ADDRESS_KEEP:
            return tail
        return lead + shape_replace(tail.strip(), self.rng)
