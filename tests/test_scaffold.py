"""`synthdeid new-plugin language CODE`: the generated language pack is complete, deterministic and
passes its own tests (run here in a subprocess, with the pack on PYTHONPATH instead of installed)
except exactly its `test_todo_*` tests for what Faker cannot give (check digits, real towns,
hospitals in the language), which pass once filled in; bad inputs give errors that say how to fix
them."""

from __future__ import annotations

import fnmatch
import os
import re
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from synthdeid import CANONICAL_TAGS, InputError, SynthdeidError
from synthdeid.cli import main
from synthdeid.privacy.canaries import check_template
from synthdeid.tools.scaffold import (
    ENGLISH_CANARY,
    FILES,
    TEMPLATE_DIR,
    new_language_pack,
    render,
    todo_tests,
)
from synthdeid.tools.scaffold_locale import locale_facts

# runs each generated pack's own test suite in a subprocess (`make test-fast` leaves it out)
pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[1]
EXPECTED_SKIPS = {
    "TODO: add abbreviations to ABBREVIATIONS in data.py",
    "is not installed: `pip install -e .` to check that synthdeid finds it",
}


NAMES_WARNING = "first names (Faker's); one in no list that stands alone in a note is read as a surname"
CANARY_WARNING = "CANARY_TEMPLATE in data.py is the English placeholder"


def _run_pack_tests(pkg: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(pkg)}
    return subprocess.run(
        [sys.executable, "-m", "pytest", str(pkg / "tests"), "-q", "-rfEs", "-p", "no:cacheprovider"],
        cwd=pkg,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )


def _failed(stdout: str) -> set[str]:
    """The names of the tests pytest's ``-rf`` summary lists as failed."""
    return {m.group(1) for m in re.finditer(r"^FAILED \S+::(\w+)", stdout, re.MULTILINE)}


@pytest.mark.parametrize(
    "code, language, locale, also_skipped, warnings",
    [
        # Faker has month and weekday names, but only made-up towns and 100 first names per sex
        ("no", "Norwegian", "no_NO", (), (NAMES_WARNING, CANARY_WARNING)),
        # made-up towns; the first names of fr_BE, fr_CA, ... are recognised too: no names warning
        ("fr", "French", "fr_FR", (), (CANARY_WARNING,)),
        # no date_time provider: English month names to translate; real towns
        ("fi", "Finnish", "fi_FI", (), (NAMES_WARNING, CANARY_WARNING)),
        # Cyrillic names: no ASCII form for e-mail addresses, no Latin initials; real towns
        (
            "ru",
            "Russian",
            "ru_RU",
            ("synthdeid's name rules know Latin initials only",),
            (NAMES_WARNING, CANARY_WARNING),
        ),
        # English: the hospital templates and the canary sentence are real, the towns made up
        ("en_x", "English", "en_GB", (), ()),
    ],
)
def test_the_generated_pack_passes_its_own_tests_but_the_todo_ones(
    tmp_path: Path, code: str, language: str, locale: str, also_skipped: tuple[str, ...], warnings: tuple[str, ...]
) -> None:
    pkg = new_language_pack(code, tmp_path, language, locale)
    assert pkg == tmp_path / f"synthdeid-lang-{code.replace('_', '-')}"
    result = _run_pack_tests(pkg)
    output = result.stdout + result.stderr
    summary = result.stdout.strip().splitlines()[-1]
    assert "error" not in summary, output
    expected = set(todo_tests(locale_facts(locale)))
    assert "test_todo_check_digit" in expected
    assert _failed(result.stdout) == expected, output  # exactly the TODO tests fail, each saying what to fill in
    assert len(re.findall(r"^E +AssertionError: TODO: ", result.stdout, re.MULTILINE)) == len(expected), output
    assert re.search(rf"\b{len(expected)} failed\b", summary) and result.returncode == 1, summary
    assert int(re.search(r"(\d+) passed", summary).group(1)) >= 14, summary
    skipped = [line for line in result.stdout.splitlines() if line.startswith("SKIPPED")]
    assert all(any(reason in line for reason in EXPECTED_SKIPS | set(also_skipped)) for line in skipped), skipped
    for warning in (NAMES_WARNING, CANARY_WARNING):
        assert (warning in result.stdout) == (warning in warnings), (warning, output)


