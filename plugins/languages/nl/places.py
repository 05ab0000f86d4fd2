"""Dutch surrogates for addresses, hospitals, care institutes, organisations and internal locations."""

from __future__ import annotations

import random
import re
import string
from collections.abc import Callable

from faker import Faker

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
    name_lists,
)
from .shapes import capitalize_like, match_case, shape_replace

_POSTCODE = re.compile(r"(?<!\d)([1-9]\d{3})(\s*)([A-Za-z]{2})(?![A-Za-z])")
_PART_SEP = re.compile(r"(\s*[,;\n]\s*)")
_STREET_NUMBER = re.compile(
    r"^(?P<street>\D*?[^\W\d_]\D*?)(?P<sp>\s+)(?P<num>\d{1,5})"
    r"(?P<add>(?:\s?-?\s?(?:[A-Za-z]{1,3}|\d{1,4}|bis|hs|huis|boven|beneden|rood|zwart))?)$",
    re.IGNORECASE,
)
_NUMBER_ONLY = re.compile(r"^(?P<num>\d{1,5})(?P<add>(?:\s?-?\s?(?:[A-Za-z]{1,3}|\d{1,4}))?)$")
_SINGLE_LOCATION_WORDS = tuple(w for w in LOCATION_WORDS if " " not in w)
_PO_BOX = frozenset({"postbus", "antwoordnummer"})
_KEPT_ADDITIONS = frozenset({"bis", "hs", "huis", "boven", "beneden", "rood", "zwart", "i", "ii", "iii"})
_LOCATION = re.compile(
    r"^(?P<kw>" + "|".join(re.escape(k) for k in sorted(LOCATION_KEYWORDS, key=len, reverse=True))
    + r")(?P<sp>\s*)(?P<rest>\S.*)$",
    re.IGNORECASE,
)


