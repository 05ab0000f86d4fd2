"""Dutch surrogate PHI for one document: every canonical tag, seeded, consistent and fail-closed."""

from __future__ import annotations

import random
import re
import string
from collections.abc import Callable

from faker import Faker

from synthdeid.errors import SurrogateError
from synthdeid.language import derive_seed

from .data import EMAIL_DOMAINS, PROFESSIONS, name_lists
from .dates import DateSurrogates
from .names import NameSurrogates
from .places import PlaceSurrogates
from .shapes import ascii_slug, capitalize_like, shape_replace

MAX_TRIES = 25
_IPV4 = re.compile(r"^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$")
_URL = re.compile(r"^(?P<scheme>[A-Za-z][\w+.-]*://)?(?P<www>www\d?\.)?(?P<host>[^/:?#\s]+)(?P<rest>.*)$")
_EMAIL = re.compile(r"^(?P<local>[^@\s]+)@(?P<domain>[^@\s]+)$")


class DutchSurrogates:
    """Surrogates for the PHI of one Dutch document (implements ``DocumentSurrogates``).

    ``surrogate(original, label)`` gives the same replacement for the same original, never
    returns the original (case-insensitively), and raises ``SurrogateError`` for a label it
    does not know or when no acceptable replacement is found.
    """

    def __init__(self, doc_id: str, seed: int, faker: Faker) -> None:
        self.rng = random.Random(derive_seed(seed, "nl-surrogates", doc_id))
        self._faker = faker
        self.names = NameSurrogates(self.rng)
        self.dates = DateSurrogates(self.rng)
        self.places = PlaceSurrogates(self.rng, self.fake)
        self._memo: dict[tuple[str, str], str] = {}
        self._generators: dict[str, Callable[[str], str]] = {
            "Name": self.names.name,
            "Initials": self.names.initials,
            "Date": self.dates.date,
            "Age": self.dates.age,
            "Address": self.places.address,
            "Email": self.email,
            "Phone_fax": self.phone,
            "URL_IP": self.url_ip,
            "SSN": self.ssn,
            "ID": self.identifier,
            "Hospital": self.places.hospital,
            "Care_Institute": self.places.care_institute,
            "Organization_Company": self.places.organization,
            "Internal_Location": self.places.internal_location,
            "Profession": self.profession,
            "Other": self.other,
        }

    def fake(self) -> Faker:
        """The pack's Faker, reseeded from this document's random stream (order-independent)."""
        self._faker.seed_instance(self.rng.getrandbits(63))
        return self._faker

    def surrogate(self, original: str, label: str) -> str:
        """The replacement of ``original`` (a span's text labelled ``label``)."""
        generate = self._generators.get(label)
        if generate is None:
            raise SurrogateError(
                f"the Dutch language pack has no surrogate for label {label!r}; it knows "
                + ", ".join(self._generators)
                + " (map the label onto one of them with tags.mapping)"
            )
        key = (label, original)
        if key in self._memo:
            return self._memo[key]
        text = original.strip()
        if not text:
            raise SurrogateError(f"{label} span {original!r} has no text to replace")
        for _ in range(MAX_TRIES):
            new = generate(text).strip()
            if new and new.casefold() != text.casefold() and new.casefold() != original.casefold():
                self._memo[key] = new
                return new
        raise SurrogateError(
            f"no {label} surrogate different from {original!r} after {MAX_TRIES} attempts"
        )

    # -- contact details and numbers ----------------------------------------------------------

    def phone(self, original: str) -> str:
        """New digits; separators and the prefix (0, 06, +31, 0031, 0800/0900, "(0)") kept."""
        digits = [i for i, c in enumerate(original) if c.isdigit()]
        s = "".join(original[i] for i in digits)
        keep = 0
        if original.lstrip().startswith("+"):
            keep = 2 if len(s) > 6 else 0
        elif s.startswith("00"):
            keep = 4
        if keep == 0 and s.startswith("0"):
            keep = 4 if s[1:4] in ("800", "900") else 1
        fixed = set(digits[:keep])
        fixed |= {i for i in digits if original[i - 1 : i + 2] == "(0)"}
        rest = [i for i in digits if i not in fixed]
        if keep and rest and original[rest[0]] == "6" and len(rest) >= 8:  # mobile: 06 / +31 6
            fixed.add(rest.pop(0))
        if not rest:  # too short to be a number with a prefix
            return shape_replace(original, self.rng)
        out = list(original)
        for n, i in enumerate(rest):
            low = 1 if n == 0 and (keep or original[i] != "0") else 0
            out[i] = str(self.rng.randint(low, 9))
        return "".join(out)

    def email(self, original: str) -> str:
        """A new address shaped like the original (``j.jansen@...`` -> ``p.devries@...``)."""
        m = _EMAIL.match(original)
        if m is None:
            return shape_replace(original, self.rng)
        local, domain = m.group("local"), m.group("domain")
        male, female, surnames = name_lists()
        first = ascii_slug(self.rng.choice(male + female))
        last = ascii_slug(self.rng.choice(surnames))
        if "." in local:
            head = local.split(".")[0]
            new_local = f"{first[0] if len(head) <= 2 else first}.{last}"
        elif "_" in local:
            new_local = f"{first}_{last}"
        else:
            new_local = f"{first[0]}{last}" if len(local) <= 8 else f"{first}{last}"
        n_digits = sum(c.isdigit() for c in local)
        if n_digits:
            new_local += "".join(self.rng.choice(string.digits) for _ in range(n_digits))
        if domain.casefold() in EMAIL_DOMAINS:
            new_domain = self.rng.choice(EMAIL_DOMAINS)
        else:
            tld = domain.rsplit(".", 1)[-1] if "." in domain else "nl"
            new_domain = f"{self._domain_word()}.{tld.lower()}"
        return f"{new_local}@{new_domain}"

    def url_ip(self, original: str) -> str:
        """A new IPv4 address, or a URL with a new host (scheme, www and TLD kept)."""
        if _IPV4.match(original):
            return ".".join(str(self.rng.randint(1, 254)) for _ in range(4))
        if ":" in original and re.fullmatch(r"[0-9A-Fa-f:]+", original):  # IPv6
            return "".join(
                self.rng.choice("0123456789abcdef") if c.isalnum() else c for c in original
            )
        m = _URL.match(original)
        if m is None or "." not in m.group("host"):
            return shape_replace(original, self.rng)
        host = m.group("host")
        tld = host.rsplit(".", 1)[-1]
        new_host = f"{self._domain_word()}.{tld}"
        rest = m.group("rest")
        return (m.group("scheme") or "") + (m.group("www") or "") + new_host + shape_replace(rest, self.rng)

    def _domain_word(self) -> str:
        """A plausible Dutch domain name without TLD ("dekorte", "zorggroep-ees")."""
        form = self.rng.randrange(3)
        if form == 0:
            return ascii_slug(self.rng.choice(name_lists()[2]).split()[-1]) or "zorg"
        city = ascii_slug(self.fake().city()) or "zorg"
        return city if form == 1 else f"{self.rng.choice(('zorg', 'ggz', 'thuiszorg', 'mc', 'praktijk'))}-{city}"

    def ssn(self, original: str) -> str:
        """A BSN that passes the 11-proef, in the original's layout ("123.456.782")."""
        positions = [i for i, c in enumerate(original) if c.isdigit()]
        if len(positions) not in (8, 9):
            return shape_replace(original, self.rng)
        bsn = make_bsn(self.rng, leading_zero=len(positions) == 8)
        digits = bsn[-len(positions) :]
        out = list(original)
        for i, d in zip(positions, digits):
            out[i] = d
        return "".join(out)

    def identifier(self, original: str) -> str:
        """Same shape: digits -> random digits, letters -> random letters of the same case."""
        return shape_replace(original, self.rng)

    def other(self, original: str) -> str:
        """Shape-preserving letters and digits."""
        return shape_replace(original, self.rng)

    def profession(self, original: str) -> str:
        """A Dutch profession from a list of about seventy."""
        low = original.casefold()
        choices = [p for p in PROFESSIONS if p != low]
        return capitalize_like(original, self.rng.choice(choices))


def make_bsn(rng: random.Random, leading_zero: bool = False) -> str:
    """A random 9-digit burgerservicenummer passing the 11-proef
    (9*d1 + 8*d2 + ... + 2*d8 - d9 divisible by 11)."""
    while True:
        d = [rng.randrange(10) for _ in range(8)]
        if leading_zero:
            d[0] = 0
        check = sum((9 - i) * x for i, x in enumerate(d)) % 11
        if check == 10 or not any(d):
            continue
        return "".join(map(str, d)) + str(check)


def is_valid_bsn(text: str) -> bool:
    """Whether the digits of ``text`` form a 9-digit number passing the 11-proef."""
    d = [int(c) for c in text if c.isdigit()]
    if len(d) != 9 or not any(d):
        return False
    return (sum((9 - i) * x for i, x in enumerate(d[:8])) - d[8]) % 11 == 0
