"""`make setup` makes the venv's python put the venv's bin first on PATH (as `activate` does), so
`.venv/bin/dvc repro` runs the stages' `python -m synthdeid.stages...` with the venv's python even
when the venv is not activated."""

from __future__ import annotations

import os
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

PTH = Path(sysconfig.get_paths()["purelib"]) / "synthdeid-venv-path.pth"


@pytest.mark.skipif(not PTH.exists(), reason="this venv was not made by `make setup` (it writes the .pth)")
def test_a_stage_command_finds_synthdeid_without_the_venv_on_path() -> None:
    bare = {**os.environ, "PATH": "/usr/bin:/bin"}
    child = "import subprocess; subprocess.run(['python', '-c', 'import synthdeid'], check=True)"
    run = subprocess.run([sys.executable, "-c", child], env=bare, capture_output=True, text=True)
    assert run.returncode == 0, run.stderr


@pytest.mark.skipif(not PTH.exists(), reason="this venv was not made by `make setup` (it writes the .pth)")
def test_the_path_grows_once_however_deep_the_pythons_nest() -> None:
    child = (
        "import os, subprocess; print(subprocess.run(['python', '-c', 'import os; print(os.environ[\"PATH\"])'], "
        "capture_output=True, text=True).stdout.strip())"
    )
    run = subprocess.run(
        [sys.executable, "-c", child], env={**os.environ, "PATH": "/usr/bin:/bin"}, capture_output=True, text=True
    )
    assert run.stdout.strip() == f"{Path(sys.executable).parent}:/usr/bin:/bin"
