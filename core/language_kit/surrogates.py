"""Surrogate PHI for one document, for every canonical tag: seeded, consistent and fail-closed.

``BaseSurrogates`` holds what every language shares: the memo that keeps one replacement per
original, the retry loop that refuses to return the original, and the generators that only need
word lists (e-mail, URL/IP, phone layout, IDs, professions, "Other"). A language pack subclasses
it with its name, date and place rules and its national identity number.
"""

from __future__ import annotations

import random
import re
import string
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass, field
from functools import partial

from faker import Faker

from synthdeid.errors import SurrogateError
from synthdeid.phi.seeds import derive_seed

from .dates import DateLocale, DateSurrogates
from .institutions import FUNCTION_WORDS
from .names import NameLocale, NameSurrogates
from .places import PlaceSurrogates
from .shapes import ascii_slug, capitalize_like, match_case, shape_replace

MAX_TRIES = 25
INSTITUTION_KINDS = {"Hospital": "hospital", "Care_Institute": "care", "Organization_Company": "organization"}
"""The labels of institution names and their kinds (``synthdeid.language_kit.institutions``)."""
_IPV4 = re.compile(r"^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$")
_URL = re.compile(r"^(?P<scheme>[A-Za-z][\w+.-]*://)?(?P<www>www\d?\.)?(?P<host>[^/:?#\s]+)(?P<rest>.*)$")
_EMAIL = re.compile(r"^(?P<local>[^@\s]+)@(?P<domain>[^@\s]+)$")


@dataclass(frozen=True)
class PhoneRules:
    """What of a phone number is kept: the country code, a trunk or service prefix, the digit that
    marks a mobile number; everything else gets new digits in the original's layout."""

    country_code_len: int = 2
    """Digits of the country code after "+" or "00" (31, 34, 46, 49)."""
    trunk: str = "0"
    """The national trunk prefix kept ("" where there is none, as in Spain)."""
    service_prefixes: tuple[str, ...] = ()
    """Three digits after the trunk that are kept with it ("800" for 0800 numbers)."""
    mobile_digits: str = ""
    """A first national digit kept when it marks a mobile number ("6" for 06)."""
    mobile_min_rest: int = 8
    """Digits after the kept prefix a number needs for ``mobile_digits`` to be kept too."""
    keep_first_digit: bool = False
    """Keep the first national digit always (Spain: 6/7 mobile, 8/9 landline)."""


@dataclass(frozen=True)
class SurrogateData:
    """A language's word lists for the generators shared by every pack."""

    names: NameLocale
    """First names and surnames, titles and particles."""
    dates: DateLocale
    """Month and weekday names and the words around dates, times and ages."""
    professions: Sequence[str]
    """Professions drawn for ``Profession`` spans."""
    email_domains: Sequence[str]
    """Casefolded free e-mail domains; an address at one of them gets another one."""
    domain_words: Sequence[str]
    """Words for made-up domains ("zorg", "clinica")."""
    phone: PhoneRules = PhoneRules()
    """What of a phone number is kept."""
    path_words: Sequence[str] = ()
    """Words of a web page's path (``contact``, ``afspraak``) a URL's path words become (none: the
    ``domain_words``)."""
    default_tld: str = "com"
    """The top-level domain of a new e-mail domain when the original has none."""
    swap_groups: Sequence[Sequence[str]] = ()
    """Words of "Other" replaced by another of the same group (sex, kinship: "varón" <-> "mujer");
    the first group a word is in decides."""
    swaps: dict[str, tuple[str, ...]] = field(init=False)
    """Derived: casefolded word -> its swap group."""

    def __post_init__(self) -> None:
        swaps: dict[str, tuple[str, ...]] = {}
        for group in self.swap_groups:
            for word in group:
                swaps.setdefault(word.casefold(), tuple(group))
        object.__setattr__(self, "swaps", swaps)


