"""Date and age surrogates that keep the original's format, for any language described by a
``DateLocale`` (month and weekday names, the words around dates and times, number words).

Dates are shifted by one random number of days per document (30-330 days either way), so
intervals between the dates of a note are kept and a shifted date always differs from its
original; a date without a year or day shifts within a reference year.
"""

from __future__ import annotations

import datetime as dt
import random
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cached_property

from .shapes import capitalize_like

_REFERENCE_YEAR = 2020  # a leap year, so "29-02" without a year is valid


def name_input(
    full: Sequence[str], abbreviated: Sequence[str], extra: dict[str, int] | None = None, offset: int = 1
) -> dict[str, tuple[int, bool]]:
    """Lower-case month (or weekday) names read from text -> (number, abbreviated?)."""
    out = {m.lower(): (i + offset, False) for i, m in enumerate(full)}
    for i, m in enumerate(abbreviated):
        out.setdefault(m.lower(), (i + offset, True))
    for m, i in (extra or {}).items():
        out.setdefault(m.lower(), (i, True))
    return out


@dataclass(frozen=True)
class DateLocale:
    """How a language writes dates, times and ages. Regex fields are fragments of patterns."""

    months: tuple[str, ...]
    """January to December, as written in running text ("januari")."""
    month_abbr: tuple[str, ...]
    """Their abbreviations, written for abbreviated originals ("jan", "mrt")."""
    weekdays: tuple[str, ...]
    """Monday to Sunday."""
    weekday_abbr: tuple[str, ...]
    """Their abbreviations ("ma", "di")."""
    month_input: dict[str, tuple[int, bool]] = field(default_factory=dict)
    """Month names read from text (default: ``months`` and ``month_abbr``)."""
    weekday_input: dict[str, tuple[int, bool]] = field(default_factory=dict)
    """Weekday names read from text, Monday = 0 (default: ``weekdays`` and ``weekday_abbr``)."""
    day_suffix: str = ""
    """After a day number before a month name ("12e", "12º")."""
    day_month: str = r"[\s./-]+"
    """Between day and month name ("12 mars", Spanish "12 de marzo")."""
    month_year: str = r"[\s./,-]+"
    """Between month name and year ("marzo de 2019")."""
    time_prefix: str = ""
    """Between a date and its time, after optional comma and space ("om", "a las", "kl.")."""
    time_suffix: str = ""
    """After a time ("u", "uur", "h")."""
    extra_patterns: tuple[str, ...] = ()
    """More formats tried first, with groups y, m, d ("19-03-12 compact" etc.)."""
    number_words: tuple[str, ...] = ()
    """Number words for ages, index = value (index 0 unused)."""

    def __post_init__(self) -> None:
        if not self.month_input:
            object.__setattr__(self, "month_input", name_input(self.months, self.month_abbr))
        if not self.weekday_input:
            object.__setattr__(self, "weekday_input", name_input(self.weekdays, self.weekday_abbr, offset=0))

    @cached_property
    def patterns(self) -> list[re.Pattern[str]]:
        mon = "|".join(sorted(map(re.escape, self.month_input), key=len, reverse=True))
        wd = "|".join(sorted(map(re.escape, self.weekday_input), key=len, reverse=True))
        prefix = rf"(?:(?:{self.time_prefix})\s+)?" if self.time_prefix else ""
        suffix = rf"(?:\s*(?:{self.time_suffix}))?" if self.time_suffix else ""
        time = rf"(?:(?P<tsep>,?\s*{prefix})(?P<hh>\d{{1,2}})[:.](?P<mi>\d{{2}}){suffix})?"
        wd_prefix = rf"(?:(?P<wd>{wd})\.?,?\s+)?"
        day_suffix = f"(?:{self.day_suffix})?" if self.day_suffix else ""
        return [
            re.compile(p + time, re.IGNORECASE)
            for p in (
                *self.extra_patterns,
                wd_prefix + r"(?P<y>\d{4})(?P<s>[-/.])(?P<m>\d{1,2})(?P=s)(?P<d>\d{1,2})",
                wd_prefix + r"(?P<d>\d{1,2})(?P<s>[-/.])(?P<m>\d{1,2})(?P=s)(?P<y>\d{4}|\d{2})",
                r"(?P<m>\d{1,2})(?P<s>[-/.])(?P<y>\d{4})",
                wd_prefix + r"(?P<d>\d{1,2})(?P<s>[-/.])(?P<m>\d{1,2})",
                wd_prefix + rf"(?:(?P<d>\d{{1,2}}){day_suffix}(?:{self.day_month}))?(?P<mon>{mon})\b\.?"
                rf"(?:(?:{self.month_year})['’]?(?P<y>\d{{4}}|\d{{2}}))?",
                r"['’]?(?P<y>\d{4})",
                r"['’](?P<y>\d{2})",
                rf"(?P<wd>{wd})\.?",
                r"",  # time only
            )
        ]

    @cached_property
    def number_word_re(self) -> re.Pattern[str] | None:
        words = {w: i for i, w in enumerate(self.number_words) if w}
        if not words:
            return None
        return re.compile(
            "|".join(sorted((re.escape(w) for w in words if len(w) > 3), key=len, reverse=True))
            + "|"
            + "|".join(rf"\b{re.escape(w)}\b" for w in words if len(w) <= 3),
            re.IGNORECASE,
        )

    @cached_property
    def word_to_number(self) -> dict[str, int]:
        return {w: i for i, w in enumerate(self.number_words) if w}


