"""English (US) surrogates for addresses, hospitals, care institutes, organisations and internal
locations.

US addresses put the house number before the street ("1420 Beacon Street, Apt. 4B"), end in
"City, ST 02114" (or ZIP+4 "02114-1234") and are often annotated part by part (i2b2: STREET, CITY,
STATE, ZIP, COUNTRY): each part is recognised on its own. A state stays a state in the original's
form (two-letter code or full name), a ZIP keeps 5 or 9 digits, a street keeps its type and
direction ("N. Main St." -> "N. Oak St."), towns are real US cities (not Faker's invented ones).
"""

from __future__ import annotations

import re

from synthdeid.toolkit import PlaceSurrogates, capitalize_like, match_case, shape_replace

from .data import (
    CARE_TEMPLATES,
    COUNTRY_CODES,
    DIRECTIONS,
    FAITH_NAMES,
    HOSPITAL_ACRONYM_TAILS,
    HOSPITAL_TEMPLATES,
    LOCATION_ACRONYMS,
    LOCATION_KEYWORDS,
    LOCATION_NAMES,
    LOCATION_WORDS,
    NEW_STREET_TYPES,
    ORGANIZATION_TEMPLATES,
    PLEASANT_NAMES,
    SAINTS,
    STATE_NAMES,
    STATES,
    STREET_NAMES,
    STREET_TYPES,
    US_CITIES,
    countries,
    country_names,
    zip_ranges,
)

# A ZIP or ZIP+4, not a house number ("12345 Main St"): no word follows it except a country.
_ZIP = re.compile(r"(?<![\w-])\d{5}(?:-\d{4})?(?![\w-])(?!\s+(?!USA\b|US\b|U\.S\.|United\b)[A-Za-z])")
_UNIT_WORD = r"(?:apt\.?|apartment|suite|ste\.?|unit|#|room|rm\.?|floor|fl\.?|bldg\.?|building|lot|space|trlr\.?)"
_UNIT = re.compile(rf"^(?P<kw>{_UNIT_WORD})(?P<sp>\s*#?\s*)(?P<num>[A-Za-z]?\d+[A-Za-z]?|[A-Za-z])$", re.IGNORECASE)
_PO_BOX = re.compile(r"^(?P<kw>p\.?\s?o\.?\s*box|post\s+office\s+box|box)(?P<sp>\s*#?\s*)(?P<num>\d+)$", re.IGNORECASE)
_STREET_NUMBER = re.compile(
    r"^(?P<num>\d{1,6})(?P<add>[A-Za-z](?![\w.])|-\d{1,4}[A-Za-z]?|\s1/2)?(?P<sp>\s+)"
    r"(?P<street>.*?[^\W\d_].*?)"
    rf"(?P<unit>,?\s+{_UNIT_WORD}\s*#?\s*(?:[A-Za-z]?\d+[A-Za-z]?|[A-Za-z]))?$",
    re.IGNORECASE,
)
_CITY_STATE = re.compile(r"^(?P<city>[^\d,]*[^\W\d_][^\d,]*?)(?P<sp>,?\s+)(?P<state>[A-Z]{2})$")
_STATE_CODES = frozenset(STATES)
_STATE_BY_NAME = {name.casefold(): code for code, name in STATES.items()}


def _state_code(text: str) -> str | None:
    """The USPS code written as ``text`` ("MA", "M.A." is not one), or None."""
    return text if text in _STATE_CODES else None


