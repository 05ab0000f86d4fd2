"""Reading params.yaml sections with errors that name the missing key."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

from .errors import InputError

PARAMS_FILE = "params.yaml"


def load_params(path: str | Path = PARAMS_FILE) -> dict[str, Any]:
    p = Path(path)
    if not p.exists():
        raise InputError("params file not found", path=p, fix="run the stage from the repository root")
    try:
        data = yaml.safe_load(p.read_text(encoding="utf-8")) or {}
    except yaml.YAMLError as e:
        mark = getattr(e, "problem_mark", None)
        raise InputError(f"invalid YAML: {e}", path=p, line=None if mark is None else mark.line + 1,
                         fix="fix the YAML syntax") from None
    if not isinstance(data, dict):
        raise InputError("params must be a mapping", path=p, fix="write `key: value` pairs at the top level")
    return data


def get(params: dict[str, Any], dotted: str) -> Any:
    """``get(params, "prepare.seed")``; a missing key raises an error naming it."""
    node: Any = params
    for i, part in enumerate(dotted.split(".")):
        if not isinstance(node, dict) or part not in node:
            raise InputError(
                f"missing parameter {dotted!r}", path=PARAMS_FILE,
                fix=f"add `{dotted}` to params.yaml (see the README for its meaning)",
            )
        node = node[part]
    return node
