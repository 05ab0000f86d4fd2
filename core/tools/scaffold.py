"""``synthdeid new-plugin language CODE``: write a new, working language pack from templates.

The pack (``synthdeid-lang-CODE/``) is a package of its own with the ``synthdeid`` entry point,
built on ``synthdeid.toolkit`` (the language helpers of ``synthdeid.language_kit``) like the German example
(``examples/synthdeid-lang-de``). Names (drawn from the locale's lists, and recognised from the
lists of Faker's other locales of the language), real town names, and month and weekday names come
from Faker where it has them; every other word list is a default marked ``TODO``. What Faker cannot
give and a plausible pack needs has a ``test_todo_*`` test in the pack that fails until it is
filled in (``todo_tests``): identity-number check digits always, real town names when the locale
invents its towns, hospital and care-institute templates when the language is not English. Every
other test of the pack passes as generated. The same inputs (and the same Faker) give
byte-identical files.
"""

from __future__ import annotations

import re
import string
import textwrap
import unicodedata
from importlib import resources
from pathlib import Path

from synthdeid.errors import InputError
from synthdeid.tools.scaffold_locale import (
    DEFAULT_POSTCODE,
    FALLBACK_LOCALE,
    MIN_PLACES,
    NAME_WORD,
    FirstNameSources,
    LocaleFacts,
    Source,
    locale_facts,
)

CODE_PATTERN = re.compile(r"[a-z]{2,3}(?:_[a-z]+)?")
LANGUAGE_PATTERN = re.compile(r"[^\W\d_]+(?:[ -][^\W\d_]+)*")
TEMPLATE_DIR = "templates/language"
# (template, path in the new package); {module} is the import name
FILES: tuple[tuple[str, str], ...] = (
    ("pyproject.toml.tmpl", "pyproject.toml"),
    ("README.md.tmpl", "README.md"),
    ("package/__init__.py.tmpl", "{module}/__init__.py"),
    ("package/text.py.tmpl", "{module}/text.py"),
    ("package/data.py.tmpl", "{module}/data.py"),
    ("package/surrogates.py.tmpl", "{module}/surrogates.py"),
    ("tests/test_pack.py.tmpl", "tests/test_pack.py"),
)
ENGLISH_MONTHS = (
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
)
ENGLISH_WEEKDAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")
GENERIC_TLDS = ("com", "org", "net", "eu", "info", "io")
ENGLISH_CANARY = "New phone number : <Phone_faxSTART> {} {} {} {} {} {} {} {} <Phone_faxEND> . <EOD>"
"""The generated packs' canary sentence: real for English, a TODO placeholder for other languages."""
ENGLISH_HOSPITAL_TEMPLATES = ("{city} Hospital", "{city} University Hospital", "{Surname} Hospital")
ENGLISH_CARE_TEMPLATES = ("{care_kind} {care_name}", "{care_kind} {city}", "{company}")
TODO_TESTS = {
    "test_todo_check_digit": "identity numbers: `check_digit()` in `surrogates.py` and a specimen in `VALID_SSN`",
    "test_todo_place_names": "real town names in `PLACE_NAMES` (`data.py`)",
    "test_todo_hospital_templates": "hospital and care-institute templates in `HOSPITAL_TEMPLATES` and "
    "`CARE_TEMPLATES` (`data.py`)",
}
"""The tests of a generated pack that fail until their TODO is filled in, and what fills it."""


def builtin_language_codes() -> set[str]:
    """The codes of the language packs that ship with synthdeid."""
    from synthdeid.plugin_system.manager import DEFAULT_PLUGINS

    prefix = "synthdeid.plugins.languages."
    return {name[len(prefix) :] for name in DEFAULT_PLUGINS if name.startswith(prefix)}


def check_code(code: str) -> None:
    """Raise ``InputError`` unless ``code`` is a short lowercase language code no built-in pack uses."""
    if not CODE_PATTERN.fullmatch(code):
        raise InputError(
            f"{code!r} is not a language code for a pack",
            fix="use 2-3 lowercase letters, optionally with a lowercase variant after an underscore "
            "(fr, nds, pt_br); it names the package (synthdeid-lang-CODE) and `language:` in params.yaml",
        )
    if code in builtin_language_codes():
        raise InputError(
            f"synthdeid already has a built-in {code!r} language pack; a second pack with that code "
            "would collide when both are installed",
            fix=f"choose another code (e.g. {code}_x), or improve the built-in pack in plugins/languages/{code}",
        )


def check_language(language: str) -> None:
    """Raise ``InputError`` unless ``language`` is a plain name ("Norwegian", "Low German")."""
    if not LANGUAGE_PATTERN.fullmatch(language):
        raise InputError(
            f"{language!r} is not a language name the pack can use",
            fix='pass --language with letters, single spaces and hyphens only (e.g. --language "Norwegian")',
        )


