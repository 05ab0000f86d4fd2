"""What Faker knows about a locale, for ``synthdeid new-plugin language``: which of its lists a new
language pack can read (first names of every Faker locale of the language, surnames, real town
names, month and weekday names) and what its postcodes, phone numbers and identity numbers look
like. Everything here is read from the installed Faker, so the same Faker gives the same pack.
"""

from __future__ import annotations

import difflib
import importlib
import re
from collections import Counter
from dataclasses import dataclass
from typing import Any

from synthdeid.errors import InputError

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

MIN_PLACES = 20
"""Real town names a Faker list needs for the pack to use it (fewer: a TODO list to fill in)."""
DEFAULT_SSN_LENGTH = 11

_MALE = ("first_names_male",)
_FEMALE = ("first_names_female",)
_EITHER = ("first_names", "first_names_unisex", "first_names_nonbinary")
"""Sex-neutral lists: their names that no male or female list has count for both sexes."""
_SURNAMES = ("last_names", "last_names_male", "male_last_names", "last_names_without_suffix", "unisex_last_names")
_PLACES = ("cities", "city_names", "real_city_names", "municipalities", "towns")
"""Attributes of Faker's address providers that hold real town names (``city_formats`` that glue
made-up prefixes and suffixes, as in no_NO and fr_FR, are not read)."""
PLACE_PATTERN = r"^[^\W\d_]"

Source = tuple[str, str]
"""(Faker locale, attribute of its person provider)."""


@dataclass(frozen=True)
class FirstNameSources:
    """Where a pack's first names come from: Faker lists by sex, and sex-neutral ones."""

    male: tuple[Source, ...] = ()
    female: tuple[Source, ...] = ()
    either: tuple[Source, ...] = ()
    """Sex-neutral lists that add names the male and female lists lack."""


@dataclass(frozen=True)
class LocaleFacts:
    """What a generated pack takes from Faker for one locale."""

    locale: str
    person_locale: str
    """The locale whose person provider gives the names (``FALLBACK_LOCALE`` when it has none)."""
    drawn: FirstNameSources
    """First names drawn as replacements: every list of ``person_locale``."""
    known: FirstNameSources
    """First names only recognised (``NameLocale.known_male``/``known_female``): the lists of
    Faker's other locales of the language (fr_BE, fr_CA, ... for fr_FR)."""
    surnames: str
    """The attribute of ``person_locale``'s surname list."""
    months: bool
    weekdays: bool
    """Whether the locale's date_time provider has ``MONTH_NAMES`` / ``DAY_NAMES``."""
    postcode: str | None
    """A postcode regex built from Faker's postcode formats, or None for the generic default."""
    country_code: str | None
    """The country calling code most of Faker's phone formats start with ("47")."""
    trunk: str
    """"0" when some national format starts with 0, else ""."""
    places: str | None = None
    """The attribute of the locale's address provider with real town names, or None when Faker
    has none (it invents towns, or has no address provider for the locale)."""
    ssn_layout: str | None = None
    """The layout of the identity numbers of the locale's own ssn provider, digits as 9 and
    letters as A ("999999-999A"), or None when Faker has none for the locale."""

    @property
    def tld(self) -> str | None:
        """The country-code top-level domain guessed from the locale ("no_NO" -> "no")."""
        parts = self.locale.split("_")
        return parts[1].lower() if len(parts) == 2 and re.fullmatch(r"[A-Z]{2}", parts[1]) else None

    @property
    def english(self) -> bool:
        """Whether the locale's language is English (English placeholders are then real)."""
        return self.locale.split("_")[0] == "en"

    @property
    def ssn_length(self) -> int:
        """Letters and digits of an identity number (``DEFAULT_SSN_LENGTH`` without a layout)."""
        return sum(c.isalnum() for c in self.ssn_layout) if self.ssn_layout else DEFAULT_SSN_LENGTH


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


def _first_name_sources(locales: list[str]) -> tuple[FirstNameSources, int, int]:
    """Every usable first-name list of ``locales``; and how many male and female names they give."""
    lists: dict[Source, list[str]] = {}
    for locale in locales:
        person = provider("person", locale)
        for attr in _MALE + _FEMALE + _EITHER:
            names = _clean(_own(person, attr), FIRST_NAME_PATTERN) if person is not None else []
            if names:
                lists[(locale, attr)] = names
    male = tuple(s for s in lists if s[1] in _MALE)
    female = tuple(s for s in lists if s[1] in _FEMALE)
    gendered = {n for s in male + female for n in lists[s]}
    either, seen = [], set(gendered)
    for source in (s for s in lists if s[1] in _EITHER):
        new = set(lists[source]) - seen
        if new:  # a neutral list that adds names (most are just the male and female ones together)
            either.append(source)
            seen |= new
    neutral = seen - gendered
    n_male = len({n for s in male for n in lists[s]} | neutral)
    n_female = len({n for s in female for n in lists[s]} | neutral)
    return FirstNameSources(male, female, tuple(either)), n_male, n_female