def test_the_todo_tests_pass_once_filled_in(tmp_path: Path) -> None:
    """A check digit, real towns and hospital templates make the generated pack's tests all pass:
    the TODO tests can be satisfied, and the surrogates then use what was filled in."""
    pkg = new_language_pack("no", tmp_path, "Norwegian", "no_NO")
    module = pkg / "synthdeid_lang_no"

    def edit(path: Path, old: str, new: str) -> None:
        text = path.read_text(encoding="utf-8")
        assert text.count(old) == 1, old
        path.write_text(text.replace(old, new), encoding="utf-8")

    edit(
        module / "surrogates.py",
        '    raise NotImplementedError("TODO: write check_digit() in surrogates.py")',
        "    return str(sum(map(int, body)) % 10)  # a made-up rule for the test",
    )
    towns = [
        "Oslo",
        "Bergen",
        "Trondheim",
        "Stavanger",
        "Drammen",
        "Fredrikstad",
        "Kristiansand",
        "Sandnes",
        "Tromsø",
        "Sarpsborg",
        "Skien",
        "Ålesund",
        "Sandefjord",
        "Haugesund",
        "Tønsberg",
        "Moss",
        "Porsgrunn",
        "Bodø",
        "Arendal",
        "Hamar",
        "Larvik",
    ]
    edit(module / "data.py", "# TODO: replace with real place names of Norwegian.", "# Norwegian towns.")
    edit(module / "data.py", "PLACE_NAMES: list[str] = []", f"PLACE_NAMES: list[str] = {towns!r}")
    edit(module / "data.py", "HOSPITAL_TEMPLATES: list[str] = []", 'HOSPITAL_TEMPLATES: list[str] = ["{city} sykehus"]')
    edit(module / "data.py", "CARE_TEMPLATES: list[str] = []", 'CARE_TEMPLATES: list[str] = ["{city} sykehjem"]')
    edit(pkg / "tests" / "test_pack.py", 'VALID_SSN = ""', 'VALID_SSN = "123456 78905"')
    result = _run_pack_tests(pkg)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "failed" not in result.stdout.strip().splitlines()[-1]


def test_the_pack_has_every_file_and_is_byte_for_byte_deterministic(tmp_path: Path) -> None:
    a = new_language_pack("no", tmp_path / "a", "Norwegian", "no_NO")
    b = new_language_pack("no", tmp_path / "b", "Norwegian", "no_NO")
    files = sorted(p.relative_to(a).as_posix() for p in a.rglob("*") if p.is_file())
    assert files == sorted(
        ["pyproject.toml", "README.md", "tests/test_pack.py"]
        + [f"synthdeid_lang_no/{m}.py" for m in ("__init__", "text", "data", "surrogates")]
    )
    for rel in files:
        assert (a / rel).read_bytes() == (b / rel).read_bytes(), rel
    assert render("no", "Norwegian", "no_NO") == {rel: (a / rel).read_text(encoding="utf-8") for rel in files}


def test_the_pack_declares_its_entry_point_and_says_what_to_fill_in(tmp_path: Path) -> None:
    pkg = new_language_pack("pt_br", tmp_path, "Brazilian Portuguese", "pt_BR")
    assert pkg.name == "synthdeid-lang-pt-br"
    project = tomllib.loads((pkg / "pyproject.toml").read_text(encoding="utf-8"))
    assert project["project"]["name"] == "synthdeid-lang-pt-br"
    assert project["project"]["entry-points"]["synthdeid"] == {"lang_pt_br": "synthdeid_lang_pt_br"}
    assert project["tool"]["setuptools"]["packages"] == ["synthdeid_lang_pt_br"]
    readme = (pkg / "README.md").read_text(encoding="utf-8")
    for item in (
        "Abbreviations",
        "Titles",
        "Month and weekday names",
        "Phone rules",
        "ID check digits",
        "Places",
        "pip install -e .",
        "python -m pytest",
        "examples/synthdeid-lang-de",
    ):
        assert item in readme, item
    for name in todo_tests(locale_facts("pt_BR")):
        assert f"`{name}`" in readme, name
    data = (pkg / "synthdeid_lang_pt_br" / "data.py").read_text(encoding="utf-8")
    assert 'FAKER_LOCALE = "pt_BR"' in data and "ABBREVIATIONS: tuple[str, ...] = ()" in data
    assert 'faker_names("MONTH_NAMES", MONTH_KEYS)' in data and data.count("TODO") >= 15
    assert "class BrazilianPortugueseSurrogates(BaseSurrogates)" in (
        pkg / "synthdeid_lang_pt_br" / "surrogates.py"
    ).read_text(encoding="utf-8")


def test_months_fall_back_to_english_with_a_todo(tmp_path: Path) -> None:
    data = render("fi", "Finnish", "fi_FI")["synthdeid_lang_fi/data.py"]
    assert "TODO: Faker's fi_FI has no month names, so these are English: write the Finnish ones." in data
    assert '"January", "February"' in data and "MONTH_NAMES" not in data.split("def month_names")[1].split("def ")[0]


@pytest.mark.parametrize("code", ["NO", "n", "norw", "no-x", "1a", "", "no_", "no_NO"])
def test_a_bad_code_is_refused(tmp_path: Path, code: str) -> None:
    with pytest.raises(InputError, match="not a language code.*\n  fix: use 2-3 lowercase letters"):
        new_language_pack(code, tmp_path, "Norwegian", "no_NO")
    assert not any(tmp_path.iterdir())