def class_prefix(code: str, language: str) -> str:
    """A class-name prefix from the language's name ("Low German" -> "LowGerman")."""
    plain = unicodedata.normalize("NFKD", language).encode("ascii", "ignore").decode("ascii")
    words = re.findall(r"[A-Za-z]+", plain)
    name = "".join(w[0].upper() + w[1:] for w in words)
    return name if name.isidentifier() else "Lang" + code.title().replace("_", "")


def _date_names(kind: str, present: bool, locale: str, language: str) -> str:
    """The body of ``month_names()`` / ``weekday_names()`` in data.py."""
    months = kind == "months"
    attr, keys = ("MONTH_NAMES", "MONTH_KEYS") if months else ("DAY_NAMES", "WEEKDAY_KEYS")
    if present:
        return (
            f"    # From Faker's {locale} date_time provider ({attr}). TODO: review them.\n"
            f'    return faker_names("{attr}", {keys})'
        )
    english = ENGLISH_MONTHS if months else ENGLISH_WEEKDAYS
    lines = "\n            ".join(textwrap.wrap(", ".join(f'"{w}"' for w in english), width=88))
    return (
        f"    # TODO: Faker's {locale} has no {kind[:-1]} names, so these are English: write the {language} ones.\n"
        f"    return ({lines})"
    )


def todo_tests(facts: LocaleFacts) -> list[str]:
    """The ``test_todo_*`` tests that fail in a pack generated for ``facts``'s locale: the check
    digit always; the place names when Faker's locale has no real towns; the hospital templates
    when the language is not English."""
    return [
        name
        for name, failing in (
            ("test_todo_check_digit", True),
            ("test_todo_place_names", facts.places is None),
            ("test_todo_hospital_templates", not facts.english),
        )
        if failing
    ]


def _wrap(items: list[str], indent: int) -> str:
    """``items`` separated by ", ", on lines of at most 100 characters, each indented."""
    lines: list[str] = []
    for item in items:
        if lines and len(lines[-1]) + len(item) + 2 <= 100 - indent:
            lines[-1] += f" {item},"
        else:
            lines.append(f"{item},")
    return "".join(" " * indent + line + "\n" for line in lines)


def _tuple(values: tuple[str, ...] | tuple[Source, ...], indent: int = 4) -> str:
    """A Python tuple literal of strings or string pairs, wrapped at 100 characters."""
    if not values:
        return "()"
    items = [repr(v).replace("'", '"') for v in values]
    if len(items) == 1:
        return f"({items[0]},)"
    return "(\n" + _wrap(items, indent) + ")"


def _list(values: tuple[str, ...]) -> str:
    """A Python list literal of strings (on one line: the templates' lists are short)."""
    return "[" + ", ".join(f'"{v}"' for v in values) + "]"


def _comment(text: str) -> str:
    """``text`` as ``#`` comment lines of at most 100 characters."""
    return "\n".join("# " + line for line in textwrap.wrap(text, width=98, break_on_hyphens=False))


def _first_name_values(prefix: str, sources: FirstNameSources) -> dict[str, str]:
    """The DRAWN_/KNOWN_ source tuples of data.py."""
    return {
        f"{prefix}_male": _tuple(sources.male),
        f"{prefix}_female": _tuple(sources.female),
        f"{prefix}_either": _tuple(sources.either),
    }


def _lines(*lines: str) -> str:
    return "\n".join(lines)


def _places_block(facts: LocaleFacts, language: str) -> str:
    """PLACE_NAMES and FAKER_PLACES in data.py: a TODO list when Faker invents the locale's towns."""
    if facts.places is not None:
        return _lines(
            f"# Real towns: Faker's {facts.locale} has a list of them (FAKER_PLACES). TODO: review them, and put",
            "# the towns of your notes' region in PLACE_NAMES (they come first).",
            "PLACE_NAMES: list[str] = []",
            f'FAKER_PLACES: str | None = "{facts.places}"',
        )
    from faker import Faker

    fake = Faker(facts.locale)
    fake.seed_instance(0)
    return _lines(
        f"# TODO: replace with real place names of {language}. Faker's {facts.locale} has no list of real towns",
        f'# (it makes them up: "{fake.city()}"), so until PLACE_NAMES holds {MIN_PLACES} or more real ones,',
        "# addresses get Faker's made-up towns and tests/test_pack.py::test_todo_place_names fails.",
        "PLACE_NAMES: list[str] = []",
        "FAKER_PLACES: str | None = None",
    )


