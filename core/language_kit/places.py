"""Surrogates for addresses, hospitals, care institutes, organisations and internal locations: the
machinery every language shares. A language subclasses ``PlaceSurrogates`` with its postcode
format, how it tells a street from a town, and templates that name its institutions."""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Collection

from faker import Faker

from .institutions import InstitutionDraws, InstitutionWords
from .shapes import capitalize_like, match_case, shape_replace

_SLOT = re.compile(r"\{(\w+)\}")
_NUMBER_ONLY = re.compile(r"^(?P<num>\d{1,5})(?P<add>(?:\s?-?\s?(?:[A-Za-z]{1,3}|\d{1,4}))?)$")


class PlaceSurrogates:
    """Places and institutions for one document, consistent per original (case-insensitive)."""

    postcode_re: re.Pattern[str] | None = None
    """A postcode anywhere in an address ("1234 AB", "28016", "123 45")."""
    kept_additions: frozenset[str] = frozenset()
    """House-number additions kept as they are ("bis", "hs")."""
    street_suffixes: tuple[str, ...] = ()
    """Endings that mark a street rather than a town ("straat", "gatan", "straße")."""
    part_words: tuple[str, ...] = ()
    """Words that join two parts of an address as a comma does ("te", "in": ``Dorpsstraat 4 te
    Aalten``)."""
    po_box_words: frozenset[str] = frozenset()
    """Casefolded words kept before a number ("postbus", "box")."""
    acronym_tails: tuple[str, ...] = ("MC", "H", "HU")
    """Endings of made-up hospital acronyms (an acronym "UMCG" gets one such as "KZH")."""
    location_keywords: tuple[str, ...] = ()
    """Words that start an internal location ("afdeling", "sala", "avdelning")."""
    location_words: tuple[str, ...] = ("Norte", "Sur", "Este", "Oeste")
    """Names of units after a keyword ("afdeling Noord") and words of numbered ones ("C4 West")."""
    location_acronyms: tuple[str, ...] = ("IC", "OK")
    """Units written as acronyms ("SEH", "IVA", "UCI")."""
    location_names: tuple[str, ...] = ()
    """Names of units without a keyword (default: ``location_words``)."""
    articles: tuple[str, ...] = ()
    """Capitalised articles lowered when the original starts in lower case ("De" -> "de")."""
    hospital_templates: tuple[str, ...] = ("Hospital {city}",)
    """Names of new hospitals, one drawn per original; see ``fill`` for the slots."""
    care_templates: tuple[str, ...] = ("{company}",)
    """Names of new care institutes (nursing homes, GP practices), like ``hospital_templates``."""
    organization_templates: tuple[str, ...] = ("{company}",)
    """Names of new companies and organisations."""
    words: dict[str, tuple[str, ...]] = {}
    """The word lists of the templates' slots ("{saint}" -> ("St. Anna", ...))."""
    institutions: InstitutionWords = InstitutionWords()
    """Type words and name lists for type-aware institution surrogates
    (``synthdeid.language_kit.institutions``); a kind without type words uses the templates above."""
    city_names: tuple[str, ...] = ()
    """Real town names for ``city()``, the ``{city}`` slot and made-up web domains; empty: Faker's
    ``city()``, which is real in some locales (nl_NL, sv_SE) and invented in others (no_NO, fr_FR)."""

    def __init__(self, rng: random.Random, fake: Callable[[], Faker], surnames: tuple[str, ...] = ()) -> None:
        self.rng = rng
        self.fake = fake
        self.surnames = surnames
        self._maps: dict[tuple[str, str], str] = {}
        joins = "".join(rf"|\s+{re.escape(w)}\s+" for w in self.part_words)
        self._part_sep = re.compile(rf"(\s*[,;\n]\s*{joins})")
        self._institutions = InstitutionDraws(self.institutions, self.rng.choice, self.fill, self.new_city, surnames)
        self._single_location_words = tuple(w for w in self.location_words if " " not in w)
        keywords = "|".join(re.escape(k) for k in sorted(self.location_keywords, key=len, reverse=True))
        self._location = (
            re.compile(rf"^(?P<kw>{keywords})(?P<sp>\s*)(?P<rest>\S.*)$", re.IGNORECASE) if keywords else None
        )
        words = "".join(f"|{re.escape(w)}" for w in sorted(self.kept_additions) if len(w) > 3)
        self._street_number = re.compile(
            r"^(?P<street>\D*?[^\W\d_]\D*?)(?P<sp>\s+)(?P<num>\d{1,5})"
            rf"(?P<add>(?:\s?-?\s?(?:[A-Za-z]{{1,3}}|\d{{1,4}}{words}))?)$",
            re.IGNORECASE,
        )

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
        out: list[str] = []
        pos = 0
        seen_postcode = False
        for m in self.postcode_re.finditer(original) if self.postcode_re is not None else ():
            out.append(self._address_parts(original[pos : m.start()], seen_postcode))
            out.append(self.postcode(m.group()))
            seen_postcode = True
            pos = m.end()
        out.append(self._address_parts(original[pos:], seen_postcode))
        return match_case(original, "".join(out)) if original.strip() else original

    def postcode(self, original: str) -> str:
        """A new postcode in the original's layout."""
        return self._mapped("postcode", re.sub(r"\s+", "", original), lambda: shape_replace(original, self.rng))

    def _address_parts(self, text: str, after_postcode: bool) -> str:
        parts = self._part_sep.split(text)
        cores = [p.strip() if k % 2 == 0 else "" for k, p in enumerate(parts)]
        out = []
        for k, part in enumerate(parts):
            if k % 2 == 1 or not part.strip():
                out.append(part)
                continue
            lead = part[: len(part) - len(part.lstrip())]
            trail = part[len(part.rstrip()) :]
            following = next((c for c in cores[k + 1 :] if c), "")
            out.append(lead + self._address_part(cores[k], after_postcode or k > 0, following) + trail)
        return "".join(out)

    def _address_part(self, core: str, later: bool, following: str) -> str:
        """One comma-separated part of an address; ``later`` after a postcode or another part,
        ``following`` the next part (or ""). Street + number, a number, a street told from a town
        by its ending, a town; anything else keeps only its shape."""
        m = self._street_number.match(core)
        if m:
            street = m.group("street")
            street = street if street.casefold() in self.po_box_words else self.street(street)
            return street + m.group("sp") + self._number(m.group("num"), m.group("add"))
        m = _NUMBER_ONLY.match(core)
        if m:
            return self._number(m.group("num"), m.group("add"))
        if not any(c.isdigit() for c in core):
            last = core.split()[-1].casefold()
            if any(last.endswith(s) for s in self.street_suffixes) and not later:
                return self.street(core)
            return self.city(core)
        return self._loose_part(core)

    def _loose_part(self, core: str) -> str:
        """A part no rule reads ("Zona 4", "km 12"): words become towns, single letters other
        letters, numbers new digits; never random letters in place of a word."""

        def piece(m: re.Match[str]) -> str:
            w = m.group()
            if w.isdigit():
                return "".join(str(self.rng.randint(0, 9)) for _ in w)
            if len(w) == 1:
                letter = self.rng.choice([c for c in "abcdefgh" if c != w.lower()])
                return letter.upper() if w.isupper() else letter
            return capitalize_like(w, self.city(w)) if w[:1].isupper() else w

        new = re.sub(r"\d+|[^\W\d_]+", piece, core)
        return new if new.casefold() != core.casefold() else shape_replace(core, self.rng)

    def street(self, original: str) -> str:
        """A street (consistent per original) from Faker's ``street_name()``."""
        return capitalize_like(original, self._mapped("street", original, lambda: self.fake().street_name()))

    def city(self, original: str) -> str:
        """A town (consistent per original), from ``new_city``."""
        return capitalize_like(original, self._mapped("city", original, self.new_city))

    def new_city(self) -> str:
        """A town name: one of ``city_names``, or Faker's ``city()`` when there are none."""
        return self.rng.choice(self.city_names) if self.city_names else self.fake().city()

    def country(self, original: str) -> str:
        """A country (consistent per original) from Faker's ``country()``."""
        return capitalize_like(original, self._mapped("country", original, lambda: self.fake().country()))

    def _number(self, num: str, addition: str) -> str:
        while True:
            new = str(self.rng.randint(1, 9 if len(num) == 1 and self.rng.random() < 0.5 else 199))
            if new != num:
                break
        add = []
        for piece in re.split(r"(\d+|[A-Za-z]+)", addition):
            if piece.isdigit():
                add.append(str(self.rng.randint(1, 9 if len(piece) == 1 else 99)))
            elif piece.isalpha() and piece.casefold() not in self.kept_additions:
                letter = self.rng.choice("abcdefgh")
                add.append(letter.upper() if piece.isupper() else letter)
            else:
                add.append(piece)
        return new + "".join(add)

    # -- institutions -------------------------------------------------------------------------

    def hospital(self, original: str, keep: Collection[str] = ()) -> str:
        """A hospital name built from the language's parts, or an acronym for an acronym; type-aware
        when the pack's ``institutions`` has hospital type words (``keep``: more of them)."""
        if self.institutions.type_aware("hospital"):
            return self._typed("hospital", original, keep)
        if re.fullmatch(r"[A-Z]{2,6}", original):
            return self._mapped("hospital", original, self._acronym)
        return match_case(original, self._mapped("hospital", original, self._hospital_name))

    def _acronym(self) -> str:
        head = "".join(self.rng.choice("ABCDEFGHIJKLMNOPRSTVWZ") for _ in range(self.rng.randint(1, 2)))
        return head + self.rng.choice(self.acronym_tails)

    def _hospital_name(self) -> str:
        return self.fill(self.rng.choice(self.hospital_templates))

    def care_institute(self, original: str, keep: Collection[str] = ()) -> str:
        """A care institute (nursing home, GP practice, health centre); type-aware like ``hospital``."""
        if self.institutions.type_aware("care"):
            return self._typed("care", original, keep)
        return match_case(original, self._mapped("care", original, self._care_name))

    def _care_name(self) -> str:
        return self.fill(self.rng.choice(self.care_templates))

    def organization(self, original: str, keep: Collection[str] = ()) -> str:
        """A company or organisation; type-aware like ``hospital``."""
        if self.institutions.type_aware("organization"):
            return self._typed("organization", original, keep)
        return match_case(original, self._mapped("organization", original, self._org_name))

    def _org_name(self) -> str:
        return self.fill(self.rng.choice(self.organization_templates))

    def _typed(self, kind: str, original: str, keep: Collection[str]) -> str:
        return self._mapped(kind, original, lambda: self._institutions.name(kind, original, keep))

    def fill(self, template: str) -> str:
        """``template`` with its slots filled from left to right: ``{city}`` from ``new_city``,
        ``{company}`` from Faker, ``{surname}`` (``{Surname}`` capitalised, ``{surname_core}`` its
        last word) from the language's surnames, any other ``{slot}`` from ``words[slot]``."""

        def value(m: re.Match[str]) -> str:
            slot = m.group(1)
            if slot == "city":
                return self.new_city()
            if slot == "company":
                return self.fake().company()
            if slot.startswith(("surname", "Surname")):
                surname = self.rng.choice(self.surnames)
                if slot == "surname_core":
                    return surname.split()[-1]
                return surname[0].upper() + surname[1:] if slot == "Surname" else surname
            return self.rng.choice(self.words[slot])

        return _SLOT.sub(value, template)

    def _location_word(self, word: re.Match[str]) -> str:
        w = word.group()
        if any(c.isdigit() for c in w) or not w.isalpha():
            return shape_replace(w, self.rng)
        return capitalize_like(
            w, self.rng.choice([x for x in self._single_location_words if x.casefold() != w.casefold()])
        )

    def internal_location(self, original: str) -> str:
        """A ward, room or unit ("afdeling 3B", "kamer 12", "unit Noord", "de Linde")."""
        m = self._location.match(original) if self._location is not None else None
        if m:
            rest = m.group("rest")
            if any(c.isdigit() for c in rest):  # "C4 West" -> "K7 Noord"
                new_rest = re.sub(r"\S+", self._location_word, rest)
            else:
                new_rest = capitalize_like(
                    rest, self._mapped("location", rest, lambda: self.rng.choice(self.location_words))
                )
            return m.group("kw") + m.group("sp") + new_rest
        if any(c.isdigit() for c in original):
            return shape_replace(original, self.rng)
        if re.fullmatch(r"[A-Z]{2,5}", original):
            return self._mapped("location", original, lambda: self.rng.choice(self.location_acronyms))
        words = self.location_names or self.location_words
        new = self._mapped("location", original, lambda: self.rng.choice(words))
        if original[:1].islower() and new.split()[0] in self.articles:
            new = new[:1].lower() + new[1:]
        return match_case(original, new)
