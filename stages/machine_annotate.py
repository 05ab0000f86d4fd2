"""Stage ``machine_annotate@NAME`` (Vakili et al. 2025): the tagger trained on the real gold notes
(``machine_annotated.NAME.tagger``, a folder under ``data/taggers``) annotates the notes of an
untagged synthetic corpus (``machine_annotated.NAME.corpus``), giving the synthetic corpus NAME;
writes its spans per tag and the PHI distribution against the real notes (Figure 5).

With ``tagger_share`` below 1 (the data-constraint ablation, Vakili Tables 2-3) the stage trains the
utility tagger itself on a seeded share of the real gold training notes (validated on the real dev
notes) and annotates with that tagger, which is then deleted."""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

from synthdeid.accounting import Counts
from synthdeid.corpus_stats import write_phi_distribution
from synthdeid.errors import InputError
from synthdeid.formats import read_jsonl, write_jsonl
from synthdeid.machine_annotate import annotation_stats, machine_annotate, require_some_phi
from synthdeid.params import get, load_params
from synthdeid.plugin_manager import registry
from synthdeid.split import check_share, share_indices
from synthdeid.stages.common import stage_main
from synthdeid.tags import CANONICAL_TAGS
from synthdeid.utility import tagger_from

SOURCE = "data/synthetic/{corpus}/documents.jsonl"
TAGGER = "data/taggers/{tagger}"
REAL = "data/pseudonymized/train.jsonl"
OUT = "data/synthetic/{name}/documents.jsonl"
METRICS = "data/metrics/machine_annotate/{name}.json"
PLOT = "data/plots/phi_distribution/{name}.csv"
KEYS = ("corpus", "tagger", "require_phi", "tagger_share")
GOLD = "data/prepared/{split}.jsonl"


def spec_of(params: dict, name: str) -> dict:
    """``machine_annotated.NAME`` with its keys checked (``corpus`` and ``tagger`` are required) and
    ``tagger_share`` filled in (1.0 when absent)."""
    spec = get(params, f"machine_annotated.{name}")
    if not isinstance(spec, dict) or set(spec) - set(KEYS) or not {"corpus", "tagger"} <= set(spec):
        raise InputError(f"machine_annotated.{name} must be a mapping with corpus and tagger (and optionally "
                         f"require_phi, tagger_share), got {spec!r}", path="params.yaml",
                         fix=f"e.g. machine_annotated: {{{name}: {{corpus: lstm_raw_p, tagger: real}}}}")
    if not isinstance(spec.get("require_phi", False), bool):
        raise InputError(f"machine_annotated.{name}.require_phi must be true or false, not {spec['require_phi']!r}",
                         path="params.yaml", fix="true drops (and counts) the notes the tagger finds no PHI in")
    share = check_share(spec.get("tagger_share", 1.0), f"machine_annotated.{name}.tagger_share")
    if share < 1 and spec["tagger"] != "real":
        raise InputError(f"machine_annotated.{name}.tagger_share trains a tagger on a share of the real gold notes, "
                         f"so its tagger must be real, not {spec['tagger']!r}", path="params.yaml",
                         fix="set tagger: real, or drop tagger_share to use the trained tagger as it is")
    if spec["corpus"] == name:
        raise InputError(f"machine_annotated.{name} would overwrite its own input corpus", path="params.yaml",
                         fix="give the machine-annotated corpus a new name")
    return {**spec, "tagger_share": share}


@stage_main
def main() -> None:
    name = sys.argv[1]
    params = load_params()
    spec = spec_of(params, name)
    pack = registry("language").create(get(params, "language"))
    source = SOURCE.format(corpus=spec["corpus"])
    docs = list(read_jsonl(source))
    share = spec["tagger_share"]
    counts = Counts(f"machine_annotate@{name}")
    extra: dict = {"corpus": spec["corpus"], "tagger": spec["tagger"], "tagger_share": share}
    with tempfile.TemporaryDirectory(prefix="synthdeid-annotator-") as scratch:
        if share < 1:
            gold = list(read_jsonl(GOLD.format(split="train")))
            train = [gold[i] for i in share_indices(len(gold), share, int(get(params, "utility.seed")))]
            trained = tagger_from(params).train(train, list(read_jsonl(GOLD.format(split="dev"))), Path(scratch),
                                                pack.tokenize)
            extra["tagger_training"] = {"train_documents": len(train), "of": len(gold), "dev": trained.get("dev")}
        tagger = tagger_from(params).load(Path(scratch) if share < 1 else Path(TAGGER.format(tagger=spec["tagger"])),
                                          pack.tokenize)
        annotated = machine_annotate(docs, tagger, counts, spec.get("require_phi", False), source)
    upstream = (f"the tagger trained here on {extra['tagger_training']['train_documents']} real notes" if share < 1
                else f"the tagger {TAGGER.format(tagger=spec['tagger'])} (stage train_tagger_{spec['tagger']}, "
                f"data/metrics/train_tagger/{spec['tagger']}.json)")
    require_some_phi(docs, annotated, f"machine_annotate@{name}", upstream, source)
    write_jsonl(annotated, OUT.format(name=name))
    counts.extra = {**extra, **annotation_stats(docs, annotated)}
    counts.write(METRICS.format(name=name))
    write_phi_distribution(list(read_jsonl(REAL)), annotated, CANONICAL_TAGS, PLOT.format(name=name))


if __name__ == "__main__":
    main()
