"""Person-name and initials surrogates, consistent across the variants of one person, for any
language described by a ``NameLocale`` (name lists, titles, surname particles, surnames per name).

Originals are matched case-insensitively by component: a surname, a first name and the
initials that go with a surname each map to one replacement within a document, so
"Jan Jansen", "Jansen", "J. Jansen" and "Jan" become "Piet de Vries", "de Vries",
"P. de Vries" and "Piet" in whatever order they occur. With ``surname_units=2`` (Spanish) a
full name may end in two surnames, each mapped on its own: "Ernesto Rivera Bueno" ->
"Luis Gómez Ruiz", then "Rivera" -> "Gómez".
"""

from __future__ import annotations

import random
import re
import string
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import cast

from .shapes import is_all_caps, shape_replace, strip_accents

_DOTTED_INITIALS = re.compile(r"^(?:[A-Za-z]\.-?)+$")
_BARE_INITIALS = re.compile(r"^[A-Z]{1,3}$")
_COMMA_FORM = re.compile(r"^([^,]+),\s*(.+)$")


@dataclass(frozen=True)
class NameLocale:
    """A language's names: lists to draw from and the words that shape a name.

    The first-name lists do two jobs: replacements are drawn from them, and they decide what a
    token is. A name of one token ("Jostein") that is in neither first-name list, and was not seen
    as a first name earlier in the document, is read as a surname; so short lists turn unknown
    first names into surnames. In a name of several tokens the leading ones are given names and at
    most ``surname_units`` trailing tokens that are no first names are the surname.
    """

    male: tuple[str, ...]
    """Male first names, drawn as replacements of male first names (a name in both lists, or in
    neither, is replaced from both)."""
    female: tuple[str, ...]
    """Female first names."""
    surnames: tuple[str, ...]
    """Surnames drawn as replacements (may start with a particle: "van Dijk")."""
    titles: frozenset[str] = frozenset()
    """Casefolded words before a name that are kept ("dhr.", "dra.", "doktor")."""
    title_phrases: tuple[tuple[str, ...], ...] = ()
    """Casefolded multi-word titles ("de", "heer")."""
    particles: frozenset[str] = frozenset()
    """Casefolded words that start a surname ("van", "de", "del")."""
    new_particles: tuple[str, ...] = ()
    """Particles put before a share of the new surnames ("van der")."""
    particle_share: float = 0.15
    """The share of new surnames that get one of ``new_particles``."""
    surname_units: int = 1
    """Surnames a full name may end in (Spanish: 2, "Rivera Bueno")."""
    known_male: tuple[str, ...] = ()
    """More male first names, recognised as (male) first names but never drawn: a long national
    list, or the names of a neighbouring country, so that "Jostein" alone is no surname."""
    known_female: tuple[str, ...] = ()
    """More female first names, recognised but never drawn."""
    first_names: frozenset[str] = field(init=False)
    """Derived: casefolded ``male``, ``female``, ``known_male`` and ``known_female``, also without
    accents: what counts as a first name."""
    surname_set: frozenset[str] = field(init=False)
    """Derived: casefolded ``surnames``."""
    male_set: frozenset[str] = field(init=False)
    """Derived: casefolded ``male`` and ``known_male``."""
    female_set: frozenset[str] = field(init=False)
    """Derived: casefolded ``female`` and ``known_female``."""

    def __post_init__(self) -> None:
        names = {n.casefold() for n in self.male + self.female + self.known_male + self.known_female}
        object.__setattr__(self, "first_names", frozenset(names | {strip_accents(n) for n in names}))
        object.__setattr__(self, "surname_set", frozenset(n.casefold() for n in self.surnames))
        object.__setattr__(self, "male_set", frozenset(n.casefold() for n in self.male + self.known_male))
        object.__setattr__(self, "female_set", frozenset(n.casefold() for n in self.female + self.known_female))


def clean_names(names: Iterable[str], pattern: str) -> tuple[str, ...]:
    """The names that match ``pattern``, without duplicates, in their order (Faker's lists hold
    compound and odd entries)."""
    rx = re.compile(pattern)
    return tuple(dict.fromkeys(n for n in names if rx.match(n)))


