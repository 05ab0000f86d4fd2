"""``synthdeid new-plugin language CODE``: write a new, working language pack from templates.

The pack (``synthdeid-lang-CODE/``) is a package of its own with the ``synthdeid`` entry point,
built on ``synthdeid.plugins.languages.common`` like the German example
(``examples/synthdeid-lang-de``). Names, and month and weekday names where Faker has them, come
from the Faker locale; every other word list is a default marked ``TODO``. The pack passes its own
tests as generated. The same inputs (and the same Faker) give byte-identical files.
"""

from __future__ import annotations

import re
import string
import textwrap
import unicodedata
from importlib import resources
from pathlib import Path

from .errors import InputError
from .scaffold_locale import (
    DEFAULT_POSTCODE,
    FALLBACK_LOCALE,
    NAME_WORD,
    LocaleFacts,
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
ENGLISH_MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August", "September",
                  "October", "November", "December")
ENGLISH_WEEKDAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")
GENERIC_TLDS = ("com", "org", "net", "eu", "info", "io")


def builtin_language_codes() -> set[str]:
    """The codes of the language packs that ship with synthdeid."""
    from .plugin_manager import DEFAULT_PLUGINS

    prefix = "synthdeid.plugins.languages."
    return {name[len(prefix):] for name in DEFAULT_PLUGINS if name.startswith(prefix)}


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
        return (f"    # From Faker's {locale} date_time provider ({attr}). TODO: review them.\n"
                f'    return faker_names("{attr}", {keys})')
    english = ENGLISH_MONTHS if months else ENGLISH_WEEKDAYS
    lines = "\n            ".join(textwrap.wrap(", ".join(f'"{w}"' for w in english), width=88))
    return (f"    # TODO: Faker's {locale} has no {kind[:-1]} names, so these are English: write the {language} ones.\n"
            f"    return ({lines})")


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
    return {
        "person_note": f"Faker's {locale} person provider" if facts.person_locale == locale
        else f"Faker's {FALLBACK_LOCALE} person provider, because {locale} has none. TODO: use {language} names",
        "dates_note": _capitalized("; ".join(dates)),
        "postcode_note": f"built from Faker's {locale} postcode formats" if facts.postcode
        else "a generic 4-5 digit default",
        "phone_note": f"country code +{cc} ({len(cc)} digits) and trunk prefix {trunk}, as in Faker's {locale} phone "
        "formats" if cc else f"generic defaults, as Faker's {locale} has no international phone formats",
    }


def _values(code: str, language: str, facts: LocaleFacts, faker_version: str) -> dict[str, str]:
    """The template placeholders."""
    tlds = ((facts.tld,) if facts.tld else ()) + tuple(t for t in GENERIC_TLDS if t != facts.tld)
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
        "male_attr": facts.male,
        "female_attr": facts.female,
        "surname_attr": facts.surnames,
        "month_names": _date_names("months", facts.months, facts.locale, language),
        "weekday_names": _date_names("weekdays", facts.weekdays, facts.locale, language),
        "tlds": "(" + ", ".join(f'"{t}"' for t in tlds) + ")",
        "default_tld": facts.tld or "com",
        "postcode": facts.postcode or DEFAULT_POSTCODE,
        "country_code_len": str(len(facts.country_code)) if facts.country_code else "2",
        "trunk": facts.trunk,
        **_notes(facts, language),
    }


def _template(name: str) -> string.Template:
    return string.Template(resources.files("synthdeid").joinpath(TEMPLATE_DIR, name).read_text(encoding="utf-8"))


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
    for rel, text in files.items():
        path = target / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        with open(path, "w", encoding="utf-8", newline="\n") as f:
            f.write(text)
    return target
