"""English (US) surrogate PHI for one document: the shared generators with US word lists and
places, and US rules for names, dates, ages, phone numbers and social security numbers.

- Names: a lone name after a title is a surname ("Dr. Thomas"); suffixes and degrees are kept
  ("John Smith Jr.", "Smith, John, M.D."); first names are recognised from large lists, so an
  uncommon first name still gets a first name of the same sex.
- Dates: month-first numeric dates ("05/03/2067", "5/3/67", "5/3"), "May 3, 2067", "3 May 2067",
  ISO, month-year, ordinals ("May 3rd") and 12-hour times keep their format; seasons and holidays
  are swapped within their group.
- Ages: near the original, and on the same side of HIPAA's 89-year line: an age over 89 (an
  identifier under HIPAA Safe Harbor) becomes another age of 90-105, an age up to 89 stays at most
  89, in the original's wording ("67-year-old", "67 yo", "67 y/o", "sixty-seven").
- Phones: valid NANP numbers in the original's layout, "+1"/"1-" and extensions kept: a real US
  area code, an exchange 200-999 that is not N11, 555 or a premium/test code, any line number.
  (Not the fictional 555-01xx range: a de-identification model trained on it would learn that
  phone numbers contain 555.)
- SSNs: area 001-899 except 666, group 01-99, serial 0001-9999, in the original's layout.
"""

from __future__ import annotations

import random
import re

from faker import Faker

from synthdeid.toolkit import BaseSurrogates, NameSurrogates, capitalize_like, is_all_caps, shape_replace

from .data import HOLIDAYS, MONTHS, NAME_SUFFIXES, NAME_SUFFIXES_AFTER_COMMA, SEASONS, surrogate_data
from .places import EnglishPlaces

# Real geographic area codes from every US region (none is N11 or a toll-free or premium code).
AREA_CODES: tuple[str, ...] = (
    "617",
    "781",
    "508",
    "978",
    "413",
    "774",
    "857",
    "212",
    "718",
    "646",
    "347",
    "917",
    "516",
    "631",
    "914",
    "518",
    "585",
    "716",
    "315",
    "201",
    "973",
    "908",
    "732",
    "609",
    "215",
    "267",
    "412",
    "610",
    "717",
    "814",
    "202",
    "301",
    "410",
    "443",
    "703",
    "571",
    "804",
    "757",
    "540",
    "919",
    "704",
    "336",
    "828",
    "843",
    "803",
    "864",
    "404",
    "770",
    "678",
    "912",
    "706",
    "305",
    "786",
    "813",
    "407",
    "904",
    "850",
    "352",
    "954",
    "561",
    "205",
    "256",
    "334",
    "251",
    "615",
    "901",
    "865",
    "423",
    "502",
    "859",
    "513",
    "216",
    "614",
    "419",
    "330",
    "937",
    "313",
    "248",
    "734",
    "616",
    "517",
    "810",
    "269",
    "317",
    "260",
    "812",
    "574",
    "312",
    "773",
    "847",
    "630",
    "708",
    "309",
    "815",
    "217",
    "414",
    "608",
    "920",
    "612",
    "651",
    "218",
    "507",
    "515",
    "319",
    "563",
    "402",
    "316",
    "785",
    "816",
    "314",
    "417",
    "918",
    "405",
    "501",
    "479",
    "504",
    "225",
    "318",
    "337",
    "601",
    "228",
    "713",
    "281",
    "832",
    "214",
    "972",
    "469",
    "817",
    "512",
    "210",
    "915",
    "806",
    "361",
    "254",
    "303",
    "720",
    "719",
    "970",
    "505",
    "575",
    "602",
    "480",
    "520",
    "928",
    "801",
    "385",
    "435",
    "208",
    "406",
    "307",
    "702",
    "775",
    "916",
    "559",
    "510",
    "619",
    "858",
    "408",
    "650",
    "415",
    "213",
    "310",
    "323",
    "818",
    "626",
    "562",
    "661",
    "805",
    "909",
    "951",
    "209",
    "707",
    "206",
    "253",
    "425",
    "509",
    "360",
    "503",
    "541",
    "907",
    "808",
    "701",
    "605",
    "304",
    "860",
    "203",
    "401",
    "603",
    "207",
    "802",
    "302",
)
_BAD_EXCHANGES = frozenset({555, 950, 958, 959, 976})
_EXTENSION = re.compile(r"(?P<sep>\s*(?:[xX]|[Ee][Xx][Tt]\.?|[Ee]xtension|#)\s*)\d{1,6}\s*$")
_SSN_SHAPE = re.compile(r"^\d{3}([-\s.]?)\d{2}\1\d{4}$")
_INVALID_SSNS = frozenset({"078051120", "219099999", "123456789"})  # on sample cards or used as examples


