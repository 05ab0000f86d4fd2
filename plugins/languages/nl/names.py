"""Dutch person-name and initials surrogates, consistent across the variants of one person.

Originals are matched case-insensitively by component: a surname, a first name and the
initials that go with a surname each map to one replacement within a document, so
"Jan Jansen", "Jansen", "J. Jansen" and "Jan" become "Piet de Vries", "de Vries",
"P. de Vries" and "Piet" in whatever order they occur.
"""

from __future__ import annotations

import random
import re
import string

from .data import NEW_TUSSENVOEGSELS, TITLES, TUSSEN_WORDS, first_name_set, name_lists, surname_set
from .shapes import is_all_caps, shape_replace

_DOTTED_INITIALS = re.compile(r"^(?:[A-Za-z]\.-?)+$")
_BARE_INITIALS = re.compile(r"^[A-Z]{1,3}$")
_COMMA_FORM = re.compile(r"^([^,]+),\s*(.+)$")


class NameSurrogates:
    """Replacement names for one document."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.male, self.female, self.surnames = name_lists()
        self._male_cf = frozenset(n.casefold() for n in self.male)
        self._female_cf = frozenset(n.casefold() for n in self.female)
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
            key = self._surname_key(surname_tokens)
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
        return bool(
            not all_caps and _BARE_INITIALS.match(token) and token.casefold() not in first_name_set()
        )

    def _parse(self, tokens: list[str]) -> tuple[list[str], list[str], list[str]]:
        """(titles, given names or initials, surname tokens)."""
        i = 0
        while i < len(tokens) - 1:
            low = tokens[i].casefold()
            if low in TITLES:
                i += 1
            elif low == "de" and tokens[i + 1].casefold() == "heer" and i < len(tokens) - 2:
                i += 2
            else:
                break
        titles, rest = tokens[:i], tokens[i:]
        n = len(rest)
        all_caps = is_all_caps(" ".join(rest))
        for k, tok in enumerate(rest[:-1]):
            low = tok.casefold()
            if low in TUSSEN_WORDS or ("-" in low and low.rsplit("-", 1)[1] in TUSSEN_WORDS):
                return titles, rest[:k], rest[k:]
        if n == 1:
            tok = rest[0]
            low = tok.casefold()
            if self._is_initials(tok, all_caps) or low in self.first_map:
                return titles, rest, []
            if low in self.surname_map:
                return titles, [], rest
            if low in first_name_set() or (
                "-" in low and all(p in first_name_set() for p in low.split("-"))
            ):
                return titles, rest, []
            return titles, [], rest
        last = rest[-1].casefold()
        if (
            (last in first_name_set() or last in self.first_map)
            and last not in self.surname_map
            and last not in surname_set()
        ) or self._is_initials(rest[-1], all_caps):
            return titles, rest, []
        return titles, rest[:-1], rest[-1:]

    # -- surnames -----------------------------------------------------------------------------

    @staticmethod
    def _surname_key(tokens: list[str]) -> str:
        return " ".join(tokens).casefold()

    def _surname(self, tokens: list[str]) -> str:
        original = " ".join(tokens)
        new = self._new_surname(original.casefold())
        if original[:1].isupper() and new[:1].islower() and tokens[0].casefold() in TUSSEN_WORDS:
            new = new[0].upper() + new[1:]
        return new

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
            if " " not in new and self.rng.random() < 0.15:
                new = f"{self.rng.choice(NEW_TUSSENVOEGSELS)} {new}"
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

    def _first(self, token: str, surname_key: str | None, secondary: bool) -> str:
        key = token.casefold()
        if key in self.first_map:
            new = self.first_map[key]
        elif "-" in key.strip("-"):
            new = "-".join(self._first(p, None, True) for p in token.split("-") if p)
            self.first_map[key] = new
        else:
            letter = None
            if surname_key is not None and not secondary:
                for (letters, sk), new_letters in self.initials_map.items():
                    if sk == surname_key and letters[:1] == key[:1]:
                        letter = new_letters[0].upper()
                        break
            new = self._draw_first(key, letter)
            self.first_map[key] = new
        if surname_key is not None and not secondary:
            self.persons.append((key, surname_key))
        if token[:1].islower():
            new = new.lower()
        return new

    def _draw_first(self, key: str, letter: str | None) -> str:
        male, female = key in self._male_cf, key in self._female_cf
        pool = self.female if female and not male else self.male if male and not female else self.male + self.female
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
            first = None
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
            self.initials_map[key] = new_letters
        it = iter(new_letters)
        return "".join(
            c if not c.isalpha() or (mixed and c.islower()) else next(it) if c.isupper() else next(it).lower()
            for c in token
        )