class NameSurrogates:
    """Replacement names for one document."""

    def __init__(self, rng: random.Random, locale: NameLocale) -> None:
        self.rng = rng
        self.locale = locale
        self.male, self.female, self.surnames = locale.male, locale.female, locale.surnames
        self._male_cf = locale.male_set  # built once per language, not per document
        self._female_cf = locale.female_set
        self.first_map: dict[str, str] = {}
        self.surname_map: dict[str, str] = {}
        self.initials_map: dict[tuple[str, str | None], str] = {}
        self.persons: list[tuple[str, str]] = []  # (original first name, original surname), casefolded

    # -- public -------------------------------------------------------------------------------

    def name(self, original: str) -> str:
        """A replacement for a person's name with the same shape as ``original``."""
        m = _COMMA_FORM.match(original)
        if m:  # "Jansen, J." / "Jansen, Jan"
            surname_tokens, given = m.group(1).split(), m.group(2).split()
            key: str | None = self._surname_key(surname_tokens)
            new_given = self._given(given, key, all_caps=is_all_caps(original))
            new = f"{self._surname(surname_tokens)}, {' '.join(new_given)}"
            return new.upper() if is_all_caps(original) else new
        tokens = original.split()
        titles, given, surname_tokens = self._parse(tokens)
        key = self._surname_key(surname_tokens) if surname_tokens else None
        parts = list(titles) + self._given(given, key, all_caps=is_all_caps(original))
        if surname_tokens:
            parts.append(self._surname(surname_tokens))
        new = " ".join(parts)
        if is_all_caps(original):
            return new.upper()
        if original == original.lower():
            return new.lower()
        return new

    def initials(self, original: str) -> str:
        """Initials of the same shape ("J." -> "K.", "J.P." -> "M.A.", "JJ" -> "KL")."""
        if not any(c.isalpha() for c in original):
            return shape_replace(original, self.rng)
        return self._initials(original, None, 0)

    # -- parsing ------------------------------------------------------------------------------

    def _is_initials(self, token: str, all_caps: bool) -> bool:
        if _DOTTED_INITIALS.match(token):
            return True
        if len(token) == 1 and token.isalpha():
            return True
        return bool(not all_caps and _BARE_INITIALS.match(token) and token.casefold() not in self.locale.first_names)

    def _parse(self, tokens: list[str]) -> tuple[list[str], list[str], list[str]]:
        """(titles, given names or initials, surname tokens)."""
        i = 0
        while i < len(tokens) - 1:
            low = tokens[i].casefold()
            if low in self.locale.titles:
                i += 1
                continue
            for phrase in self.locale.title_phrases:
                k = len(phrase)
                if i < len(tokens) - k and tuple(t.casefold() for t in tokens[i : i + k]) == phrase:
                    i += k
                    break
            else:
                break
        titles, rest = tokens[:i], tokens[i:]
        n = len(rest)
        all_caps = is_all_caps(" ".join(rest))
        for k, tok in enumerate(rest[:-1]):
            low = tok.casefold()
            if self._is_particle(low) or ("-" in low and self._is_particle(low.rsplit("-", 1)[1])):
                # Spanish "Juan García de la Fuente": "García" is a surname too
                while (
                    k > 1 and len(self._units(rest[k:])) < self.locale.surname_units and not self._is_first(rest[k - 1])
                ):
                    k -= 1
                return titles, rest[:k], rest[k:]
        if n == 1:
            tok = rest[0]
            low = tok.casefold()
            if self._is_initials(tok, all_caps) or low in self.first_map:
                return titles, rest, []
            if low in self.surname_map:
                return titles, [], rest
            first_names = self.locale.first_names
            if low in first_names or ("-" in low and all(p in first_names for p in low.split("-"))):
                return titles, rest, []
            return titles, [], rest
        k = n  # rest[k:] are the surnames: at most surname_units trailing tokens that are no first names
        while k > 0 and n - k < self.locale.surname_units:
            tok = rest[k - 1]
            low = tok.casefold()
            first = self._is_first(tok)
            surname = low in self.surname_map or low in self.locale.surname_set
            if self._is_initials(tok, all_caps) or (first and not surname) or (first and k == 1):
                break
            k -= 1
        return titles, rest[:k], rest[k:]

    def _is_particle(self, low: str) -> bool:
        return low in self.locale.particles

    def _is_first(self, token: str) -> bool:
        low = token.casefold()
        return low in self.locale.first_names or low in self.first_map

    # -- surnames -----------------------------------------------------------------------------

    @staticmethod
    def _surname_key(tokens: list[str]) -> str:
        return " ".join(tokens).casefold()

    def _surname(self, tokens: list[str]) -> str:
        units = self._units(tokens) if self.locale.surname_units > 1 else [tokens]
        out = []
        for unit in units:
            original = " ".join(unit)
            new = self._new_surname(original.casefold())
            if original[:1].isupper() and new[:1].islower() and self._is_particle(unit[0].casefold()):
                new = new[0].upper() + new[1:]
            out.append(new)
        return " ".join(out)

    def _units(self, tokens: list[str]) -> list[list[str]]:
        """Surname tokens grouped into surnames, particles with what follows ("García", "de la Fuente")."""
        units: list[list[str]] = []
        pending: list[str] = []
        for tok in tokens:
            pending.append(tok)
            if not self._is_particle(tok.casefold()):
                units.append(pending)
                pending = []
        if pending:  # trailing particles belong to the last surname
            if units:
                units[-1].extend(pending)
            else:
                units.append(pending)
        return units

    def _new_surname(self, key: str) -> str:
        if key in self.surname_map:
            return self.surname_map[key]
        if "-" in key.strip("-"):  # double surname: map each part, so "Jansen" alone matches
            new = "-".join(self._new_surname(p.strip()) for p in key.split("-") if p.strip())
            self.surname_map[key] = new
            return new
        core = key.split()[-1]
        taken = {v.casefold() for v in self.surname_map.values()}
        for _ in range(200):
            new = self.rng.choice(self.surnames)
            if self.locale.new_particles and " " not in new and self.rng.random() < self.locale.particle_share:
                new = f"{self.rng.choice(self.locale.new_particles)} {new}"
            low = new.casefold()
            if low not in self.surname_map and low not in taken and core not in low.split():
                break
        self.surname_map[key] = new
        return new

    # -- first names and initials -------------------------------------------------------------

    def _given(self, tokens: list[str], surname_key: str | None, all_caps: bool) -> list[str]:
        out = []
        seen_first = False
        for pos, tok in enumerate(tokens):
            if self._is_initials(tok, all_caps):
                out.append(self._initials(tok, surname_key, pos))
            else:
                out.append(self._first(tok, surname_key, seen_first))
                seen_first = True
        return out

    def _first(self, token: str, surname_key: str | None, secondary: bool, part: bool = False) -> str:
        key = token.casefold()
        if key in self.first_map:
            new = self.first_map[key]
        elif "-" in key.strip("-"):
            new = "-".join(self._first(p, None, True, part=True) for p in token.split("-") if p)
            self.first_map[key] = new
        else:
            letter = None
            if surname_key is not None and not secondary:
                for (letters, sk), new_letters in self.initials_map.items():
                    if sk == surname_key and letters[:1] == key[:1]:
                        letter = new_letters[0].upper()
                        break
            new = self._draw_first(key, letter, plain=part)
            self.first_map[key] = new
        if surname_key is not None and not secondary:
            self.persons.append((key, surname_key))
        if token[:1].islower():
            new = new.lower()
        return new

    def _draw_first(self, key: str, letter: str | None, plain: bool = False) -> str:
        """A new first name of the same gender (if known) starting with ``letter`` (if given);
        ``plain``: no double name ("Carl-Johan"), for one part of a double name."""
        male, female = key in self._male_cf, key in self._female_cf
        pool = self.female if female and not male else self.male if male and not female else self.male + self.female
        if plain:
            pool = tuple(n for n in pool if "-" not in n) or pool
        if letter is not None:
            pool = (
                tuple(n for n in pool if n[0] == letter)
                or tuple(n for n in self.male + self.female if n[0] == letter)
                or pool
            )
        taken = {v.casefold() for v in self.first_map.values()}
        for _ in range(200):
            new = self.rng.choice(pool)
            low = new.casefold()
            if low != key and low not in self.first_map and low not in taken:
                return new
        return new if new.casefold() != key else self.rng.choice([n for n in pool if n.casefold() != key])

    def _initials(self, token: str, surname_key: str | None, pos: int) -> str:
        # Lowercase initials of particles ("J.v.d.M.") are kept when there are capitals to change.
        mixed = any(c.isupper() for c in token) and any(c.islower() for c in token)
        letters = [c for c in token if c.isalpha() and not (mixed and c.islower())]
        key = ("".join(letters).casefold(), surname_key)
        new_letters = self.initials_map.get(key)
        if new_letters is None:
            first: str | None = None
            if pos == 0 and surname_key is not None:
                for orig_first, sk in self.persons:
                    if sk == surname_key and orig_first[:1] == key[0][:1]:
                        first = self.first_map[orig_first][0].upper()
                        break
            for _ in range(100):
                draw = [self.rng.choice(string.ascii_uppercase) for _ in letters]
                if draw:  # a first initial that real first names start with
                    draw[0] = first or self.rng.choice(self.male + self.female)[0]
                new_letters = "".join(draw)
                if new_letters.casefold() != key[0] or (first is not None and surname_key is not None):
                    break
            new_letters = cast(str, new_letters)  # drawn: the loop runs at least once
            self.initials_map[key] = new_letters
        it = iter(new_letters)
        return "".join(
            c if not c.isalpha() or (mixed and c.islower()) else next(it) if c.isupper() else next(it).lower()
            for c in token
        )