def _alternation(words: tuple[str, ...]) -> str:
    return "|".join(re.escape(w) for w in sorted({*words, *(w.upper() for w in words)}, key=len, reverse=True))


_SUFFIX = re.compile(
    rf"(?:(?:,\s*|\s+)(?:{_alternation(NAME_SUFFIXES)})(?![\w.-])"
    rf"|,\s*(?:{_alternation(NAME_SUFFIXES_AFTER_COMMA)})(?![\w.-]))+$"
)
_ORDINAL = re.compile(r"(?<!\d)(\d+)(st|nd|rd|th)\b", re.IGNORECASE)
_CLOCK_12 = re.compile(r"(?<!\d)(\d{1,2})(?=[:.]\d{2}\s*[AaPp]\.?[Mm]\b)")
_DECADE = re.compile(r"(\d+)(?=['’]?s\b)")
_DATE_GROUPS = ("y", "m", "d", "mon", "wd", "hh")
MAX_AGE = 105
HIPAA_AGE = 89
"""Ages over this are identifiers under HIPAA Safe Harbor (reported as "90 or older")."""


class EnglishNames(NameSurrogates):
    """Names with English titles ("Dr. Thomas": a surname) and suffixes ("Jr.", "M.D.")."""

    def name(self, original: str) -> str:
        """As the shared ``name``, with "Jr.", "III", "M.D." etc. kept after the name."""
        m = _SUFFIX.search(original)
        if m and any(c.isalpha() for c in original[: m.start()]):
            return super().name(original[: m.start()]) + m.group()
        return super().name(original)

    def _parse(self, tokens: list[str]) -> tuple[list[str], list[str], list[str]]:
        titles, given, surnames = super()._parse(tokens)
        if titles and not surnames and len(given) == 1 and not self._is_initials(given[0], is_all_caps(given[0])):
            return titles, [], given  # "Dr. Thomas", "Mrs. Kelly": a surname
        return titles, given, surnames


