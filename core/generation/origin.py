"""A synthetic corpus's origin (``data/synthetic/NAME/origin.json``): the generator whose notes it
holds and its ``fresh_surrogates`` setting, written by the stage that makes the corpus
(``postprocess@NAME``, ``machine_annotate@NAME``). The stages that read a corpus by name (its
privacy audit, the taggers trained on it, its learning curve) read these from here, so that DVC
re-runs them when their own corpus's settings change, not when another corpus's do."""

from __future__ import annotations

from dataclasses import dataclass

from synthdeid.corpus.accounting import read_json, write_json
from synthdeid.spec.fresh_settings import FreshSettings


@dataclass(frozen=True)
class Origin:
    corpus: str
    generator: str | None
    """The generator whose notes the corpus holds (through a machine-annotated corpus's source)."""
    fresh_surrogates: FreshSettings | None = None
    """``corpora.NAME.fresh_surrogates`` as the study spec built it (None: off, and for a
    machine-annotated corpus); written as ``{labels, shapes}`` or false."""

    def write(self, path: str) -> None:
        fresh = False if self.fresh_surrogates is None else self.fresh_surrogates.as_dict()
        write_json({"corpus": self.corpus, "generator": self.generator, "fresh_surrogates": fresh}, path)

    @classmethod
    def read(cls, path: str) -> Origin:
        """The origin a stage wrote; a missing file names itself and the fix (``dvc repro``)."""
        data = read_json(path)  # missing: names the path and `dvc repro` (postprocess or machine_annotate)
        fresh = FreshSettings.switch(data["fresh_surrogates"])
        return cls(data["corpus"], data["generator"], None if fresh is None else FreshSettings.model_validate(fresh))
