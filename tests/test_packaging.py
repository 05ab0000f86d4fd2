"""The distribution installs ``synthdeid`` (core/), ``synthdeid.plugins`` (plugins/) and
``synthdeid.stages`` (stages/), and nothing named core, plugins or stages at the top level."""

import importlib.resources
import subprocess
import sys
import tomllib
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
FOLDERS = {"core": "synthdeid", "plugins": "synthdeid.plugins", "stages": "synthdeid.stages"}


def _declared() -> set[str]:
    return set(tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["packages"])


def test_every_package_folder_is_declared():
    found = set()
    for folder, name in FOLDERS.items():
        for init in (ROOT / folder).rglob("__init__.py"):
            rel = init.parent.relative_to(ROOT / folder)
            found.add(".".join([name, *rel.parts]))
    assert found == _declared()


def test_py_typed_ships():
    """PEP 561: a plugin author's type checker reads synthdeid's annotations (synthdeid.api,
    synthdeid.toolkit) only when the installed package holds a ``py.typed`` marker."""
    data = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["package-data"]
    assert "py.typed" in data["synthdeid"]
    assert (importlib.resources.files("synthdeid") / "py.typed").is_file()


def test_wheel_has_only_synthdeid_at_top_level(tmp_path):
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "wheel",
            "--no-deps",
            "--no-build-isolation",
            "-q",
            "-w",
            str(tmp_path),
            str(ROOT),
        ],
        check=True,
        capture_output=True,
    )
    [wheel] = tmp_path.glob("synthdeid-*.whl")
    names = zipfile.ZipFile(wheel).namelist()
    top = {n.split("/")[0] for n in names if not n.split("/")[0].endswith(".dist-info")}
    assert top == {"synthdeid"}
    assert "synthdeid/plugin_system/manager.py" in names
    assert "synthdeid/corpus/tag_mappings/meddocan.yaml" in names  # package data moved with its group
    assert any(n.startswith("synthdeid/tools/templates/language/") and n.endswith(".tmpl") for n in names)
    assert "synthdeid/plugins/deduce_annotator.py" in names
    assert "synthdeid/py.typed" in names  # PEP 561 marker
    assert "synthdeid/language_kit/tokenizer.py" in names
    assert "synthdeid/stages/prepare.py" in names
    entry_points = next(n for n in names if n.endswith("entry_points.txt"))
    assert "synthdeid = synthdeid.cli:main" in zipfile.ZipFile(wheel).read(entry_points).decode()


def test_dvc_analytics_off():
    assert "analytics = false" in (ROOT / ".dvc" / "config").read_text()
