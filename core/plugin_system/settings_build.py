"""(Transitional, while the configs move from dataclasses to ``Settings``.) Building a settings
class from params whichever way it is declared."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

from pydantic import BaseModel

from .config import load_settings


def build_settings(cls: type, config: Mapping[str, Any] | Any | None, what: str, *, saved: bool = False) -> Any:
    """``cls`` built from ``config`` (an instance of ``cls`` is returned as it is)."""
    if isinstance(config, cls):
        return config
    if isinstance(cls, type) and issubclass(cls, BaseModel):
        return load_settings(cls, config, what, saved=saved)
    if dataclasses.is_dataclass(cls):
        from .legacy_config import from_mapping

        from_dict = getattr(cls, "from_dict", None)
        if callable(from_dict):
            return from_dict(dict(config or {}))
        return from_mapping(cls, config, what, warn=not saved)
    raise TypeError(f"{what}: its settings class {cls!r} is neither a Settings model nor a dataclass")
