"""Running the pipeline's stage functions in a temporary workspace, without DVC: the stages read
``params.yaml`` and write ``data/`` relative to the current folder."""

from __future__ import annotations

import importlib
import json
import os
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import yaml

ROOT = Path(__file__).resolve().parents[1]
FIRST_STAGES = ("corpus", "prepare", "annotate", "pseudonymize", "inline")


def repo_params() -> dict[str, Any]:
    """The repository's params.yaml as plain Python data."""
    return yaml.safe_load((ROOT / "params.yaml").read_text(encoding="utf-8"))


def run_stages(workspace: Path, params: dict[str, Any], stages: Iterable[str] = FIRST_STAGES) -> None:
    """Write ``params`` to the workspace and run each stage's ``main()`` there, in order."""
    (workspace / "params.yaml").write_text(yaml.safe_dump(params, allow_unicode=True), encoding="utf-8")
    cwd = os.getcwd()
    os.chdir(workspace)
    try:
        for stage in stages:
            importlib.import_module(f"synthdeid.stages.{stage}").main()
    finally:
        os.chdir(cwd)


def stage_metrics(workspace: Path, stage: str) -> dict[str, Any]:
    return json.loads((workspace / "data" / "metrics" / f"{stage}.json").read_text(encoding="utf-8"))
