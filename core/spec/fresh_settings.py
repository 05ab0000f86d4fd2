"""``corpora.NAME.fresh_surrogates``, declared once: which spans of a synthetic corpus get fresh
surrogates from the language pack, and what the surrogates are shaped on. The study spec builds
it (``switch`` reads the short forms) and the stages take the built object."""

from __future__ import annotations

from typing import Any

from pydantic import field_validator
from pydantic_core import PydanticCustomError

from synthdeid.plugin_system.config import Settings, setting

SHAPES = ("generated", "training")


class FreshSettings(Settings):
    """Which spans get fresh surrogates and what the surrogates are shaped on."""

    labels: tuple[str, ...] | None = setting(None, description="the labels re-drawn: all (null) or a list")
    shapes: str = setting(
        "generated",
        choices=SHAPES,
        description="generated: the surrogate keeps the generated span's shape; training: the shape of a "
        "training span of the same label",
    )

    @field_validator("labels", mode="before")
    @classmethod
    def _all_or_some(cls, value: Any) -> Any:
        if value == "all" or value is None:
            return None
        if isinstance(value, list | tuple) and value and all(isinstance(x, str) for x in value):
            return tuple(value)
        raise PydanticCustomError("fresh_labels", "must be all or a non-empty list of labels", {})

    @staticmethod
    def switch(value: Any) -> Any:
        """The short forms params.yaml takes: ``false``/null (off: None), ``true`` (every label,
        generated shapes), a list of labels, or ``{labels: all | [...], shapes: ...}``."""
        if value is None or value is False:
            return None
        if value is True:
            return {}
        if isinstance(value, list):
            return {"labels": value}
        if isinstance(value, dict | FreshSettings):
            return value
        raise PydanticCustomError(
            "fresh_surrogates",
            "must be true, false, a list of labels or a mapping with labels (all or a list) and shapes ({shapes})",
            {"shapes": " | ".join(SHAPES)},
        )

    def covers(self, label: str) -> bool:
        return self.labels is None or label in self.labels

    def as_dict(self) -> dict[str, Any]:
        return {"labels": "all" if self.labels is None else sorted(self.labels), "shapes": self.shapes}


EVERY_LABEL = FreshSettings()
"""Every label re-drawn in its generated shape (``fresh_surrogates: true``)."""
