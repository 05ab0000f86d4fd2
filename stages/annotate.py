"""Stage ``annotate``: PHI spans of the language-model splits, either the corpus's own (gold) or
those of an annotator plugin (e.g. ``deduce``), as in the paper's automatic annotation."""

from __future__ import annotations

from synthdeid import paths
from synthdeid.corpus.accounting import Counts
from synthdeid.corpus.formats import read_jsonl, write_jsonl
from synthdeid.corpus.records import label_counts
from synthdeid.generation.lm_text import LM_SPLITS
from synthdeid.phi.annotate import annotate_documents
from synthdeid.plugin_system.manager import registry
from synthdeid.progress import track
from synthdeid.spec.packs import tagset
from synthdeid.stages.common import stage_main, study

METRICS = paths.metrics("annotate")


@stage_main
def main() -> None:
    s = study()
    name = s.annotate.annotator
    annotator = None if name == "gold" else registry("annotator").create(name, s.annotate.settings)
    tags = tagset(s)
    counts = Counts("annotate")
    counts.extra = {"annotator": name}
    for split in LM_SPLITS:
        docs = list(read_jsonl(paths.prepared(split)))
        counts.took(len(docs))
        if annotator is not None:
            docs = list(annotate_documents(track(docs, f"annotate {split}", len(docs)), annotator, tags))
        counts.kept(write_jsonl(docs, paths.annotated(split)))
        counts.extra[split] = {"spans": sum(len(d.spans) for d in docs), "spans_per_label": label_counts(docs)}
    counts.write(METRICS)


if __name__ == "__main__":
    main()
