"""Reading params.yaml as a mapping, with an error naming the file when it is missing, a folder,
not UTF-8, not YAML or not a mapping. ``synthdeid.spec.load_study`` reads it into the typed study
spec; nothing else reads params."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

from .errors import InputError

PARAMS_FILE = "params.yaml"


def load_params(path: str | Path = PARAMS_FILE) -> dict[str, Any]:
    p = Path(path)
    if not p.exists():
        raise InputError(
            "params file not found",
            path=p,
            fix="run from the project folder (the one holding params.yaml) or give the file's path",
        )
    if p.is_dir():
        raise InputError(
            "is a folder, not a params file", path=p, fix=f"give the YAML file itself, e.g. {p / PARAMS_FILE}"
        )
    try:
        text = p.read_text(encoding="utf-8")
    except UnicodeDecodeError as e:
        line = p.read_bytes()[: e.start].count(b"\n") + 1
        raise InputError(
            f"not UTF-8 text (byte {e.object[e.start]:#04x} at offset {e.start})",
            path=p,
            line=line,
            fix="save the file as UTF-8",
        ) from None
    except OSError as e:
        raise InputError(f"cannot be read ({e.strerror or e})", path=p, fix="check the file's permissions") from None
    try:
        data = yaml.safe_load(text) or {}
    except yaml.YAMLError as e:
        mark = getattr(e, "problem_mark", None)
        raise InputError(
            f"invalid YAML: {e}", path=p, line=None if mark is None else mark.line + 1, fix="fix the YAML syntax"
        ) from None
    if not isinstance(data, dict):
        raise InputError("params must be a mapping", path=p, fix="write `key: value` pairs at the top level")
    return data


def require_settings(data: dict[str, Any], path: str | Path) -> dict[str, Any]:
    """``data``, refused when empty (an empty file, ``{}``, only comments): every default would run
    (the demo's study), which is no study anyone configured."""
    if not data:
        raise InputError(
            "holds no settings (it is empty, `{}` or only comments): the study would run every "
            "default, the demo's, whatever you meant to configure",
            path=path,
            fix="start from the params.yaml a synthdeid project ships (the demo's study, every key "
            "dvc.yaml tracks) and change what your study changes; `synthdeid schema` describes every key",
        )
    return data