def _names(locale: str) -> tuple[str, FirstNameSources, FirstNameSources, str]:
    """(person locale, drawn first names, recognised first names, surname attribute)."""
    person_locale = locale if provider("person", locale) is not None else FALLBACK_LOCALE
    person = provider("person", person_locale)
    drawn, n_male, n_female = _first_name_sources([person_locale])
    surnames, n_surnames = _pick(person, _SURNAMES, SURNAME_PATTERN)
    counts = {"male first names": n_male, "female first names": n_female, "surnames": n_surnames}
    few = {kind: n for kind, n in counts.items() if n < MIN_NAMES}
    lang = locale.split("_")[0]
    if few:
        others = [x for x in available_locales() if x.split("_")[0] == lang and x != locale]
        hint = f"choose another Faker locale of the language ({', '.join(others)}), " if others else ""
        raise InputError(
            f"Faker's {person_locale!r} person provider has too few names that are single words of two "
            f"letters or more ({', '.join(f'{n} {kind}' for kind, n in few.items())}; a pack needs {MIN_NAMES} "
            "of each)",
            fix=f"{hint}or generate with a locale that works and replace name_lists() in data.py with your own lists",
        )
    # the other locales of the language: only when the names are the language's own (no fallback)
    siblings = (
        [x for x in available_locales() if x.split("_")[0] == lang and x != locale] if person_locale == locale else []
    )
    known, _, _ = _first_name_sources(siblings)
    return person_locale, drawn, known, surnames


def _places(locale: str) -> str | None:
    """The attribute of the locale's own address provider with ``MIN_PLACES`` or more real towns."""
    address = provider("address", locale)
    for attr in _PLACES if address is not None else ():
        if len(_clean(_own(address, attr), PLACE_PATTERN)) >= MIN_PLACES:
            return attr
    return None


SSN_DRAWS = 50
"""Seeded ``ssn()`` draws whose most common layout is the locale's: one draw is not enough, as
Faker draws the birth date relative to today (fi_FI's check character is a digit or a letter, so
the first draw's layout changed with the date)."""


def _ssn_layout(locale: str) -> str | None:
    """The most common layout of the locale's own ssn provider's identity numbers ("99999999999"),
    or None when the locale's provider only inherits ``ssn()`` (de_DE's gives US numbers)."""
    ssn = provider("ssn", locale)
    if ssn is None or (_own(ssn, "ssn") is None and _own(ssn, "ssn_formats") is None):
        return None
    from faker import Faker

    fake = Faker(locale)
    fake.seed_instance(0)
    try:
        numbers = [str(fake.ssn()) for _ in range(SSN_DRAWS)]
    except Exception:  # noqa: BLE001 - a locale whose ssn() needs arguments: no layout
        return None
    layouts = Counter("".join("9" if c.isdigit() else "A" if c.isalpha() else c for c in n) for n in numbers)
    layout = min(layouts, key=lambda x: (-layouts[x], x))  # the most common; ties by the layout itself
    return layout if any(c.isalnum() for c in layout) else None


def _postcode(locale: str) -> str | None:
    address = provider("address", locale)
    formats = _own(address, "postcode_formats") if address is not None else None
    if not isinstance(formats, (tuple, list)) or not formats:
        return None
    if not all(isinstance(f, str) and re.fullmatch(r"[#%]+(?:[ -][#%]+)*", f) for f in formats):
        return None
    alternatives = sorted(
        {re.sub(r"[#%]+", lambda m: rf"\d{{{len(m.group())}}}", f).replace(" ", r"\s?") for f in formats},
        key=lambda p: (-len(p), p),
    )
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
    person_locale, drawn, known, surnames = _names(locale)
    dates = provider("date_time", locale)
    months, days = (getattr(dates, a, None) if dates is not None else None for a in ("MONTH_NAMES", "DAY_NAMES"))
    code, trunk = _phone(locale)
    return LocaleFacts(
        locale=locale,
        person_locale=person_locale,
        drawn=drawn,
        known=known,
        surnames=surnames,
        months=isinstance(months, dict) and all(k in months for k in MONTH_KEYS),
        weekdays=isinstance(days, dict) and all(k in days for k in WEEKDAY_KEYS),
        postcode=_postcode(locale),
        country_code=code,
        trunk=trunk,
        places=_places(locale),
        ssn_layout=_ssn_layout(locale),
    )
