"""Stage ``machine_annotate@NAME`` (Vakili et al. 2025): the tagger trained on the real gold notes
(``machine_annotated.NAME.tagger``, a folder under ``data/taggers``) annotates the notes of an
untagged synthetic corpus (``machine_annotated.NAME.corpus``), giving the synthetic corpus NAME;
writes its spans per tag and the PHI distribution against the real notes (Figure 5)."""

from __future__ import annotations

import sys
from pathlib import Path

from synthdeid.accounting import Counts
from synthdeid.corpus_stats import write_phi_distribution
from synthdeid.errors import InputError
from synthdeid.formats import read_jsonl, write_jsonl
from synthdeid.machine_annotate import annotation_stats, machine_annotate
from synthdeid.params import get, load_params
from synthdeid.plugin_manager import registry
from synthdeid.stages.common import stage_main
from synthdeid.tags import CANONICAL_TAGS
from synthdeid.utility import tagger_from

SOURCE = "data/synthetic/{corpus}/documents.jsonl"
TAGGER = "data/taggers/{tagger}"
REAL = "data/pseudonymized/train.jsonl"
OUT = "data/synthetic/{name}/documents.jsonl"
METRICS = "data/metrics/machine_annotate/{name}.json"
PLOT = "data/plots/phi_distribution/{name}.csv"
KEYS = ("corpus", "tagger", "require_phi")


def spec_of(params: dict, name: str) -> dict:
    """``machine_annotated.NAME`` with its keys checked (``corpus`` and ``tagger`` are required)."""
    spec = get(params, f"machine_annotated.{name}")
    if not isinstance(spec, dict) or set(spec) - set(KEYS) or not {"corpus", "tagger"} <= set(spec):
        raise InputError(f"machine_annotated.{name} must be a mapping with corpus and tagger (and optionally "
                         f"require_phi), got {spec!r}", path="params.yaml",
                         fix=f"e.g. machine_annotated: {{{name}: {{corpus: lstm_raw_p, tagger: real}}}}")
    if not isinstance(spec.get("require_phi", False), bool):
        raise InputError(f"machine_annotated.{name}.require_phi must be true or false, not {spec['require_phi']!r}",
                         path="params.yaml", fix="true drops (and counts) the notes the tagger finds no PHI in")
    if spec["corpus"] == name:
        raise InputError(f"machine_annotated.{name} would overwrite its own input corpus", path="params.yaml",
                         fix="give the machine-annotated corpus a new name")
    return spec


@stage_main
def main() -> None:
    name = sys.argv[1]
    params = load_params()
    spec = spec_of(params, name)
    pack = registry("language").create(get(params, "language"))
    source = SOURCE.format(corpus=spec["corpus"])
    docs = list(read_jsonl(source))
    tagger = tagger_from(params).load(Path(TAGGER.format(tagger=spec["tagger"])), pack.tokenize)
    counts = Counts(f"machine_annotate@{name}")
    annotated = machine_annotate(docs, tagger, counts, spec.get("require_phi", False), source)
    write_jsonl(annotated, OUT.format(name=name))
    counts.extra = {"corpus": spec["corpus"], "tagger": spec["tagger"], **annotation_stats(docs, annotated)}
    counts.write(METRICS.format(name=name))
    write_phi_distribution(list(read_jsonl(REAL)), annotated, CANONICAL_TAGS, PLOT.format(name=name))


if __name__ == "__main__":
    main()