class EnglishPlaces(PlaceSurrogates):
    """US places: ZIP codes, number-first streets, states, real cities, US institutions."""

    postcode_re = _ZIP
    acronym_tails = HOSPITAL_ACRONYM_TAILS
    location_keywords = LOCATION_KEYWORDS
    location_words = LOCATION_WORDS
    location_acronyms = LOCATION_ACRONYMS
    location_names = LOCATION_NAMES
    articles = ("The",)
    hospital_templates = HOSPITAL_TEMPLATES
    care_templates = CARE_TEMPLATES
    organization_templates = ORGANIZATION_TEMPLATES
    city_names = US_CITIES
    words = {"saint": SAINTS, "faith": FAITH_NAMES, "pleasant": PLEASANT_NAMES, "state": tuple(STATES.values())}

    def postcode(self, original: str) -> str:
        """A ZIP from a real state's range, ZIP+4 ("02114-1234") when the original is one."""
        plus4 = "-" in original

        def draw() -> str:
            low, high = self.rng.choice(zip_ranges())
            new = f"{self.rng.randint(low, high):05d}"
            return f"{new}-{self.rng.randint(1, 9999):04d}" if plus4 else new

        return self._mapped("postcode", original, draw)

    def _address_part(self, core: str, later: bool, following: str) -> str:
        """One comma-separated part: state, "City ST", unit, P.O. box, number + street, street,
        country or city; anything else with digits keeps only its shape."""
        if _state_code(core) or core.casefold() in STATE_NAMES:
            return self.state(core)
        m = _UNIT.match(core)
        if m:
            return m.group("kw") + m.group("sp") + self._unit_number(m.group("num"))
        m = _PO_BOX.match(core)
        if m:
            return m.group("kw") + m.group("sp") + self._digits(m.group("num"))
        m = _STREET_NUMBER.match(core)
        if m:
            unit = m.group("unit") or ""
            if unit:
                unit = re.sub(
                    r"[A-Za-z]?\d+[A-Za-z]?$|(?<=\s)[A-Za-z]$|(?<=#)[A-Za-z]$",
                    lambda u: self._unit_number(u.group()),
                    unit,
                )
            number = self._number(m.group("num"), m.group("add") or "")
            return number + m.group("sp") + self.street(m.group("street")) + unit
        m = self._street_number.match(core)  # number after the street ("Beacon Street 1420")
        if m:
            return self.street(m.group("street")) + m.group("sp") + self._number(m.group("num"), m.group("add"))
        if any(c.isdigit() for c in core):
            return shape_replace(core, self.rng)
        m = _CITY_STATE.match(core)
        if m and _state_code(m.group("state")) and m.group("city").casefold() not in countries():
            return self.city(m.group("city")) + m.group("sp") + self.state(m.group("state"))
        if core.casefold() in countries():
            return self.country(core)
        last = core.split()[-1].casefold()
        if last in STREET_TYPES and len(core.split()) > 1:
            return self.street(core)
        return self.city(core)

    # -- parts --------------------------------------------------------------------------------

    def state(self, original: str) -> str:
        """Another state, as a USPS code for a code and by name for a name; "MA" and
        "Massachusetts" become the same state."""
        code = _state_code(original) or _STATE_BY_NAME[original.casefold()]
        new = self._mapped("state", code, lambda: self.rng.choice(list(STATES)))
        return new if _state_code(original) else match_case(original, STATES[new])

    def street(self, original: str) -> str:
        """A new street name; direction and street type kept ("N. Main St." -> "N. Oak St."),
        a type added when the original has none ("Broadway" -> "Cedar Avenue")."""
        tokens = original.split()
        i, j = 0, len(tokens)
        if j > 1 and tokens[0].casefold() in DIRECTIONS:
            i = 1
        if j - i > 1 and tokens[j - 1].casefold() in DIRECTIONS:
            j -= 1
        post = tokens[j:]
        if j - i > 1 and tokens[j - 1].casefold() in STREET_TYPES:
            j -= 1
        name = " ".join(tokens[i:j])
        new = self._mapped("street", name, lambda: self.rng.choice(STREET_NAMES))
        kind = tokens[j : len(tokens) - len(post)]
        if not kind:
            kind = [self._mapped("street_type", name, lambda: self.rng.choice(NEW_STREET_TYPES))]
        return " ".join([*tokens[:i], capitalize_like(name, new), *kind, *post])

    def country(self, original: str) -> str:
        """Another country: a code for a code ("USA" -> "UK"), a name for a name."""
        if original.upper() in COUNTRY_CODES or (original.isupper() and len(original.replace(".", "")) <= 3):
            codes = [c for c in COUNTRY_CODES if c.replace(".", "") != original.replace(".", "").upper()]
            return self._mapped("country", original, lambda: self.rng.choice(codes))
        return capitalize_like(original, self._mapped("country", original, lambda: self.rng.choice(country_names())))

    def _unit_number(self, original: str) -> str:
        """An apartment or suite number of the same shape ("4B" -> "7D", "12" -> "31")."""

        def draw() -> str:
            digits = re.sub(r"\d+", lambda m: self._digits(m.group()), original)
            return re.sub(r"[A-Za-z]", lambda c: self._letter(c.group()), digits)

        return self._mapped("unit", original, draw)

    def _digits(self, num: str) -> str:
        """Other digits, as many, no leading zero."""
        while True:
            new = "".join(str(self.rng.randint(1 if k == 0 else 0, 9)) for k in range(len(num)))
            if new != num:
                return new

    def _number(self, num: str, addition: str) -> str:
        """A house number of as many digits ("1420" -> "387" or "2215")."""
        new = self._digits(num) if len(num) > 1 else str(self.rng.randint(1, 9))
        if len(num) > 2 and self.rng.random() < 0.3:
            new = new[:-1]
        if addition.strip() == "1/2":
            return new + addition
        add = re.sub(r"\d", lambda _: str(self.rng.randint(1, 9)), addition)
        return new + re.sub(r"[A-Za-z]", lambda c: self._letter(c.group()), add)

    def _letter(self, letter: str) -> str:
        new = self.rng.choice([c for c in "ABCDEF" if c != letter.upper()])
        return new if letter.isupper() else new.lower()
