"""A problem of the study spec (the dotted key, what is wrong, the fix, the line), its line in
params.yaml, and the one ``InputError`` that lists every problem found."""

from __future__ import annotations

import typing
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import yaml

from synthdeid.errors import InputError


class Problem(typing.NamedTuple):
    key: str
    message: str
    fix: str
    line: int | None = None

    def __str__(self) -> str:
        where = f"line {self.line}: " if self.line else ""
        return f"{where}{self.key}: {self.message}\n    fix: {self.fix}"


def yaml_nodes(text: str) -> Any:
    try:
        return yaml.compose(text)
    except yaml.YAMLError:
        return None


def line_of(root: Any, loc: Sequence[str | int]) -> int | None:
    """The 1-based line of the key at ``loc`` in the composed YAML ``root`` (its parent's when it is missing)."""
    node, line = root, None
    for part in loc:
        if isinstance(node, yaml.MappingNode):
            for k, v in node.value:
                if k.value == str(part):
                    node, line = v, k.start_mark.line + 1
                    break
            else:
                return line
        elif isinstance(node, yaml.SequenceNode) and isinstance(part, int) and part < len(node.value):
            node = node.value[part]
            line = node.start_mark.line + 1
        else:
            return line
    return line


def spec_error(problems: Sequence[Problem], path: str | Path) -> InputError:
    """One error listing every problem (a single one keeps its line and fix)."""
    if len(problems) == 1:
        p = problems[0]
        return InputError(f"{p.key}: {p.message}", path=path, line=p.line, fix=p.fix)
    listed = "\n  ".join(str(p) for p in problems)
    return InputError(f"{len(problems)} problems:\n  {listed}", path=path,
                      fix="correct each key as its line says (`synthdeid schema` describes every key)")