def test_a_built_in_code_is_refused(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="built-in 'nl' language pack.*\n  fix: choose another code"):
        new_language_pack("nl", tmp_path, "Dutch", "nl_NL")


@pytest.mark.parametrize("language", ["", "Norwegian!", 'Bad"Name', "Two  spaces", "Norsk\n"])
def test_a_bad_language_name_is_refused(tmp_path: Path, language: str) -> None:
    with pytest.raises(InputError, match="not a language name"):
        new_language_pack("no", tmp_path, language, "no_NO")


def test_an_unknown_faker_locale_is_refused_with_suggestions(tmp_path: Path) -> None:
    with pytest.raises(SynthdeidError, match=r"Faker has no locale 'nb_NO'.*\n  fix: did you mean no_NO"):
        new_language_pack("no", tmp_path, "Norwegian", "nb_NO")
    assert not any(tmp_path.iterdir())


def test_a_locale_without_usable_names_is_refused(tmp_path: Path) -> None:
    fix = r"\n  fix: choose another Faker locale of the language \(.*es_ES"
    with pytest.raises(InputError, match=r"too few names.*" + fix):
        new_language_pack("es_x", tmp_path, "Spanish", "es")


def test_an_existing_folder_is_not_overwritten(tmp_path: Path) -> None:
    existing = tmp_path / "synthdeid-lang-no"
    existing.mkdir()
    (existing / "mine.txt").write_text("keep")
    with pytest.raises(InputError, match="already exists.*\n  fix: choose another --out folder"):
        new_language_pack("no", tmp_path, "Norwegian", "no_NO")
    assert [p.name for p in existing.iterdir()] == ["mine.txt"]


def test_the_cli_writes_the_pack_into_the_current_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    assert main(["new-plugin", "language", "no", "--language", "Norwegian", "--faker-locale", "no_NO"]) == 0
    out = capsys.readouterr().out
    assert "synthdeid-lang-no" in out and "pip install -e ." in out and "README.md" in out
    assert (tmp_path / "synthdeid-lang-no" / "synthdeid_lang_no" / "data.py").is_file()
    assert (
        main(
            [
                "new-plugin",
                "language",
                "fr",
                "--language",
                "French",
                "--faker-locale",
                "fr_FR",
                "--out",
                str(tmp_path / "packs"),
            ]
        )
        == 0
    )
    assert (tmp_path / "packs" / "synthdeid-lang-fr" / "tests" / "test_pack.py").is_file()


