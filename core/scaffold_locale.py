"""What Faker knows about a locale, for ``synthdeid new-plugin language``: which of its lists a new
language pack can read (names, month and weekday names) and what its postcodes and phone numbers
look like. Everything here is read from the installed Faker, so the same Faker gives the same pack.
"""

from __future__ import annotations

import difflib
import importlib
import re
from collections import Counter
from dataclasses import dataclass
from typing import Any

from .errors import InputError

FALLBACK_LOCALE = "en_US"
"""The locale Faker itself uses for a provider the chosen locale lacks."""
NAME_WORD = r"[^\W\d_]{2,}"
"""A word of a name: two letters or more (synthdeid reads a one-letter name as an initial)."""
FIRST_NAME_PATTERN = rf"^{NAME_WORD}(?:-{NAME_WORD})?$"
SURNAME_PATTERN = rf"^{NAME_WORD}$"
MIN_NAMES = 10
MONTH_KEYS = tuple(f"{m:02d}" for m in range(1, 13))
WEEKDAY_KEYS = ("1", "2", "3", "4", "5", "6", "0")  # Faker's DAY_NAMES count from Sunday = "0"
DEFAULT_POSTCODE = r"(?<![\d.,])\d{4,5}(?!\d|[.,]\d)"

_MALE = ("first_names_male", "first_names")
_FEMALE = ("first_names_female", "first_names")
_SURNAMES = ("last_names", "last_names_male", "male_last_names", "last_names_without_suffix", "unisex_last_names")


@dataclass(frozen=True)
class LocaleFacts:
    """What a generated pack takes from Faker for one locale."""

    locale: str
    person_locale: str
    """The locale whose person provider gives the names (``FALLBACK_LOCALE`` when it has none)."""
    male: str
    female: str
    surnames: str
    """Attribute names of the person provider's lists."""
    months: bool
    weekdays: bool
    """Whether the locale's date_time provider has ``MONTH_NAMES`` / ``DAY_NAMES``."""
    postcode: str | None
    """A postcode regex built from Faker's postcode formats, or None for the generic default."""
    country_code: str | None
    """The country calling code most of Faker's phone formats start with ("47")."""
    trunk: str
    """"0" when some national format starts with 0, else ""."""

    @property
    def tld(self) -> str | None:
        """The country-code top-level domain guessed from the locale ("no_NO" -> "no")."""
        parts = self.locale.split("_")
        return parts[1].lower() if len(parts) == 2 and re.fullmatch(r"[A-Z]{2}", parts[1]) else None


def available_locales() -> list[str]:
    from faker.config import AVAILABLE_LOCALES

    return sorted(AVAILABLE_LOCALES)


def check_locale(locale: str) -> None:
    """Raise ``InputError`` (with close matches) unless Faker has ``locale``."""
    locales = available_locales()
    if locale in locales:
        return
    lang, _, country = locale.partition("_")
    near = [x for x in locales if country and x.endswith(f"_{country}")]
    near += [x for x in locales if x.split("_")[0] == lang and x not in near]
    near += [x for x in difflib.get_close_matches(locale, locales, n=3) if x not in near]
    hint = f"did you mean {', '.join(near[:5])}? " if near else ""
    raise InputError(
        f"Faker has no locale {locale!r}",
        fix=f"{hint}pass --faker-locale with one of Faker's locales "
        "(python -c 'from faker.config import AVAILABLE_LOCALES as a; print(sorted(a))')",
    )


def provider(kind: str, locale: str) -> Any | None:
    """Faker's ``kind`` provider class for ``locale``, or None when Faker has no such module."""
    try:
        return importlib.import_module(f"faker.providers.{kind}.{locale}").Provider
    except ModuleNotFoundError:
        return None


def _own(cls: Any, attr: str) -> Any:
    """``cls.attr`` when a locale class defines it (not Faker's generic base providers)."""
    for klass in cls.__mro__:
        if klass.__module__.count(".") >= 3 and attr in vars(klass):  # faker.providers.KIND.LOCALE
            return vars(klass)[attr]
    return None


