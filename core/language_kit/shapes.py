"""Small helpers shared by the surrogate generators of every language: casing and shape-preserving
replacement."""

from __future__ import annotations

import random
import string
import unicodedata


def is_all_caps(text: str) -> bool:
    """At least two letters, all uppercase."""
    letters = [c for c in text if c.isalpha()]
    return len(letters) >= 2 and all(c.isupper() for c in letters)


def match_case(original: str, new: str) -> str:
    """``new`` in ALL CAPS / all lowercase when ``original`` is; unchanged otherwise."""
    letters = [c for c in original if c.isalpha()]
    if is_all_caps(original):
        return new.upper()
    if letters and all(c.islower() for c in letters):
        return new.lower()
    return new


def capitalize_like(original: str, new: str) -> str:
    """``match_case``, and a capital first letter when ``original`` starts with one."""
    new = match_case(original, new)
    if original[:1].isupper() and new[:1].islower():
        new = new[0].upper() + new[1:]
    return new


def shape_replace(text: str, rng: random.Random) -> str:
    """Digits by random digits, letters by random letters of the same case, the rest kept."""
    out = []
    for ch in text:
        if ch.isdigit():
            out.append(rng.choice(string.digits))
        elif ch.isalpha():
            out.append(rng.choice(string.ascii_uppercase if ch.isupper() else string.ascii_lowercase))
        else:
            out.append(ch)
    return "".join(out)


def strip_accents(text: str) -> str:
    """``text`` without diacritics ("Angélica" -> "Angelica"); other characters kept."""
    return "".join(c for c in unicodedata.normalize("NFKD", text) if not unicodedata.combining(c))


def ascii_slug(text: str) -> str:
    """Lowercase ASCII letters and digits only ("van 't Hof" -> "vanthof")."""
    plain = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode("ascii")
    return "".join(c for c in plain.lower() if c.isalnum())