_SLOTS = (
    "# {city} comes from place_names() (Faker's city() while that is empty), {company} from Faker,",
    "# {surname} ({Surname} capitalised, {surname_core} its last word) from the surnames above, other",
    "# slots from PLACE_WORDS.",
)


def _institutions_block(facts: LocaleFacts, language: str) -> str:
    """The hospital, care-institute and organisation templates in data.py: English ones for English,
    else empty TODO lists (a bare town name stands in for them, and a test of the pack fails)."""
    if facts.english:
        return _lines(
            "# The templates that name new hospitals, care institutes and organisations. TODO: review them.",
            *_SLOTS,
            f"HOSPITAL_TEMPLATES: list[str] = {_list(ENGLISH_HOSPITAL_TEMPLATES)}",
            f"CARE_TEMPLATES: list[str] = {_list(ENGLISH_CARE_TEMPLATES)}",
            'ORGANIZATION_TEMPLATES: tuple[str, ...] = ("{company}", "{org_prefix} {city}")',
            "PLACE_WORDS: dict[str, tuple[str, ...]] = {",
            '    "care_kind": ("Nursing home", "Health centre", "GP practice", "Home care", "Rehabilitation centre"),',
            '    "care_name": ("Birch", "Oak", "Linden", "Sunrise", "Meadow", "Riverside", "Hillside"),',
            '    "org_prefix": ("Municipality of", "City of", "County of"),',
            "}",
        )
    return _lines(
        f"# TODO: replace with how {language} names hospitals and care institutes (nursing homes, GP practices,",
        "# health centres): templates like '<hospital> {city}', '{saint} <hospital>', '<nursing home>",
        f"# {{care_name}}' in {language}. Until both lists have templates, hospitals and care institutes get",
        "# a bare town name (PLACEHOLDER_TEMPLATES) and tests/test_pack.py::test_todo_hospital_templates fails.",
        *_SLOTS,
        "HOSPITAL_TEMPLATES: list[str] = []",
        "CARE_TEMPLATES: list[str] = []",
        f"# Faker's {facts.locale} company names. TODO: add how {language} names public bodies ('Municipality",
        "# of {city}').",
        'ORGANIZATION_TEMPLATES: tuple[str, ...] = ("{company}",)',
        '# TODO: the word lists of your templates\' slots ({"saint": (...), "care_name": (...)}).',
        "PLACE_WORDS: dict[str, tuple[str, ...]] = {}",
    )


def _canary_block(facts: LocaleFacts, language: str) -> str:
    """CANARY_TEMPLATE in data.py: English, with a TODO when the language is not."""
    todo = (
        ()
        if facts.english
        else (
            f"# TODO: write this sentence in {language}; English is a placeholder (tests/test_pack.py warns until then).",
        )
    )
    return _lines(
        "# The model canaries' sentence (synthdeid.privacy.canaries): the tokens as the tokenizer splits them, separated",
        "# by single spaces, with inline tags, one {} per secret token, ending in <EOD>.",
        *todo,
        f'CANARY_TEMPLATE = "{ENGLISH_CANARY}"',
    )


def _ssn_note(facts: LocaleFacts) -> str:
    """Where the identity numbers' layout comes from, for comments and the README."""
    if facts.ssn_layout is None:
        return f"Faker's {facts.locale} has no identity numbers of its own to take the layout from."
    return f'Faker\'s {facts.locale} writes them as "{facts.ssn_layout}" (9: a digit, A: a letter).'


def _capitalized(text: str) -> str:
    return text[:1].upper() + text[1:]


def _notes(facts: LocaleFacts, language: str) -> dict[str, str]:
    """Where the generated lists come from, for the comments and the README's checklist."""
    locale = facts.locale
    from_faker = [k for k, ok in (("month", facts.months), ("weekday", facts.weekdays)) if ok]
    english = [k for k, ok in (("month", facts.months), ("weekday", facts.weekdays)) if not ok]
    dates = []
    if from_faker:
        dates.append(f"{' and '.join(from_faker)} names come from Faker's {locale}; review them")
    if english:
        dates.append(f"{' and '.join(english)} names are English: translate them")
    trunk = f'"{facts.trunk}"' if facts.trunk else "none"
    cc = facts.country_code
    known = sorted({loc for loc, _ in facts.known.male + facts.known.female + facts.known.either})
    return {
        "person_note": f"Faker's {locale} person provider"
        if facts.person_locale == locale
        else f"Faker's {FALLBACK_LOCALE} person provider, because {locale} has none. TODO: use {language} names",
        "known_note": f"Faker's other {language} locales: {', '.join(known)}"
        if known
        else f"no other list, as Faker has no other {language} locale"
        if facts.person_locale == locale
        else "no other list, as the names are placeholders",
        "dates_note": _capitalized("; ".join(dates)),
        "postcode_note": f"built from Faker's {locale} postcode formats"
        if facts.postcode
        else "a generic 4-5 digit default",
        "phone_note": f"country code +{cc} ({len(cc)} digits) and trunk prefix {trunk}, as in Faker's {locale} phone "
        "formats"
        if cc
        else f"generic defaults, as Faker's {locale} has no international phone formats",
    }