def _clean(values: Any, pattern: str) -> list[str]:
    """The names of a Faker list (a tuple, or a dict of weights) that match ``pattern``."""
    if not isinstance(values, (tuple, list, dict)):
        return []
    rx = re.compile(pattern)
    return list(dict.fromkeys(v for v in values if isinstance(v, str) and rx.match(v)))


def _pick(person: Any, attrs: tuple[str, ...], pattern: str) -> tuple[str, int]:
    """The first of ``attrs`` with at least ``MIN_NAMES`` usable names (else the largest)."""
    counts = [(a, len(_clean(_own(person, a), pattern))) for a in attrs]
    return next(((a, n) for a, n in counts if n >= MIN_NAMES), max(counts, key=lambda c: c[1]))


def _names(locale: str) -> tuple[str, str, str, str]:
    person_locale = locale if provider("person", locale) is not None else FALLBACK_LOCALE
    person = provider("person", person_locale)
    picks = {kind: _pick(person, attrs, pattern) for kind, attrs, pattern in (
        ("male first names", _MALE, FIRST_NAME_PATTERN),
        ("female first names", _FEMALE, FIRST_NAME_PATTERN),
        ("surnames", _SURNAMES, SURNAME_PATTERN),
    )}
    few = {kind: n for kind, (_, n) in picks.items() if n < MIN_NAMES}
    if few:
        lang = locale.split("_")[0]
        others = [x for x in available_locales() if x.split("_")[0] == lang and x != locale]
        hint = f"choose another Faker locale of the language ({', '.join(others)}), " if others else ""
        raise InputError(
            f"Faker's {person_locale!r} person provider has too few names that are single words of two "
            f"letters or more ({', '.join(f'{n} {kind}' for kind, n in few.items())}; a pack needs {MIN_NAMES} "
            "of each)",
            fix=f"{hint}or generate with a locale that works and replace name_lists() in data.py with your own lists",
        )
    return person_locale, picks["male first names"][0], picks["female first names"][0], picks["surnames"][0]


def _postcode(locale: str) -> str | None:
    address = provider("address", locale)
    formats = _own(address, "postcode_formats") if address is not None else None
    if not isinstance(formats, (tuple, list)) or not formats:
        return None
    if not all(isinstance(f, str) and re.fullmatch(r"[#%]+(?:[ -][#%]+)*", f) for f in formats):
        return None
    alternatives = sorted({re.sub(r"[#%]+", lambda m: rf"\d{{{len(m.group())}}}", f).replace(" ", r"\s?")
                           for f in formats}, key=lambda p: (-len(p), p))
    return rf"(?<![\d.,])(?:{'|'.join(alternatives)})(?!\d|[.,]\d)"


def _phone(locale: str) -> tuple[str | None, str]:
    phone = provider("phone_number", locale)
    formats = _own(phone, "formats") if phone is not None else None
    if not isinstance(formats, (tuple, list)):
        return None, "0"
    texts = [f for f in formats if isinstance(f, str)]
    codes = Counter(m.group(1) for f in texts if (m := re.match(r"\s*\(?\+(\d{1,3})\b", f)))
    code = min(codes, key=lambda c: (-codes[c], c)) if codes else None
    national = [f.lstrip("( ") for f in texts if "+" not in f]
    return code, "0" if any(f.startswith("0") for f in national) else ""


def locale_facts(locale: str) -> LocaleFacts:
    """What Faker offers a new pack for ``locale`` (which must be one of Faker's locales)."""
    check_locale(locale)
    person_locale, male, female, surnames = _names(locale)
    dates = provider("date_time", locale)
    months, days = (getattr(dates, a, None) if dates is not None else None for a in ("MONTH_NAMES", "DAY_NAMES"))
    code, trunk = _phone(locale)
    return LocaleFacts(
        locale=locale,
        person_locale=person_locale,
        male=male,
        female=female,
        surnames=surnames,
        months=isinstance(months, dict) and all(k in months for k in MONTH_KEYS),
        weekdays=isinstance(days, dict) and all(k in days for k in WEEKDAY_KEYS),
        postcode=_postcode(locale),
        country_code=code,
        trunk=trunk,
    )