def test_the_cli_reports_errors_and_exits_1(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert (
        main(
            [
                "new-plugin",
                "language",
                "no",
                "--language",
                "Norwegian",
                "--faker-locale",
                "nb_NO",
                "--out",
                str(tmp_path),
            ]
        )
        == 1
    )
    err = capsys.readouterr().err
    assert "error:" in err and "nb_NO" in err and "fix:" in err and "no_NO" in err
    with pytest.raises(SystemExit):  # --language and --faker-locale are required
        main(["new-plugin", "language", "no", "--out", str(tmp_path)])


def test_the_templates_are_package_data() -> None:
    globs = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["package-data"][
        "synthdeid.tools"
    ]
    tools = ROOT / "core" / "tools"
    templates = sorted(p.relative_to(tools).as_posix() for p in (tools / TEMPLATE_DIR).rglob("*.tmpl"))
    assert {f"{TEMPLATE_DIR}/{name}" for name, _ in FILES} <= set(templates)
    for path in templates:
        assert any(fnmatch.fnmatch(path, g) and path.count("/") == g.count("/") for g in globs), path


def test_first_names_come_from_every_list_of_the_language() -> None:
    """Drawn: the locale's own lists; recognised only: those of Faker's other locales of the language."""
    fr = locale_facts("fr_FR")
    assert fr.drawn.male == (("fr_FR", "first_names_male"),) and fr.drawn.female == (("fr_FR", "first_names_female"),)
    assert {"fr_BE", "fr_CA", "fr_CH"} <= {loc for loc, _ in fr.known.male} and fr.surnames == "last_names"
    data = render("fr", "French", "fr_FR")["synthdeid_lang_fr/data.py"]
    assert '("fr_BE", "first_names_male")' in data and "known_male=known_male" in data
    assert "EXTRA_MALE_FIRST_NAMES: tuple[str, ...] = ()" in data
    # a locale with one sex-neutral list: its names count for both sexes
    lt = locale_facts("lt_LT")
    assert lt.drawn.male == lt.drawn.female == () and lt.drawn.either == (("lt_LT", "first_names"),)
    # names taken from the fallback locale: no other lists to recognise
    assert locale_facts("bs_BA").known == locale_facts("no_NO").known == type(fr.known)()


def test_towns_are_real_or_a_todo_list() -> None:
    assert locale_facts("fi_FI").places == "cities" and locale_facts("ru_RU").places == "city_names"
    assert locale_facts("no_NO").places is None and locale_facts("fr_FR").places is None
    fi = render("fi", "Finnish", "fi_FI")["synthdeid_lang_fi/data.py"]
    assert 'FAKER_PLACES: str | None = "cities"' in fi and "replace with real place names" not in fi
    no = render("no", "Norwegian", "no_NO")["synthdeid_lang_no/data.py"]
    assert "# TODO: replace with real place names of Norwegian." in no
    assert "PLACE_NAMES: list[str] = []" in no and "FAKER_PLACES: str | None = None" in no
    surrogates = render("no", "Norwegian", "no_NO")["synthdeid_lang_no/surrogates.py"]
    assert "city_names = place_names()" in surrogates


def test_hospitals_are_a_todo_list_unless_the_language_is_english() -> None:
    no = render("no", "Norwegian", "no_NO")["synthdeid_lang_no/data.py"]
    assert "HOSPITAL_TEMPLATES: list[str] = []" in no and "CARE_TEMPLATES: list[str] = []" in no
    assert "Hospital" not in no and "Nursing home" not in no
    assert "# TODO: replace with how Norwegian names hospitals" in no
    en = render("en_x", "English", "en_GB")["synthdeid_lang_en_x/data.py"]
    assert 'HOSPITAL_TEMPLATES: list[str] = ["{city} Hospital", ' in en
    assert todo_tests(locale_facts("en_GB")) == ["test_todo_check_digit", "test_todo_place_names"]
    assert todo_tests(locale_facts("fi_FI")) == ["test_todo_check_digit", "test_todo_hospital_templates"]


def test_identity_numbers_get_a_check_digit_hook() -> None:
    files = render("fi", "Finnish", "fi_FI")
    surrogates = files["synthdeid_lang_fi/surrogates.py"]
    assert (
        "def check_digit(body: str) -> str:" in surrogates and "def make_ssn(rng: random.Random) -> str:" in surrogates
    )
    assert "SSN_LENGTH = 10" in surrogates  # Faker's fi_FI numbers: "999999-999A"
    assert '"999999-999A"' in surrogates and 'VALID_SSN = ""' in files["tests/test_pack.py"]
    assert "SSN_LENGTH = 11" in render("lt", "Lithuanian", "lt_LT")["synthdeid_lang_lt/surrogates.py"]  # no layout


@pytest.mark.parametrize("today", ["2026-11-26", "2026-11-27", "2031-06-15"])
def test_the_identity_number_layout_does_not_depend_on_the_date(monkeypatch: pytest.MonkeyPatch, today: str) -> None:
    """Faker draws fi_FI birth dates back from today, and the check character is a digit or a
    letter: one seeded draw gave "999999-999A" on 2026-11-26 and "999999-9999" the day after."""
    import datetime

    import faker.providers.ssn.fi_FI as fi

    from synthdeid.tools.scaffold_locale import _ssn_layout

    class Day(datetime.date):
        @classmethod
        def today(cls) -> Day:
            return cls.fromisoformat(today)

    monkeypatch.setattr(fi, "datetime", type("datetime", (), {"date": Day, "timedelta": datetime.timedelta}))
    assert fi.datetime.date.today().isoformat() == today
    assert _ssn_layout("fi_FI") == "999999-999A"


@pytest.mark.parametrize(
    "code, language, locale, todo", [("no", "Norwegian", "no_NO", True), ("en_x", "English", "en_GB", False)]
)
def test_the_canary_sentence_is_passed_to_the_pack_and_valid(code: str, language: str, locale: str, todo: bool) -> None:
    files = render(code, language, locale)
    data = files[f"synthdeid_lang_{code}/data.py"]
    assert f'CANARY_TEMPLATE = "{ENGLISH_CANARY}"' in data
    assert (f"# TODO: write this sentence in {language}" in data) == todo
    assert "canary_template=CANARY_TEMPLATE" in files[f"synthdeid_lang_{code}/__init__.py"]
    check_template(ENGLISH_CANARY, CANONICAL_TAGS)
    assert "Nieuw" not in data  # not the Dutch default


def test_the_norwegian_pack_tells_its_user_to_quote_its_code(tmp_path: Path) -> None:
    """``language: no`` is the YAML boolean false; the pack's README says to write ``"no"``, which
    the study spec reads as the code (and refuses the unquoted form, saying to quote it)."""
    pkg = new_language_pack("no", tmp_path, "Norwegian", "no_NO")
    readme = (pkg / "README.md").read_text(encoding="utf-8")
    assert 'set `language: "no"`' in readme and "unquoted `no`" in readme
