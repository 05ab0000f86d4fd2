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

from synthdeid import paths
from synthdeid.corpus.accounting import Counts
from synthdeid.corpus.formats import read_jsonl, write_jsonl
from synthdeid.corpus.span_bounds import SpanBounds
from synthdeid.corpus.stats import write_phi_distribution
from synthdeid.corpus.tags import CANONICAL_TAGS
from synthdeid.generation.origin import Origin
from synthdeid.phi.machine_annotate import (
    annotation_stats,
    machine_annotate,
    require_some_phi,
)
from synthdeid.phi.machine_annotate_setup import annotating_tagger, check_output, upstream
from synthdeid.plugin_system.manager import registry
from synthdeid.spec.packs import language_pack
from synthdeid.stages.common import stage_main, study


@stage_main
def main() -> None:
    name = sys.argv[1]
    s = study()
    spec = s.machine_annotated[name]
    check_output(spec, name)
    pack = language_pack(s)
    source = paths.synthetic_corpus(spec.corpus)
    docs = list(read_jsonl(source))
    counts = Counts(f"machine_annotate@{name}")
    real = list(read_jsonl(paths.pseudonymized("train")))
    bounds = SpanBounds.of(real, pack.tokenize)
    tagger_dir = paths.tagger_dir(spec.tagger)
    with tempfile.TemporaryDirectory(prefix="synthdeid-annotator-") as scratch:
        tagger, figures = annotating_tagger(
            spec,
            registry("tagger").create(s.taggers[s.utility.tagger].plugin, s.taggers[s.utility.tagger].settings),
            s.utility.seed,
            pack.tokenize,
            tagger_dir,
            paths.prepared,
            Path(scratch),
        )
        annotated = machine_annotate(docs, tagger, counts, spec.require_phi, source, (bounds, pack.tokenize))
    require_some_phi(
        docs,
        annotated,
        f"machine_annotate@{name}",
        upstream(spec, figures, tagger_dir, paths.stage_metrics("train_tagger", spec.tagger)),
        source,
    )
    write_jsonl(annotated, paths.synthetic_corpus(name))
    Origin(name, Origin.read(paths.corpus_origin(spec.corpus)).generator).write(paths.corpus_origin(name))
    counts.extra = {
        **counts.extra,
        "corpus": spec.corpus,
        "tagger": spec.tagger,
        "tagger_share": spec.tagger_share,
        **figures,
        **annotation_stats(docs, annotated),
        "span_bounds": bounds.as_dict(),
    }
    counts.write(paths.stage_metrics("machine_annotate", name))
    write_phi_distribution(real, annotated, CANONICAL_TAGS, paths.phi_distribution_plot(name))


if __name__ == "__main__":
    main()