class EnglishSurrogates(BaseSurrogates):
    """Surrogates for the PHI of one English (US) document (implements ``DocumentSurrogates``)."""

    language = "English"
    code = "en"
    places_class = EnglishPlaces

    def __init__(self, doc_id: str, seed: int, faker: Faker) -> None:
        data = surrogate_data()
        super().__init__(doc_id, seed, faker, data)
        # English rules on top of the shared generators (building the names draws nothing)
        self.names = EnglishNames(self.rng, data.names)
        self._generators.update(Name=self.names.name, Initials=self.names.initials, Date=self.date, Age=self.age)

    # -- dates and ages ------------------------------------------------------------------------

    def date(self, original: str) -> str:
        """A shifted date in the original's format (US month-first readings first)."""
        low = original.casefold()
        for group in (SEASONS, HOLIDAYS):
            if low in (w.casefold() for w in group):
                return capitalize_like(original, self.rng.choice([w for w in group if w.casefold() != low]))
        if not any(c.isdigit() for c in original) and not self._parses_as_date(original):
            return f"{self.rng.choice(MONTHS)} {self.rng.randint(1, 28)}"
        new = self.dates.date(original)
        if _ORDINAL.search(original):
            new = _ORDINAL.sub(lambda m: m.group(1) + _case_like(m.group(2), _ordinal_suffix(int(m.group(1)))), new)
        clock = _CLOCK_12.search(original)
        if clock:
            padded = clock.group(1).startswith("0") and len(clock.group(1)) == 2
            new = _CLOCK_12.sub(lambda m: _twelve_hour(m.group(1), padded), new)
        return new

    def _parses_as_date(self, text: str) -> bool:
        for pattern in self.dates.locale.patterns:
            m = pattern.fullmatch(text)
            if m and any(m.groupdict().get(g) for g in _DATE_GROUPS):
                return True
        return False

    def age(self, original: str) -> str:
        """A nearby age on the same side of 89, in the original's wording."""
        if any(c.isdigit() for c in original):
            decade = _DECADE.search(original)
            if decade and int(decade.group(1)) % 10 == 0:  # "in her 80s", "90's"
                n = int(decade.group(1))
                choices = [90, 100] if n > HIPAA_AGE else [d for d in range(10, 90, 10) if abs(d - n) <= 20]
                new = self.rng.choice([d for d in choices if d != n] or [n + 10])
                return original[: decade.start()] + str(new) + original[decade.end() :]
            return re.sub(r"\d+", lambda r: str(self._near_age(int(r.group()))), original)
        locale = self.data.dates
        rx = locale.number_word_re
        m = rx.search(original) if rx is not None else None
        if m:
            words = locale.number_words
            word = words[self._near_age(locale.word_to_number[m.group().lower()], top=len(words) - 1)]
            return original[: m.start()] + capitalize_like(m.group(), word) + original[m.end() :]
        return str(self.rng.randint(20, HIPAA_AGE))

    def _near_age(self, n: int, top: int = MAX_AGE) -> int:
        """Another age near ``n``: over 89 stays over 89 (90..``top``), up to 89 stays up to 89."""
        if n > HIPAA_AGE:
            return self.rng.choice([k for k in range(HIPAA_AGE + 1, top + 1) if k != n])
        spread = max(2, round(n * 0.08))
        return self.rng.choice([n + k for k in range(-spread, spread + 1) if k and 1 <= n + k <= HIPAA_AGE])

    # -- numbers -------------------------------------------------------------------------------

    def phone(self, original: str) -> str:
        """A valid NANP number in the original's layout; "+1", "1-" and the extension's words kept
        (a number with another country code keeps its first two digits and gets new ones)."""
        ext = _EXTENSION.search(original)
        cut = ext.start() if ext else len(original)
        main = [i for i in range(cut) if original[i].isdigit()]
        tail = [i for i in range(cut, len(original)) if original[i].isdigit()]
        digits = "".join(original[i] for i in main)
        if len(digits) == 11 and digits[0] == "1":  # +1 / 1- before a US number
            lead = 1
        elif original.lstrip().startswith("+") and len(digits) > 8:  # another country: its code kept
            lead = 2
        else:
            lead = 0
        national = main[lead:]
        if len(national) == 10:
            new = self.rng.choice(AREA_CODES) + self._exchange() + f"{self.rng.randint(0, 9999):04d}"
        elif len(national) == 7:
            new = self._exchange() + f"{self.rng.randint(0, 9999):04d}"
        else:  # an internal extension ("5-1234") or something else: new digits, no leading zero
            new = "".join(str(self.rng.randint(1 if k == 0 else 0, 9)) for k in range(len(national)))
        new += "".join(str(self.rng.randint(1 if k == 0 else 0, 9)) for k in range(len(tail)))
        out = list(original)
        for i, d in zip(national + tail, new):
            out[i] = d
        return "".join(out)

    def _exchange(self) -> str:
        """A central-office code NXX: 200-999, not N11, not 555 or 950/958/959/976."""
        while True:
            n = self.rng.randint(200, 999)
            if n % 100 != 11 and n not in _BAD_EXCHANGES:
                return str(n)

    def ssn(self, original: str) -> str:
        """A valid SSN in the original's layout ("123-45-6789", "123456789"); the last four alone
        get a new serial; anything else keeps its shape."""
        positions = [i for i, c in enumerate(original) if c.isdigit()]
        if len(positions) == 9:
            return _fill(original, positions, make_ssn(self.rng))
        if len(positions) == 4:
            return _fill(original, positions, f"{self.rng.randint(1, 9999):04d}")
        return shape_replace(original, self.rng)

    def identifier(self, original: str) -> str:
        """An SSN-shaped identifier ("123-45-6789") gets a valid SSN; anything else its shape."""
        if _SSN_SHAPE.match(original):
            return self.ssn(original)
        return shape_replace(original, self.rng)


def make_ssn(rng: random.Random) -> str:
    """A random valid SSN as nine digits: area 001-899 except 666, group 01-99, serial 0001-9999."""
    while True:
        area = rng.randint(1, 899)
        if area == 666:
            continue
        ssn = f"{area:03d}{rng.randint(1, 99):02d}{rng.randint(1, 9999):04d}"
        if ssn not in _INVALID_SSNS:
            return ssn


def is_valid_ssn(text: str) -> bool:
    """Whether ``text`` is nine digits (optionally "123-45-6789") forming a valid SSN: area
    001-899 except 666, group 01-99, serial 0001-9999."""
    if not re.fullmatch(r"\d{9}|\d{3}-\d{2}-\d{4}|\d{3} \d{2} \d{4}", text):
        return False
    d = re.sub(r"\D", "", text)
    area, group, serial = int(d[:3]), int(d[3:5]), int(d[5:])
    return 1 <= area <= 899 and area != 666 and group >= 1 and serial >= 1


def _fill(original: str, positions: list[int], digits: str) -> str:
    out = list(original)
    for i, d in zip(positions, digits):
        out[i] = d
    return "".join(out)


def _ordinal_suffix(n: int) -> str:
    if 10 <= n % 100 <= 20:
        return "th"
    return {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")


def _case_like(original: str, new: str) -> str:
    return new.upper() if original.isupper() else new


def _twelve_hour(hh: str, padded: bool) -> str:
    """An hour of a 12-hour clock ("17" -> "5", "0" -> "12"), zero-padded ("05") if ``padded``."""
    h = int(hh) % 12 or 12
    return f"{h:02d}" if padded else str(h)