class DateSurrogates:
    """Shifted dates and nearby ages for one document."""

    def __init__(self, rng: random.Random, locale: DateLocale) -> None:
        self.rng = rng
        self.locale = locale
        self.delta = rng.choice((-1, 1)) * rng.randint(30, 330)
        self.year_shift = 1 if self.delta > 0 else -1

    # -- dates --------------------------------------------------------------------------------

    def date(self, original: str) -> str:
        """A different, valid date in the format of ``original``."""
        for pattern in self.locale.patterns:
            m = pattern.fullmatch(original)
            if m and any(m.groupdict().get(g) for g in ("y", "m", "d", "mon", "wd", "hh")):
                new = self._rewrite(m)
                if new is not None:
                    return new
        return self._fallback(original)

    def _rewrite(self, m: re.Match[str]) -> str | None:
        g = {k: v for k, v in m.groupdict().items() if v is not None}
        repl: dict[str, str] = {}
        month = int(g["m"]) if "m" in g else self.locale.month_input[g["mon"].lower()][0] if "mon" in g else None
        year = _full_year(g["y"]) if "y" in g else None
        day = int(g["d"]) if "d" in g else None
        weekday = self.locale.weekday_input[g["wd"].lower()][0] if "wd" in g else None
        try:
            if month is not None:
                if year is None:
                    year = _year_for_weekday(day or 15, month, weekday) if weekday is not None else _REFERENCE_YEAR
                    keep_year = False
                else:
                    keep_year = True
                new = dt.date(year, month, day or 15) + dt.timedelta(days=self.delta)
                if keep_year:
                    repl["y"] = _format_year(g["y"], new.year)
                if day is not None:
                    repl["d"] = _pad(g["d"], new.day, _padded(g))
                if "m" in g:
                    repl["m"] = _pad(g["m"], new.month, _padded(g))
                else:
                    repl["mon"] = self._month_name(g["mon"], new.month)
                if weekday is not None:
                    repl["wd"] = self._weekday_name(g["wd"], new.weekday())
            elif year is not None:
                repl["y"] = _format_year(g["y"], year + self.year_shift)
            elif weekday is not None:
                repl["wd"] = self._weekday_name(g["wd"], (weekday + (self.delta % 6) + 1) % 7)
        except ValueError:  # not a real date ("31-02-2019", "45-13")
            return None
        if "hh" in g:
            hh, mi = int(g["hh"]), int(g["mi"])
            if hh > 23 or mi > 59:
                return None
            repl["hh"] = _pad(g["hh"], self.rng.randint(6, 22), len(g["hh"]) == 2)
            repl["mi"] = f"{self.rng.randrange(0, 60, 5):02d}"
        return _splice(m, repl)

    def _fallback(self, original: str) -> str:
        """Digits replaced (years shifted), keeping everything else; a random date if no digits."""
        if not any(c.isdigit() for c in original):
            return f"{self.rng.randint(1, 28)} {self.rng.choice(self.locale.months)}"

        def digits(run: re.Match[str]) -> str:
            s = run.group()
            if len(s) == 4 and s[:2] in ("19", "20"):
                return str(int(s) + self.year_shift)
            return "".join(str(self.rng.randrange(10)) for _ in s)

        return re.sub(r"\d+", digits, original)

    def _month_name(self, original: str, month: int) -> str:
        abbreviated = self.locale.month_input[original.lower()][1]
        return capitalize_like(original, (self.locale.month_abbr if abbreviated else self.locale.months)[month - 1])

    def _weekday_name(self, original: str, weekday: int) -> str:
        abbreviated = self.locale.weekday_input[original.lower()][1]
        return capitalize_like(original, (self.locale.weekday_abbr if abbreviated else self.locale.weekdays)[weekday])

    # -- ages ---------------------------------------------------------------------------------

    def age(self, original: str) -> str:
        """A different plausible age in the same format ("83", "83 jaar", "83-jarige")."""
        if any(c.isdigit() for c in original):
            return re.sub(r"\d+", lambda r: str(self._near(int(r.group()))), original)
        words, rx = self.locale.number_words, self.locale.number_word_re
        m = rx.search(original) if rx is not None else None
        if m:
            n = self.locale.word_to_number[m.group().lower()]
            new = words[min(self._near(n), len(words) - 1) or 1]
            new = capitalize_like(m.group(), new)
            return original[: m.start()] + new + original[m.end() :]
        return str(self.rng.randint(20, 90))

    def _near(self, n: int) -> int:
        if n >= 90:
            return self.rng.choice([k for k in range(90, 106) if k != n])
        spread = max(2, round(n * 0.08))
        return n + self.rng.choice([k for k in range(-spread, spread + 1) if k and n + k >= 1])


