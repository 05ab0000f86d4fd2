"""Dutch date and age surrogates that keep the original's format.

Dates are shifted by one random number of days per document (30-330 days either way), so
intervals between the dates of a note are kept and a shifted date always differs from its
original; a date without a year or day shifts within a reference year.
"""

from __future__ import annotations

import datetime as dt
import random
import re

from .data import MONTH_ABBR, MONTH_INPUT, MONTHS, WEEKDAY_ABBR, WEEKDAY_INPUT, WEEKDAYS
from .shapes import capitalize_like

_MON = "|".join(sorted(MONTH_INPUT, key=len, reverse=True))
_WD = "|".join(sorted(WEEKDAY_INPUT, key=len, reverse=True))
_TIME = r"(?:(?P<tsep>,?\s*(?:om\s+)?)(?P<hh>\d{1,2})[:.](?P<mi>\d{2})(?:\s*u(?:ur)?)?)?"
_WD_PREFIX = rf"(?:(?P<wd>{_WD})\.?,?\s+)?"
_PATTERNS = [
    re.compile(p + _TIME, re.IGNORECASE)
    for p in (
        _WD_PREFIX + r"(?P<y>\d{4})(?P<s>[-/.])(?P<m>\d{1,2})(?P=s)(?P<d>\d{1,2})",
        _WD_PREFIX + r"(?P<d>\d{1,2})(?P<s>[-/.])(?P<m>\d{1,2})(?P=s)(?P<y>\d{4}|\d{2})",
        r"(?P<m>\d{1,2})(?P<s>[-/.])(?P<y>\d{4})",
        _WD_PREFIX + r"(?P<d>\d{1,2})(?P<s>[-/.])(?P<m>\d{1,2})",
        _WD_PREFIX + rf"(?:(?P<d>\d{{1,2}})(?:e|ste|de)?[\s./-]+)?(?P<mon>{_MON})\b\.?"
        r"(?:[\s./,-]+['’]?(?P<y>\d{4}|\d{2}))?",
        r"['’]?(?P<y>\d{4})",
        r"['’](?P<y>\d{2})",
        rf"(?P<wd>{_WD})\.?",
        r"",  # time only
    )
]
_REFERENCE_YEAR = 2020  # a leap year, so "29-02" without a year is valid


class DateSurrogates:
    """Shifted dates and nearby ages for one document."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.delta = rng.choice((-1, 1)) * rng.randint(30, 330)
        self.year_shift = 1 if self.delta > 0 else -1

    # -- dates --------------------------------------------------------------------------------

    def date(self, original: str) -> str:
        """A different, valid date in the format of ``original``."""
        for pattern in _PATTERNS:
            m = pattern.fullmatch(original)
            if m and any(m.groupdict().get(g) for g in ("y", "m", "d", "mon", "wd", "hh")):
                new = self._rewrite(m)
                if new is not None:
                    return new
        return self._fallback(original)

    def _rewrite(self, m: re.Match[str]) -> str | None:
        g = {k: v for k, v in m.groupdict().items() if v is not None}
        repl: dict[str, str] = {}
        month = int(g["m"]) if "m" in g else MONTH_INPUT[g["mon"].lower()][0] if "mon" in g else None
        year = _full_year(g["y"]) if "y" in g else None
        day = int(g["d"]) if "d" in g else None
        weekday = WEEKDAY_INPUT[g["wd"].lower()][0] if "wd" in g else None
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
                    repl["mon"] = _month_name(g["mon"], new.month)
                if weekday is not None:
                    repl["wd"] = _weekday_name(g["wd"], new.weekday())
            elif year is not None:
                repl["y"] = _format_year(g["y"], year + self.year_shift)
            elif weekday is not None:
                repl["wd"] = _weekday_name(g["wd"], (weekday + (self.delta % 6) + 1) % 7)
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
            return f"{self.rng.randint(1, 28)} {self.rng.choice(MONTHS)}"

        def digits(run: re.Match[str]) -> str:
            s = run.group()
            if len(s) == 4 and s[:2] in ("19", "20"):
                return str(int(s) + self.year_shift)
            return "".join(str(self.rng.randrange(10)) for _ in s)

        return re.sub(r"\d+", digits, original)

    # -- ages ---------------------------------------------------------------------------------

    def age(self, original: str) -> str:
        """A different plausible age in the same format ("83", "83 jaar", "83-jarige")."""
        if any(c.isdigit() for c in original):
            return re.sub(r"\d+", lambda r: str(self._near(int(r.group()))), original)
        m = _NUMBER_WORD.search(original)
        if m:
            n = _WORD_TO_NUMBER[m.group().lower()]
            new = _NUMBER_WORDS[min(self._near(n), 99) or 1]
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
    return any(p.startswith("0") and len(p) == 2 for p in parts) or (
        "m" in g and all(len(p) == 2 for p in parts)
    )


def _pad(original: str, value: int, padded: bool) -> str:
    return f"{value:02d}" if padded else str(value)


def _month_name(original: str, month: int) -> str:
    abbreviated = MONTH_INPUT[original.lower()][1]
    return capitalize_like(original, (MONTH_ABBR if abbreviated else MONTHS)[month - 1])


def _weekday_name(original: str, weekday: int) -> str:
    abbreviated = WEEKDAY_INPUT[original.lower()][1]
    return capitalize_like(original, (WEEKDAY_ABBR if abbreviated else WEEKDAYS)[weekday])


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


def _number_words() -> list[str]:
    units = ["", "een", "twee", "drie", "vier", "vijf", "zes", "zeven", "acht", "negen"]
    teens = ["tien", "elf", "twaalf", "dertien", "veertien", "vijftien", "zestien", "zeventien",
             "achttien", "negentien"]
    tens = ["", "", "twintig", "dertig", "veertig", "vijftig", "zestig", "zeventig", "tachtig", "negentig"]
    words = [""] + units[1:] + teens
    for t in range(2, 10):
        words.append(tens[t])
        for u in range(1, 10):
            words.append(units[u] + ("ën" if units[u].endswith("e") else "en") + tens[t])
    return words


_NUMBER_WORDS = _number_words()
_WORD_TO_NUMBER = {w: i for i, w in enumerate(_NUMBER_WORDS) if w}
_NUMBER_WORD = re.compile(
    "|".join(sorted((w for w in _WORD_TO_NUMBER if len(w) > 3), key=len, reverse=True))
    + "|"
    + "|".join(rf"\b{w}\b" for w in _WORD_TO_NUMBER if len(w) <= 3),
    re.IGNORECASE,
)
