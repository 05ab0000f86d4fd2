"""`synthdeid new-plugin language CODE`: the generated language pack is complete, deterministic and
passes its own tests (run here in a subprocess, with the pack on PYTHONPATH instead of installed);
bad inputs give errors that say how to fix them."""

from __future__ import annotations

import fnmatch
import os
import re
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from synthdeid import InputError, SynthdeidError
from synthdeid.cli import main
from synthdeid.scaffold import FILES, TEMPLATE_DIR, new_language_pack, render

ROOT = Path(__file__).resolve().parents[1]
EXPECTED_SKIPS = {
    "TODO: add abbreviations to ABBREVIATIONS in data.py",
    "is not installed: `pip install -e .` to check that synthdeid finds it",
}


def _run_pack_tests(pkg: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(pkg)}
    return subprocess.run([sys.executable, "-m", "pytest", str(pkg / "tests"), "-q", "-rs", "-p", "no:cacheprovider"],
                          cwd=pkg, env=env, capture_output=True, text=True, timeout=300)


@pytest.mark.parametrize("code, language, locale, also_skipped", [
    ("no", "Norwegian", "no_NO", ()),  # Faker has month and weekday names
    ("fr", "French", "fr_FR", ()),
    ("fi", "Finnish", "fi_FI", ()),  # no date_time provider: English month names to translate
    # Cyrillic names: no ASCII form for e-mail addresses, no Latin initials
    ("ru", "Russian", "ru_RU", ("synthdeid's name rules know Latin initials only",)),
])
def test_the_generated_pack_passes_its_own_tests(tmp_path: Path, code: str, language: str, locale: str,
                                                 also_skipped: tuple[str, ...]) -> None:
    pkg = new_language_pack(code, tmp_path, language, locale)
    assert pkg == tmp_path / f"synthdeid-lang-{code}"
    result = _run_pack_tests(pkg)
    assert result.returncode == 0, result.stdout + result.stderr
    summary = result.stdout.strip().splitlines()[-1]
    assert "failed" not in summary and "error" not in summary, summary
    assert int(re.search(r"(\d+) passed", summary).group(1)) >= 11, summary
    skipped = [line for line in result.stdout.splitlines() if line.startswith("SKIPPED")]
    assert all(any(reason in line for reason in EXPECTED_SKIPS | set(also_skipped)) for line in skipped), skipped


def test_the_pack_has_every_file_and_is_byte_for_byte_deterministic(tmp_path: Path) -> None:
    a = new_language_pack("no", tmp_path / "a", "Norwegian", "no_NO")
    b = new_language_pack("no", tmp_path / "b", "Norwegian", "no_NO")
    files = sorted(p.relative_to(a).as_posix() for p in a.rglob("*") if p.is_file())
    assert files == sorted(["pyproject.toml", "README.md", "tests/test_pack.py"] + [
        f"synthdeid_lang_no/{m}.py" for m in ("__init__", "text", "data", "surrogates")])
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
    for item in ("Abbreviations", "Titles", "Month and weekday names", "Phone rules", "ID check digits", "Places",
                 "pip install -e .", "python -m pytest", "examples/synthdeid-lang-de"):
        assert item in readme, item
    data = (pkg / "synthdeid_lang_pt_br" / "data.py").read_text(encoding="utf-8")
    assert 'FAKER_LOCALE = "pt_BR"' in data and "ABBREVIATIONS: tuple[str, ...] = ()" in data
    assert 'faker_names("MONTH_NAMES", MONTH_KEYS)' in data and data.count("TODO") >= 15
    assert "class BrazilianPortugueseSurrogates(BaseSurrogates)" in (
        pkg / "synthdeid_lang_pt_br" / "surrogates.py").read_text(encoding="utf-8")


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


def test_the_cli_writes_the_pack_into_the_current_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                         capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.chdir(tmp_path)
    assert main(["new-plugin", "language", "no", "--language", "Norwegian", "--faker-locale", "no_NO"]) == 0
    out = capsys.readouterr().out
    assert "synthdeid-lang-no" in out and "pip install -e ." in out and "README.md" in out
    assert (tmp_path / "synthdeid-lang-no" / "synthdeid_lang_no" / "data.py").is_file()
    assert main(["new-plugin", "language", "fr", "--language", "French", "--faker-locale", "fr_FR",
                 "--out", str(tmp_path / "packs")]) == 0
    assert (tmp_path / "packs" / "synthdeid-lang-fr" / "tests" / "test_pack.py").is_file()


def test_the_cli_reports_errors_and_exits_1(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["new-plugin", "language", "no", "--language", "Norwegian", "--faker-locale", "nb_NO",
                 "--out", str(tmp_path)]) == 1
    err = capsys.readouterr().err
    assert "error:" in err and "nb_NO" in err and "fix:" in err and "no_NO" in err
    with pytest.raises(SystemExit):  # --language and --faker-locale are required
        main(["new-plugin", "language", "no", "--out", str(tmp_path)])


def test_the_templates_are_package_data() -> None:
    globs = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["package-data"]["synthdeid"]
    templates = sorted(p.relative_to(ROOT / "core").as_posix() for p in (ROOT / "core" / TEMPLATE_DIR).rglob("*.tmpl"))
    assert {f"{TEMPLATE_DIR}/{name}" for name, _ in FILES} <= set(templates)
    for path in templates:
        assert any(fnmatch.fnmatch(path, g) and path.count("/") == g.count("/") for g in globs), path
