"""The DVC pipeline as a preset resolves it, for the checks that read dvc.yaml's resolved stages.

The demo's params.yaml leaves out the ``full`` preset's routes (GPT-2, the DP-SGD LSTM), whose
stages DVC then does not resolve. ``preset_root("full")`` is a temporary DVC project holding
dvc.yaml and params.yaml with that preset applied, so those checks cover every route."""

from __future__ import annotations

import atexit
import shutil
import tempfile
from functools import cache
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
PRESETS = ("full",)
"""The presets whose stages the checks cover besides the demo's (``full`` adds every route)."""


@cache
def preset_root(name: str) -> Path:
    from synthdeid.tools.presets import apply_preset

    root = Path(tempfile.mkdtemp(prefix=f"synthdeid-{name}-stages-"))
    atexit.register(shutil.rmtree, root, True)
    for file in ("dvc.yaml", "params.yaml"):
        shutil.copy(REPO / file, root / file)
    apply_preset(name, root / "params.yaml", REPO)
    (root / ".dvc").mkdir()  # what `dvc init --no-scm` writes that resolving stages needs, without its banner
    (root / ".dvc" / "config").write_text("[core]\n    no_scm = True\n", encoding="utf-8")
    return root


def roots() -> tuple[Path, ...]:
    """The repository (the demo's params) and a project per preset of ``PRESETS``."""
    return (REPO, *(preset_root(p) for p in PRESETS))
