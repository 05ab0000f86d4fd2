"""Stage ``prepare``: check the corpus's labels (the ``corpus`` stage mapped them), drop exact
duplicates (counted), and split it 80/10/10 with a seed; with a separate test set
(``corpus.test_path``) the corpus gives train and dev and the test set is the test split."""

from __future__ import annotations

from pathlib import Path

from synthdeid import paths
from synthdeid.corpus.accounting import Counts
from synthdeid.corpus.formats import read_jsonl, write_jsonl
from synthdeid.corpus.records import label_counts
from synthdeid.corpus.split import SPLITS, prepare_splits
from synthdeid.corpus.tags import CANONICAL_TAGS, TagSet
from synthdeid.stages.common import stage_main, study

METRICS = paths.metrics("prepare")


@stage_main
def main() -> None:
    s = study()
    # labels were mapped where the user's file was read (stage corpus): mapping them twice would
    # chain a mapping A -> B, B -> C
    tagset = TagSet(CANONICAL_TAGS, keep_unmapped=s.tags.keep_unmapped)
    docs = list(read_jsonl(paths.CORPUS_DOCUMENTS, tagset=tagset))
    test_docs = list(read_jsonl(paths.CORPUS_TEST, tagset=tagset)) if Path(paths.CORPUS_TEST).exists() else []
    counts = Counts("prepare")
    counts.took(len(docs) + len(test_docs))
    parts = prepare_splits(docs, test_docs, s.prepare.split, s.prepare.seed, counts, s.prepare.min_dev_notes)
    for name in SPLITS:
        counts.kept(write_jsonl(parts[name], paths.prepared(name)))
    counts.extra = {
        name: {
            "documents": len(parts[name]),
            "spans": sum(len(d.spans) for d in parts[name]),
            "spans_per_label": label_counts(parts[name]),
        }
        for name in SPLITS
    }
    counts.write(METRICS)


if __name__ == "__main__":
    main()
