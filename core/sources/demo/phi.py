"""Samplers for PHI surface values other than person names: dates, ages, addresses, phone
numbers, e-mail, URLs/IPs, BSNs (11-proef), IDs, hospitals, institutes, companies, ..."""

from __future__ import annotations

import datetime as dt
import random
import re
import unicodedata

from faker import Faker

from synthdeid.sources.demo import lexicon as lx
from synthdeid.sources.demo.names import Person

MONTHS = (
    "januari",
    "februari",
    "maart",
    "april",
    "mei",
    "juni",
    "juli",
    "augustus",
    "september",
    "oktober",
    "november",
    "december",
)
MONTHS_SHORT = ("jan", "feb", "mrt", "apr", "mei", "jun", "jul", "aug", "sept", "okt", "nov", "dec")
DAYS = ("maandag", "dinsdag", "woensdag", "donderdag", "vrijdag", "zaterdag", "zondag")
DAYS_SHORT = ("ma", "di", "wo", "do", "vr", "za", "zo")
HOLIDAYS = (
    "kerst",
    "Kerstmis",
    "eerste kerstdag",
    "tweede kerstdag",
    "Pasen",
    "Pinksteren",
    "koningsdag",
    "oudejaarsavond",
    "nieuwjaarsdag",
    "Hemelvaartsdag",
    "de herfstvakantie",
    "de zomervakantie",
    "de kerstvakantie",
    "Sinterklaas",
    "moederdag",
    "vaderdag",
    "carnaval",
)


def bsn_valid(digits: str) -> bool:
    """The Dutch 11-proef for a 9-digit BSN."""
    if len(digits) != 9 or not digits.isdigit():
        return False
    total = sum(int(d) * w for d, w in zip(digits[:8], range(9, 1, -1))) - int(digits[8])
    return total % 11 == 0 and digits[0] != "0"


def ascii_fold(s: str) -> str:
    return unicodedata.normalize("NFKD", s).encode("ascii", "ignore").decode()


