"""A synthetic corpus's origin (``data/synthetic/NAME/origin.json``): the generator whose notes it
holds and its ``fresh_surrogates`` setting, written by the stage that makes the corpus
(``postprocess@NAME``, ``machine_annotate@NAME``). The stages that read a corpus by name (its
privacy audit, the taggers trained on it, its learning curve) read these from here, so that DVC
re-runs them when their own corpus's settings change, not when another corpus's do."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from synthdeid.corpus.accounting import read_json, write_json


@dataclass(frozen=True)
class Origin:
    corpus: str
    generator: str | None
    """The generator whose notes the corpus holds (through a machine-annotated corpus's source)."""
    fresh_surrogates: Any = False
    """``corpora.NAME.fresh_surrogates`` as params.yaml gives it (false for a machine-annotated corpus)."""

    def write(self, path: str) -> None:
        write_json(
            {"corpus": self.corpus, "generator": self.generator, "fresh_surrogates": self.fresh_surrogates}, path
        )

    @classmethod
    def read(cls, path: str) -> Origin:
        """The origin a stage wrote; a missing file names itself and the fix (``dvc repro``)."""
        data = read_json(path)  # missing: names the path and `dvc repro` (postprocess or machine_annotate)
        return cls(data["corpus"], data["generator"], data["fresh_surrogates"])
