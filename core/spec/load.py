"""Reading params.yaml into the study spec once: every mistake, in any section or plugin config,
becomes one ``InputError`` that names the dotted key, its line, what the key takes and the fix
(for an unknown key: the valid names and the closest one)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pydantic import ValidationError

from synthdeid.params import PARAMS_FILE, load_params

from .problems import Problem, line_of, problem_of, spec_error, yaml_nodes
from .references import check
from .study import Study


def validate(data: Any, path: str | Path = PARAMS_FILE, text: str | None = None) -> Study:
    """The study spec of the loaded params ``data`` (``text``: the file, for line numbers)."""
    try:
        return Study.model_validate(data)
    except ValidationError as e:
        root = yaml_nodes(text) if text is not None else None
        problems = []
        for err in e.errors():
            key, message, fix = problem_of(err)
            problems.append(Problem(key, message, fix, line_of(root, err["loc"]) if root else None))
        raise spec_error(problems, path) from None


def load_study(path: str | Path = PARAMS_FILE, *, check_plugins: bool = True) -> Study:
    """params.yaml read and checked once: its structure and types (``Study``), then what refers to
    what and each plugin's config against the installed plugin (``references.check``)."""
    data = load_params(path)
    text = Path(path).read_text(encoding="utf-8")
    study = validate(data, path, text)
    if check_plugins:
        problems = check(study)
        if problems:
            root = yaml_nodes(text)
            raise spec_error([p._replace(line=line_of(root, p.key.split("."))) for p in problems], path)
    return study
