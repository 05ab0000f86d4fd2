"""An example synthdeid plugin: an annotator that finds e-mail addresses with a regex, and a corpus
format, ``example_tsv`` (``*.spans.tsv``), in which each line is one note with its PHI spans:
``id<TAB>text<TAB>start:end:label start:end:label ...``."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from synthdeid import Span, hookimpl
from synthdeid.api import CorpusFormat, RegisterAnnotator, RegisterFormat
from synthdeid.toolkit import Settings, setting

from .tsv import read_tsv, write_tsv

EMAIL = re.compile(r"\b[\w.+-]+@[\w-]+(?:\.[\w-]+)*\.[A-Za-z]{2,}\b")


class EmailConfig(Settings):
    """The annotator's settings (its section of params.yaml)."""

    label: str = setting("Email", description="the label of the spans it finds")


class EmailAnnotator:
    def __init__(self, config: EmailConfig) -> None:
        self.config = config

    def annotate(self, text: str) -> list[Span]:
        return [Span(m.start(), m.end(), self.config.label) for m in EMAIL.finditer(text)]


def make_tsv_format(config: Mapping[str, Any]) -> CorpusFormat:
    return CorpusFormat(
        description="example standoff TSV: id<TAB>text<TAB>start:end:label ... per line",
        reader=read_tsv,
        writer=write_tsv,
        suffixes=(".spans.tsv",),
    )


@hookimpl
def register_annotators(register: RegisterAnnotator) -> None:
    # the factory receives the EmailConfig built from params.yaml (checked by `synthdeid check`)
    register("example_email", EmailAnnotator, config=EmailConfig)


@hookimpl
def register_formats(register: RegisterFormat) -> None:
    register("example_tsv", make_tsv_format)
