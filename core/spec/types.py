"""Field types of the study spec that YAML makes tricky: numbers PyYAML reads as strings
(``1e-3``), settings that take a number or a word (``auto``), and strings YAML reads as booleans
(``no``, ``on``). Each raises one error whose message says what the key takes."""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Sequence
from typing import Annotated, Any

from pydantic import BeforeValidator, WithJsonSchema
from pydantic_core import PydanticCustomError

YAML_BOOLEANS = "yes/no, on/off, true/false"
_FLOAT = re.compile(r"[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?")


def _as_number(value: Any) -> Any:
    """PyYAML reads ``1e-3`` (no dot) as a string; a numeric string becomes a float."""
    if isinstance(value, str) and _FLOAT.fullmatch(value.strip()):
        return float(value)
    return value


def _as_whole(value: Any) -> Any:
    """A whole float (``3.0``) becomes an int; anything else is left for the int check."""
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value


def _reject_bool_for_str(value: Any) -> Any:
    if isinstance(value, bool):
        raise PydanticCustomError(
            "yaml_boolean",
            "YAML reads an unquoted {word} as the boolean {value}, not text; quote it",
            {"word": "yes/no/on/off/true/false", "value": str(value).lower()},
        )
    return value


Number = Annotated[float, BeforeValidator(_as_number)]
"""A float; ``1e-3`` written without a dot (a string to PyYAML) is read as the number."""
Whole = Annotated[int, BeforeValidator(_as_whole)]
"""An int; ``3.0`` is read as 3."""
Text = Annotated[str, BeforeValidator(_reject_bool_for_str)]
"""A string; an unquoted ``no``/``yes``/``on``/``off`` is an error that says to quote it."""


def number_or(words: Sequence[str], *, minimum: int = 0, nullable: bool = False, whole: bool = True) -> Any:
    """A field taking a number (``>= minimum``) or one of ``words`` (e.g. ``auto``), or null."""
    kind = "a whole number" if whole else "a number"
    expected = f"{kind} >= {minimum}" + "".join(f" or {w}" for w in words) + (" or null" if nullable else "")

    def check(value: Any) -> Any:
        if value is None and nullable:
            return None
        if isinstance(value, str) and value in words:
            return value
        number = _as_whole(value) if whole else _as_number(value)
        ok = (
            not isinstance(number, bool)
            and isinstance(number, int | float)
            and math.isfinite(number)
            and (not whole or isinstance(number, int))
            and number >= minimum
        )
        if not ok:
            raise PydanticCustomError("number_or_word", "must be {expected}", {"expected": expected})
        return number

    schema: dict[str, Any] = {
        "anyOf": [{"type": "integer" if whole else "number", "minimum": minimum}, {"enum": list(words)}]
        + ([{"type": "null"}] if nullable else [])
    }
    return Annotated[Any, BeforeValidator(check), WithJsonSchema(schema)]


def checked(check: Callable[[Any], Any], schema: dict[str, Any]) -> Any:
    """A field validated by ``check`` (which raises ``PydanticCustomError``), described by ``schema``."""
    return Annotated[Any, BeforeValidator(check), WithJsonSchema(schema)]