class BaseSurrogates:
    """Surrogates for the PHI of one document (implements ``DocumentSurrogates``).

    ``surrogate(original, label)`` gives the same replacement for the same original, never
    returns the original (case-insensitively), and raises ``SurrogateError`` for a label it
    does not know or when no acceptable replacement is found.
    """

    language: str = "?"
    """The language's name in messages ("Dutch")."""
    code: str = "?"
    """The pack's code; seeds the document's random stream ("nl")."""
    places_class: type[PlaceSurrogates] = PlaceSurrogates
    """The language's ``PlaceSurrogates`` subclass."""

    def __init__(self, doc_id: str, seed: int, faker: Faker, data: SurrogateData) -> None:
        self.rng = random.Random(derive_seed(seed, f"{self.code}-surrogates", doc_id))
        self._faker = faker
        self.data = data
        self.names = NameSurrogates(self.rng, data.names)
        self.dates = DateSurrogates(self.rng, data.dates)
        self.places = self.places_class(self.rng, self.fake, data.names.surnames)
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

    def keeps_type_words(self, label: str) -> bool:
        """Whether ``label``'s surrogates keep the original's type words (``Apotheek``, ``Hospital
        Universitario``) and draw only its name (``api.KeepsTypeWords``): then ``surrogate`` takes
        the whole span and, as ``keep``, the study's head words of the label."""
        kind = INSTITUTION_KINDS.get(label)
        return kind is not None and self.places.institutions.type_aware(kind)

    def surrogate(self, original: str, label: str, keep: Collection[str] = ()) -> str:
        """The replacement of ``original`` (a span's text labelled ``label``); ``keep``: more type
        words an institution's surrogate keeps (``keeps_type_words``)."""
        generate = self._generators.get(label)
        if keep and self.keeps_type_words(label):
            kind = INSTITUTION_KINDS[label]
            method = {"hospital": self.places.hospital, "care": self.places.care_institute}.get(
                kind, self.places.organization
            )
            generate = partial(method, keep=frozenset(keep))
        if generate is None:
            raise SurrogateError(
                f"the {self.language} language pack has no surrogate for label {label!r}; it knows "
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
        raise SurrogateError(f"no {label} surrogate different from {original!r} after {MAX_TRIES} attempts")

    # -- contact details and numbers ----------------------------------------------------------

    def phone(self, original: str) -> str:
        """New digits; separators, the country code and the rules' prefixes kept."""
        rules = self.data.phone
        digits = [i for i, c in enumerate(original) if c.isdigit()]
        s = "".join(original[i] for i in digits)
        keep = 0
        if original.lstrip().startswith("+"):
            keep = rules.country_code_len if len(s) > 6 else 0
        elif s.startswith("00"):
            keep = 2 + rules.country_code_len
        if keep == 0 and rules.trunk and s.startswith(rules.trunk):
            keep = 1 + 3 if s[1:4] in rules.service_prefixes else 1
        fixed = set(digits[:keep])
        fixed |= {i for i in digits if original[i - 1 : i + 2] == "(0)"}
        rest = [i for i in digits if i not in fixed]
        if (rest and rules.keep_first_digit and len(rest) > 4) or (
            keep and rest and original[rest[0]] in rules.mobile_digits and len(rest) >= rules.mobile_min_rest
        ):
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
        # names without an ASCII form (Cyrillic, Greek, ...) fall back to a Faker user name
        first = (
            ascii_slug(self.rng.choice(self.names.male + self.names.female))
            or ascii_slug(self.fake().user_name())
            or "user"
        )
        last = ascii_slug(self.rng.choice(self.names.surnames)) or ascii_slug(self.fake().user_name()) or "user"
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
        if domain.casefold() in self.data.email_domains:
            new_domain = self.rng.choice(self.data.email_domains)
        else:
            tld = domain.rsplit(".", 1)[-1] if "." in domain else self.data.default_tld
            new_domain = f"{self._domain_word()}.{tld.lower()}"
        return f"{new_local}@{new_domain}"

    def url_ip(self, original: str) -> str:
        """A new IPv4 address, or a URL with a new host (scheme, www and TLD kept)."""
        if _IPV4.match(original):
            return ".".join(str(self.rng.randint(1, 254)) for _ in range(4))
        if ":" in original and re.fullmatch(r"[0-9A-Fa-f:]+", original):  # IPv6
            return "".join(self.rng.choice("0123456789abcdef") if c.isalnum() else c for c in original)
        m = _URL.match(original)
        if m is None or "." not in m.group("host"):
            return shape_replace(original, self.rng)
        host = m.group("host")
        tld = host.rsplit(".", 1)[-1]
        new_host = f"{self._domain_word()}.{tld}"
        rest = m.group("rest")
        return (m.group("scheme") or "") + (m.group("www") or "") + new_host + self._path(rest)

    def _path(self, rest: str) -> str:
        """A URL's path, query and fragment with each word replaced by a path word and each number
        by new digits (``/clientportaal/123`` -> ``/afspraak/480``): never random letters."""
        words = tuple(self.data.path_words or self.data.domain_words)

        def word(m: re.Match[str]) -> str:
            piece = m.group()
            if piece.isdigit():
                return "".join(self.rng.choice(string.digits) for _ in piece)
            return match_case(piece, self.rng.choice(words))

        return re.sub(r"[^\W\d_]+|\d+", word, rest)

    def _domain_word(self) -> str:
        """A plausible domain name without TLD: a surname, a town, or a word and a town."""
        form = self.rng.randrange(3)
        fallback = self.data.domain_words[0]
        if form == 0:
            return ascii_slug(self.rng.choice(self.names.surnames).split()[-1]) or fallback
        city = ascii_slug(self.places.new_city()) or fallback
        return city if form == 1 else f"{self.rng.choice(self.data.domain_words)}-{city}"

    def ssn(self, original: str) -> str:
        """The national identity number; a language pack overrides this with its check digits."""
        return shape_replace(original, self.rng)

    def identifier(self, original: str) -> str:
        """Same shape: digits -> random digits, letters -> random letters of the same case."""
        return shape_replace(original, self.rng)

    def other(self, original: str) -> str:
        """A word of the same swap group (sex, kinship: ``varón`` -> ``mujer``), word by word: a
        capitalised word becomes a first name (a pet's, a boat's name), a number new digits, a code
        new letters and digits in its shape, a function word or particle stays, and any other
        lower-case word becomes a word of a swap group (or a first name, lower-cased): nothing of
        the original but its function words is kept, and no random letters stand in for words.
        When nothing changed, the span becomes a word of a swap group (or a first name)."""
        swapped = self._swap(original)
        if swapped is not None:
            return swapped
        given = self.names.male + self.names.female
        kept = FUNCTION_WORDS | {p.casefold() for p in self.data.names.particles}
        group_words = [w for group in self.data.swap_groups for w in group]

        def word(m: re.Match[str]) -> str:
            w = m.group()
            new = self._swap(w)
            if new is not None:
                return new
            if w.isdigit() or any(c.isdigit() for c in w) or (w.isupper() and len(w) <= 4):
                return shape_replace(w, self.rng)  # a number or a code ("XYZ-9", "A12")
            if w[:1].isupper():
                return capitalize_like(w, self.rng.choice(given))
            if w.casefold() in kept:
                return w
            return self.rng.choice([g for g in group_words if len(g) > 2] or given).lower()

        new = re.sub(r"\w+", word, original)
        if new.casefold() != original.casefold():
            return new
        groups = [w for w in group_words if w.casefold() != original.casefold()]
        return capitalize_like(original, self.rng.choice(groups or given))

    def _swap(self, word: str) -> str | None:
        """Another word of ``word``'s swap group, or None when it is in none."""
        group = self.data.swaps.get(word.casefold())
        if group is None:
            return None
        return capitalize_like(word, self.rng.choice([w for w in group if w.casefold() != word.casefold()]))

    def profession(self, original: str) -> str:
        """A profession from the language's list."""
        low = original.casefold()
        choices = [p for p in self.data.professions if p.casefold() != low]
        return capitalize_like(original, self.rng.choice(choices))