class PlaceSurrogates:
    """Places and institutions for one document, consistent per original (case-insensitive)."""

    def __init__(self, rng: random.Random, fake: Callable[[], Faker]) -> None:
        self.rng = rng
        self.fake = fake
        self._maps: dict[tuple[str, str], str] = {}

    def _mapped(self, kind: str, original: str, draw: Callable[[], str]) -> str:
        """The replacement of ``original`` (case-insensitive), drawn once per document."""
        key = (kind, original.casefold())
        if key not in self._maps:
            taken = {v.casefold() for (k, _), v in self._maps.items() if k == kind}
            for _ in range(50):
                new = draw()
                low = new.casefold()
                if low != key[1] and low not in taken and (kind, low) not in self._maps:
                    break
            self._maps[key] = new
        return self._maps[key]

    # -- addresses ----------------------------------------------------------------------------

    def address(self, original: str) -> str:
        """Street + number, postcode, city or a combination, in the shape of ``original``."""
        pieces = _POSTCODE.split(original)
        out: list[str] = []
        seen_postcode = False
        i = 0
        while i < len(pieces):
            if i % 4 == 0:
                out.append(self._address_parts(pieces[i], seen_postcode))
                i += 1
            else:
                digits, space, letters = pieces[i : i + 3]
                out.append(self.postcode(digits + space + letters))
                seen_postcode = True
                i += 3
        return match_case(original, "".join(out)) if original.strip() else original

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

    def _address_parts(self, text: str, after_postcode: bool) -> str:
        parts = _PART_SEP.split(text)
        out = []
        for k, part in enumerate(parts):
            if k % 2 == 1 or not part.strip():
                out.append(part)
                continue
            lead = part[: len(part) - len(part.lstrip())]
            trail = part[len(part.rstrip()) :]
            core = part.strip()
            out.append(lead + self._address_part(core, after_postcode or k > 0) + trail)
        return "".join(out)

    def _address_part(self, core: str, later: bool) -> str:
        m = _STREET_NUMBER.match(core)
        if m:
            street = m.group("street")
            street = street if street.casefold() in _PO_BOX else self.street(street)
            return street + m.group("sp") + self._number(m.group("num"), m.group("add"))
        m = _NUMBER_ONLY.match(core)
        if m:
            return self._number(m.group("num"), m.group("add"))
        if not any(c.isdigit() for c in core):
            last = core.split()[-1].casefold()
            if any(last.endswith(s) for s in STREET_SUFFIXES) and not later:
                return self.street(core)
            return self.city(core)
        return shape_replace(core, self.rng)

    def street(self, original: str) -> str:
        return capitalize_like(original, self._mapped("street", original, lambda: self.fake().street_name()))

    def city(self, original: str) -> str:
        return capitalize_like(original, self._mapped("city", original, lambda: self.fake().city()))

    def _number(self, num: str, addition: str) -> str:
        while True:
            new = str(self.rng.randint(1, 9 if len(num) == 1 and self.rng.random() < 0.5 else 199))
            if new != num:
                break
        add = []
        for piece in re.split(r"(\d+|[A-Za-z]+)", addition):
            if piece.isdigit():
                add.append(str(self.rng.randint(1, 9 if len(piece) == 1 else 99)))
            elif piece.isalpha() and piece.casefold() not in _KEPT_ADDITIONS:
                letter = self.rng.choice("abcdefgh")
                add.append(letter.upper() if piece.isupper() else letter)
            else:
                add.append(piece)
        return new + "".join(add)

    # -- institutions -------------------------------------------------------------------------

    def hospital(self, original: str) -> str:
        """A Dutch-sounding hospital name built from parts ("Ziekenhuis Rivierenland", "UMC Ees")."""
        if re.fullmatch(r"[A-Z]{2,6}", original):
            return self._mapped("hospital", original, self._acronym)
        return match_case(original, self._mapped("hospital", original, self._hospital_name))

    def _acronym(self) -> str:
        head = "".join(self.rng.choice("ABCDEFGHIJKLMNOPRSTVWZ") for _ in range(self.rng.randint(1, 2)))
        return head + self.rng.choice(HOSPITAL_ACRONYM_TAILS)

    def _hospital_name(self) -> str:
        rng = self.rng
        form = rng.randrange(6)
        if form == 0:
            return f"{rng.choice(HOSPITAL_PREFIXES)} {rng.choice(HOSPITAL_REGIONS)}"
        if form == 1:
            return f"{rng.choice(HOSPITAL_SAINTS)} {rng.choice(HOSPITAL_SUFFIXES)}"
        if form == 2:
            return f"{rng.choice(('UMC', 'Universitair Medisch Centrum', 'Medisch Centrum', 'MC'))} {self.fake().city()}"
        if form == 3:
            return f"{rng.choice(HOSPITAL_REGIONS)} {rng.choice(HOSPITAL_SUFFIXES)}"
        if form == 4:
            return f"Ziekenhuis {self.fake().city()}"
        return f"{rng.choice(HOSPITAL_PREFIXES)} {rng.choice(HOSPITAL_SAINTS)}"

    def care_institute(self, original: str) -> str:
        """A care institute ("Zorgcentrum De Linde", "GGZ Twente", "Thuiszorg Ees")."""
        return match_case(original, self._mapped("care", original, self._care_name))

    def _care_name(self) -> str:
        rng = self.rng
        form = rng.randrange(5)
        if form <= 1:
            return f"{rng.choice(CARE_TYPES)} {rng.choice(CARE_NAMES)}"
        if form == 2:
            return f"{rng.choice(CARE_ACRONYMS)} {rng.choice(HOSPITAL_REGIONS)}"
        if form == 3:
            return f"{rng.choice(CARE_TYPES)} {self.fake().city()}"
        return f"Huisartsenpraktijk {rng.choice(name_lists()[2]).split()[-1]}"

    def organization(self, original: str) -> str:
        """A company or organisation (Faker nl_NL companies and Dutch parts)."""
        return match_case(original, self._mapped("organization", original, self._org_name))

    def _org_name(self) -> str:
        rng = self.rng
        form = rng.randrange(3)
        if form == 0:
            return self.fake().company()
        if form == 1:
            return f"{rng.choice(ORG_PREFIXES)} {self.fake().city()}"
        surname = rng.choice(name_lists()[2])
        return f"{surname[0].upper()}{surname[1:]} {rng.choice(ORG_FORMS)}"

    def _location_word(self, word: re.Match[str]) -> str:
        w = word.group()
        if any(c.isdigit() for c in w) or not w.isalpha():
            return shape_replace(w, self.rng)
        return capitalize_like(w, self.rng.choice([x for x in _SINGLE_LOCATION_WORDS if x.casefold() != w.casefold()]))

    def internal_location(self, original: str) -> str:
        """A ward, room or unit ("afdeling 3B", "kamer 12", "unit Noord", "de Linde")."""
        m = _LOCATION.match(original)
        if m:
            rest = m.group("rest")
            if any(c.isdigit() for c in rest):  # "C4 West" -> "K7 Noord"
                new_rest = re.sub(r"\S+", self._location_word, rest)
            else:
                new_rest = capitalize_like(rest, self._mapped("location", rest, lambda: self.rng.choice(LOCATION_WORDS)))
            return m.group("kw") + m.group("sp") + new_rest
        if any(c.isdigit() for c in original):
            return shape_replace(original, self.rng)
        if re.fullmatch(r"[A-Z]{2,5}", original):
            return self._mapped("location", original, lambda: self.rng.choice(LOCATION_ACRONYMS))
        words = LOCATION_WORDS + CARE_NAMES
        new = self._mapped("location", original, lambda: self.rng.choice(words))
        if original[:1].islower() and new.split()[0] in ("De", "Het"):
            new = new[:1].lower() + new[1:]
        return match_case(original, new)
