"""An example synthdeid plugin: an annotator that finds e-mail addresses with a regex."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, fields
from typing import Any

from synthdeid import Span, hookimpl
from synthdeid.api import RegisterAnnotator

EMAIL = re.compile(r"\b[\w.+-]+@[\w-]+(?:\.[\w-]+)*\.[A-Za-z]{2,}\b")


@dataclass(frozen=True)
class EmailConfig:
    """The annotator's settings (its section of params.yaml)."""

    label: str = "Email"

    @classmethod
    def from_mapping(cls, config: Mapping[str, Any]) -> "EmailConfig":
        known = {f.name for f in fields(cls)}
        unknown = sorted(set(config) - known)
        if unknown:
            raise ValueError(
                f"example_email: unknown config keys {unknown}; known keys: {sorted(known)}"
            )
        return cls(**config)


class EmailAnnotator:
    def __init__(self, config: EmailConfig) -> None:
        self.config = config

    def annotate(self, text: str) -> list[Span]:
        return [Span(m.start(), m.end(), self.config.label) for m in EMAIL.finditer(text)]


def make_email_annotator(config: Mapping[str, Any]) -> EmailAnnotator:
    return EmailAnnotator(EmailConfig.from_mapping(config))


@hookimpl
def register_annotators(register: RegisterAnnotator) -> None:
    register("example_email", make_email_annotator)
