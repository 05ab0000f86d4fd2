"""Stage ``prepare``: validate the corpus against the tag set (labels mapped), drop exact
duplicates (counted), and split it 80/10/10 with a seed."""

from __future__ import annotations

from synthdeid.accounting import Counts
from synthdeid.formats import read_jsonl, write_jsonl
from synthdeid.params import get, load_params
from synthdeid.records import label_counts
from synthdeid.split import SPLITS, deduplicate, split_documents
from synthdeid.stages.common import stage_main
from synthdeid.tags import CANONICAL_TAGS, TagSet

IN = "data/corpus/documents.jsonl"
OUT = "data/prepared/{split}.jsonl"
METRICS = "data/metrics/prepare.json"


def tagset_from(params: dict) -> TagSet:
    return TagSet(CANONICAL_TAGS, get(params, "tags.mapping") or {}, bool(get(params, "tags.keep_unmapped")))


@stage_main
def main() -> None:
    params = load_params()
    docs = list(read_jsonl(IN, tagset=tagset_from(params)))
    counts = Counts("prepare")
    counts.took(len(docs))
    unique = deduplicate(docs, counts)
    parts = split_documents(unique, get(params, "prepare.split"), int(get(params, "prepare.seed")))
    for name in SPLITS:
        counts.kept(write_jsonl(parts[name], OUT.format(split=name)))
    counts.extra = {
        name: {"documents": len(parts[name]), "spans": sum(len(d.spans) for d in parts[name]),
               "spans_per_label": label_counts(parts[name])}
        for name in SPLITS
    }
    counts.write(METRICS)


if __name__ == "__main__":
    main()