# -- helpers ------------------------------------------------------------------------------------


def _full_year(y: str) -> int:
    if len(y) == 2:
        n = int(y)
        return 2000 + n if n <= 40 else 1900 + n
    return int(y)


def _format_year(original: str, year: int) -> str:
    return f"{year % 100:02d}" if len(original) == 2 else f"{year:04d}"


def _padded(g: dict[str, str]) -> bool:
    parts = [g[k] for k in ("d", "m") if k in g]
    return any(p.startswith("0") and len(p) == 2 for p in parts) or ("m" in g and all(len(p) == 2 for p in parts))


def _pad(original: str, value: int, padded: bool) -> str:
    return f"{value:02d}" if padded else str(value)


def _year_for_weekday(day: int, month: int, weekday: int) -> int:
    """A year near the reference year in which ``day-month`` falls on ``weekday``."""
    for offset in (0, -1, 1, -2, 2, -3, 3, -4, 4, -5, 5, -6, 6):
        year = _REFERENCE_YEAR + offset
        try:
            if dt.date(year, month, day).weekday() == weekday:
                return year
        except ValueError:
            continue
    return _REFERENCE_YEAR


def _splice(m: re.Match[str], repl: dict[str, str]) -> str:
    text = m.string
    out, pos = [], 0
    for start, end, value in sorted((m.start(k), m.end(k), v) for k, v in repl.items()):
        out.append(text[pos:start])
        out.append(value)
        pos = end
    out.append(text[pos:])
    return "".join(out)