class PhiSampler:
    """Random PHI values from one seeded ``random.Random`` and one seeded ``Faker``."""

    def __init__(self, rng: random.Random, fake: Faker) -> None:
        self.rng = rng
        self.fake = fake
        self.cities = [c for c in fake.provider("faker.providers.address").cities if len(c) < 22]

    # -- dates and ages -------------------------------------------------------------------
    def format_date(self, d: dt.date, style: str | None = None) -> str:
        """``d`` written the way carers write dates; ``style`` picks one format."""
        r = self.rng
        styles = (
            "dmy",
            "dmy",
            "dmy_short",
            "dm",
            "dm",
            "dm_slash",
            "d_month",
            "d_month",
            "d_month_y",
            "wd_dm",
            "weekday",
            "d_mon",
            "dmy2",
            "dmy_slash",
            "iso",
            "wd_d_month",
        )
        s = style or r.choice(styles)
        day, mon, yr = d.day, d.month, d.year
        z = r.random() < 0.6  # zero-padded?
        dd = f"{day:02d}" if z else str(day)
        mm = f"{mon:02d}" if z else str(mon)
        if s == "dmy":
            return f"{dd}-{mm}-{yr}"
        if s == "dmy_short":
            return f"{day}-{mon}-{yr}"
        if s == "dmy2":
            return f"{dd}-{mm}-{yr % 100:02d}"
        if s == "dmy_slash":
            return f"{dd}/{mm}/{yr}"
        if s == "dm":
            return f"{dd}-{mm}" if r.random() < 0.7 else f"{day}.{mon}"
        if s == "dm_slash":
            return f"{day}/{mon}"
        if s == "d_month":
            return f"{day} {MONTHS[mon - 1]}"
        if s == "d_month_y":
            return f"{day} {MONTHS[mon - 1]} {yr}"
        if s == "d_mon":
            return f"{day} {MONTHS_SHORT[mon - 1]}"
        if s == "wd_dm":
            return f"{DAYS_SHORT[d.weekday()]} {day}-{mon}"
        if s == "wd_d_month":
            return f"{DAYS[d.weekday()]} {day} {MONTHS[mon - 1]}"
        if s == "weekday":
            return DAYS[d.weekday()]
        if s == "iso":
            return d.isoformat()
        if s == "year":
            return str(yr)
        if s == "month_year":
            return f"{MONTHS[mon - 1]} {yr}"
        if s == "month":
            return MONTHS[mon - 1]
        raise ValueError(s)

    def near_date(self, ref: dt.date, lo: int = -10, hi: int = 14) -> dt.date:
        return ref + dt.timedelta(days=self.rng.randint(lo, hi))

    def birth_date(self, age: int, ref: dt.date) -> dt.date:
        return ref - dt.timedelta(days=age * 365 + self.rng.randint(0, 364))

    def holiday(self) -> str:
        return self.rng.choice(HOLIDAYS)

    def age_text(self, age: int) -> str:
        r = self.rng.random()
        if r < 0.4:
            return f"{age} jaar"
        if r < 0.65:
            return f"{age}-jarige"
        if r < 0.75:
            return f"{age} jr"
        return str(age)

    # -- addresses ---------------------------------------------------------------------
    def street(self) -> str:
        stem, suf = self.rng.choice(lx.STREET_STEMS), self.rng.choice(lx.STREET_SUFFIX)
        if stem.lower().endswith(suf[:3]):
            suf = "straat"
        return stem + suf

    def house_number(self) -> str:
        r = self.rng
        n = str(r.choice((r.randint(1, 40), r.randint(1, 150), r.randint(1, 400))))
        x = r.random()
        if x < 0.1:
            n += r.choice("abc")
        elif x < 0.16:
            n += f"-{r.randint(1, 30)}"
        elif x < 0.2:
            n += " bis"
        return n

    def postcode(self) -> str:
        r = self.rng
        letters = "".join(r.choice("ABCDEGHJKLMNPRSTVWXZ") for _ in range(2))
        sep = " " if r.random() < 0.55 else ""
        return f"{r.randint(1000, 9999)}{sep}{letters}"

    def city(self) -> str:
        return self.rng.choice(self.cities)

    def street_address(self) -> str:
        return f"{self.street()} {self.house_number()}"

    def full_address(self) -> str:
        r = self.rng.random()
        if r < 0.6:
            return f"{self.street_address()}, {self.postcode()} {self.city()}"
        if r < 0.85:
            return f"{self.street_address()} {self.postcode()} {self.city()}"
        return f"{self.street_address()} te {self.city()}"

    def country(self) -> str:
        return self.rng.choice(lx.COUNTRIES)

    # -- contact ---------------------------------------------------------------------
    def phone(self, mobile: bool | None = None) -> str:
        r = self.rng
        digits = lambda k: "".join(str(r.randint(0, 9)) for _ in range(k))  # noqa: E731
        if mobile is None:
            mobile = r.random() < 0.6
        if mobile:
            n = "6" + str(r.randint(1, 5)) + digits(7)
            s = r.random()
            if s < 0.35:
                return f"06-{n[1:]}"
            if s < 0.55:
                return f"06 {n[1:3]} {n[3:5]} {n[5:7]} {n[7:]}"
            if s < 0.75:
                return f"0{n}"
            if s < 0.88:
                return f"+31 6 {n[1:]}"
            return f"+316{n[1:]}"
        area = r.choice(
            (
                "20",
                "10",
                "30",
                "70",
                "50",
                "40",
                "24",
                "26",
                "53",
                "38",
                "58",
                "73",
                "43",
                "76",
                "88",
                "85",
                "345",
                "318",
                "418",
                "575",
                "495",
                "546",
                "592",
                "522",
            )
        )
        rest = digits(9 - len(area))
        s = r.random()
        if s < 0.45:
            return f"0{area}-{rest}"
        if s < 0.65:
            return f"0{area} {rest[:3]} {rest[3:]}" if len(rest) > 5 else f"0{area} {rest}"
        if s < 0.8:
            return f"(0{area}) {rest}"
        if s < 0.9:
            return f"0{area}{rest}"
        return f"+31 {area} {rest}"

    def email(self, person: Person | None = None, org: str | None = None) -> str:
        r = self.rng
        dom = r.choice(
            (
                "gmail.com",
                "hotmail.com",
                "outlook.com",
                "ziggo.nl",
                "kpnmail.nl",
                "live.nl",
                "planet.nl",
                "home.nl",
                "xs4all.nl",
                "hetnet.nl",
                "icloud.com",
            )
        )
        if org:
            slug = re.sub(r"[^a-z0-9]+", "", ascii_fold(org).lower()) or "zorg"
            local = r.choice(
                (
                    "info",
                    "planning",
                    "secretariaat",
                    "zorgbemiddeling",
                    "teamnoord",
                    "receptie",
                    "wijkteam",
                    "administratie",
                    "cliëntenservice",
                )
            )
            return f"{ascii_fold(local)}@{slug}.nl"
        if person is None:
            return self.fake.free_email()
        first = ascii_fold(person.first).lower()
        last = re.sub(r"[^a-z]", "", ascii_fold(person.last).lower())
        tus = ascii_fold(person.tussen).replace(" ", "").replace("'", "").lower()
        form = r.choice(
            (
                f"{first}.{tus}{last}",
                f"{first[0]}.{tus}{last}",
                f"{first}{last}{r.randint(1, 99)}",
                f"{tus}{last}.{first[0]}",
                f"{first}_{last}",
                f"{first[0]}{last}",
            )
        )
        return f"{form}@{dom}"

    def url(self, org: str | None = None) -> str:
        r = self.rng
        if r.random() < 0.2:
            return r.choice(
                (
                    f"192.168.{r.randint(0, 20)}.{r.randint(2, 250)}",
                    f"10.{r.randint(0, 40)}.{r.randint(0, 255)}.{r.randint(2, 250)}",
                    self.fake.ipv4_public(),
                )
            )
        slug = re.sub(r"[^a-z0-9]+", "-", ascii_fold(org or self.fake.last_name()).lower()).strip("-") or "zorg"
        path = r.choice(
            (
                "",
                "",
                "/clientportaal",
                "/contact",
                "/wonen",
                "/dagbesteding",
                "/mijn-dossier",
                "/over-ons/locaties",
                "/agenda",
            )
        )
        pre = r.choice(("www.", "https://www.", "http://", "https://", "www."))
        return f"{pre}{slug}.nl{path}"

    # -- identifiers -----------------------------------------------------------------
    def bsn(self) -> str:
        r = self.rng
        while True:
            d = [r.randint(1, 9)] + [r.randint(0, 9) for _ in range(7)]
            check = sum(x * w for x, w in zip(d, range(9, 1, -1))) % 11
            if check < 10:
                s = "".join(map(str, d)) + str(check)
                return s if r.random() < 0.75 else f"{s[:4]}.{s[4:6]}.{s[6:]}"

    def client_number(self) -> str:
        """A client or dossier number."""
        return self.ident(self.rng.choice((0, 1, 2, 3, 7)))

    def ident(self, k: int | None = None) -> str:
        """Client, dossier, insurance, IBAN, licence-plate or AGB numbers."""
        r = self.rng
        k = r.randrange(8) if k is None else k
        if k == 0:
            return f"{r.randint(100000, 999999)}"
        if k == 1:
            return f"{r.randint(2015, 2023)}-{r.randint(1, 9999):05d}"
        if k == 2:
            return f"C{r.randint(10000, 99999)}"
        if k == 3:
            return f"{r.randint(10000000, 99999999)}"
        if k == 4:
            bank = r.choice(("ABNA", "INGB", "RABO", "SNSB", "TRIO", "ASNB"))
            acc = f"{r.randint(0, 9999999999):010d}"
            return f"NL{r.randint(10, 99)} {bank} {acc[:4]} {acc[4:8]} {acc[8:]}"
        if k == 5:
            letters = "".join(r.choice("BDFGHJKLNPRSTVXZ") for _ in range(3))
            return f"{r.randint(1, 99)}-{letters}-{r.randint(1, 9)}"
        if k == 6:
            return f"01{r.randint(100000, 999999)}"
        return f"P-{r.randint(1000, 9999)}-{r.randint(10, 99)}"

    # -- places and organisations ----------------------------------------------------
    def hospital(self) -> str:
        r = self.rng
        if r.random() < 0.8:
            return r.choice(lx.HOSPITALS)
        return r.choice((f"Ziekenhuis {self.city()}", f"{self.city()} Medisch Centrum"))

    def care_institute(self) -> str:
        r = self.rng
        x = r.random()
        if x < 0.45:
            return f"{r.choice(lx.INSTITUTE_KIND)} {r.choice(lx.INSTITUTE_NAME)}"
        if x < 0.7:
            return r.choice(lx.INSTITUTE_NAME)
        return r.choice(lx.INSTITUTE_BRANDS)

    def pharmacy(self) -> str:
        r = self.rng
        return r.choice(
            (
                f"{r.choice(lx.PHARMACY_KIND)} {r.choice(lx.INSTITUTE_NAME)}",
                f"Apotheek {self.city()}",
                f"Apotheek {self.street()}",
                f"{r.choice(lx.PHARMACY_KIND)} {self.fake.last_name()}",
            )
        )

    def organisation(self, kind: str = "") -> str:
        """A company or organisation; ``kind`` narrows it (shop, hulp, insurer, thuiszorg,
        transport, fin, work, leisure, housing, fysio, gemeente, pharmacy)."""
        r = self.rng
        if kind in lx.ORG_KINDS:
            return r.choice(lx.ORG_KINDS[kind])
        if kind == "fysio":
            return r.choice(
                (
                    f"Fysiotherapie {self.city()}",
                    f"Fysiotherapiepraktijk {self.fake.last_name()}",
                    f"Paramedisch Centrum {self.city()}",
                    f"Fysio {r.choice(lx.INSTITUTE_NAME)}",
                )
            )
        if kind == "gemeente":
            return r.choice(
                (
                    f"gemeente {self.city()}",
                    f"Gemeente {self.city()}",
                    f"WMO-loket {self.city()}",
                    f"Sociaal Wijkteam {self.city()}",
                )
            )
        if kind == "pharmacy":
            return self.pharmacy()
        x = r.random()
        if x < 0.55:
            return r.choice(lx.ORGANISATIONS)
        if x < 0.7:
            return self.pharmacy()
        if x < 0.78:
            return f"gemeente {self.city()}"
        if x < 0.88:
            return f"{r.choice(lx.COMPANY_KIND)} {self.fake.last_name()}"
        return self.fake.company()

    def internal_location(self) -> str:
        """The identifying part of a ward, room or floor: ``3B``, ``12``, ``De Linde``."""
        r = self.rng
        x = r.random()
        if x < 0.3:
            return f"{r.randint(0, 6)}{r.choice('ABCDEFGH')}"
        if x < 0.55:
            return str(r.choice((r.randint(1, 40), r.randint(100, 350))))
        if x < 0.65:
            return f"{r.randint(1, 5)}.{r.randint(1, 30)}"
        return r.choice(lx.WARD_NAMES)

    def profession(self) -> str:
        return self.rng.choice(lx.PROFESSIONS)

    def other(self) -> tuple[str, str]:
        """An ``Other`` value with the plain words that introduce it (a pet, a boat)."""
        r = self.rng
        if r.random() < 0.8:
            return r.choice(lx.PET_KIND), r.choice(lx.PET_NAMES)
        return "boot", r.choice(lx.BOAT_NAMES)