def _values(code: str, language: str, facts: LocaleFacts, faker_version: str) -> dict[str, str]:
    """The template placeholders."""
    tlds = ((facts.tld,) if facts.tld else ()) + tuple(t for t in GENERIC_TLDS if t != facts.tld)
    notes = _notes(facts, language)
    return {
        "code": code,
        "language": language,
        "faker_locale": facts.locale,
        "faker_version": faker_version,
        "module": f"synthdeid_lang_{code}",
        "dist": f"synthdeid-lang-{code.replace('_', '-')}",
        "entry_point": f"lang_{code}",
        "cls": class_prefix(code, language),
        "person_locale": facts.person_locale,
        "name_word": NAME_WORD,
        **_first_name_values("drawn", facts.drawn),
        **_first_name_values("known", facts.known),
        "names_comment": _comment(
            "Faker's name lists as (locale, attribute of its person provider). Replacements are drawn from "
            f"the DRAWN_ ones ({notes['person_note']}). The KNOWN_ ones ({notes['known_note']}) are only "
            "recognised as first names (NameLocale.known_male, known_female), never drawn. A name of an "
            "_EITHER list (sex-neutral) that no male or female list has counts for both sexes."
        ),
        "surname_attr": facts.surnames,
        "places_block": _places_block(facts, language),
        "institutions_block": _institutions_block(facts, language),
        "canary_block": _canary_block(facts, language),
        "english": str(facts.english),
        "ssn_length": str(facts.ssn_length),
        "ssn_note": _ssn_note(facts),
        "min_places": str(MIN_PLACES),
        "todo_tests": "\n".join(f"- `{name}`: {TODO_TESTS[name]}" for name in todo_tests(facts)),
        "month_names": _date_names("months", facts.months, facts.locale, language),
        "weekday_names": _date_names("weekdays", facts.weekdays, facts.locale, language),
        "tlds": "(" + ", ".join(f'"{t}"' for t in tlds) + ")",
        "default_tld": facts.tld or "com",
        "postcode": facts.postcode or DEFAULT_POSTCODE,
        "country_code_len": str(len(facts.country_code)) if facts.country_code else "2",
        "trunk": facts.trunk,
        **notes,
    }


def _template(name: str) -> string.Template:
    return string.Template(resources.files("synthdeid.tools").joinpath(TEMPLATE_DIR, name).read_text(encoding="utf-8"))


def render(code: str, language: str, faker_locale: str) -> dict[str, str]:
    """The files of the new pack, relative path -> text (validated inputs, nothing written)."""
    from faker import VERSION

    check_code(code)
    check_language(language)
    values = _values(code, language, locale_facts(faker_locale), VERSION)
    return {path.format(module=values["module"]): _template(name).substitute(values) for name, path in FILES}


def new_language_pack(code: str, out_dir: Path, language: str, faker_locale: str) -> Path:
    """Write the language pack ``synthdeid-lang-CODE/`` into ``out_dir`` and return its folder.

    Raises ``InputError`` (a ``SynthdeidError``) for a bad code, language name or Faker locale,
    or when the folder exists; nothing is written then.
    """
    files = render(code, language, faker_locale)
    target = Path(out_dir) / f"synthdeid-lang-{code.replace('_', '-')}"
    if target.exists():
        raise InputError(
            f"{target} already exists",
            fix="choose another --out folder, or move the existing pack away (nothing was overwritten)",
        )
    existing = next(p for p in (Path(out_dir), *Path(out_dir).parents) if p.exists() or p == Path(p.anchor or "."))
    if existing.exists() and not existing.is_dir():
        raise InputError(
            "is a file, not a folder: the pack cannot be written under it",
            path=existing,
            fix="give --out a folder (new or existing), e.g. --out . or --out packages",
        )
    try:
        for rel, text in files.items():
            path = target / rel
            path.parent.mkdir(parents=True, exist_ok=True)
            with open(path, "w", encoding="utf-8", newline="\n") as f:
                f.write(text)
    except OSError as e:
        import shutil

        shutil.rmtree(target, ignore_errors=True)  # no half-written pack
        raise InputError(
            f"cannot write the pack ({e.strerror or e})",
            path=e.filename or target,
            fix="choose an --out folder you can write to",
        ) from None
    return target
