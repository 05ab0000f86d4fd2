"""Stage ``corpus``: the embedded demo corpus, or a user corpus (JSONL file, BRAT folder, CoNLL
file, inline-tag file, i2b2 XML, XML-style inline tags; read with ``corpus.format_options``) with
its labels mapped onto the tag set (``tags``), written as canonical JSONL; and the separate test
set of ``corpus.test_path`` if there is one (an empty file otherwise).

Invalid records are found against the user's own file and line, all of them: with
``corpus.on_invalid: fail`` (the default) the stage lists every problem and stops; with ``reject``
it leaves the invalid records out, counted by reason in the metrics and each listed with its
location and fix in ``data/corpus/rejected.jsonl``."""

from __future__ import annotations

from synthdeid import paths
from synthdeid.corpus.accounting import Counts
from synthdeid.corpus.formats import write_jsonl
from synthdeid.corpus.records import label_counts
from synthdeid.errors import InputError
from synthdeid.sources.loader import load_corpus, load_test_set, reason, write_rejected
from synthdeid.spec.packs import tagset
from synthdeid.stages.common import empty_on_purpose, stage_main, study

METRICS = paths.metrics("corpus")


@stage_main
def main() -> None:
    s = study()
    tags = tagset(s)
    rejected: list[InputError] = []
    test_rejected: list[InputError] = []
    docs = load_corpus(s.corpus, tags, rejected)
    test = load_test_set(s.corpus, tags, test_rejected)
    counts = Counts("corpus")
    counts.took(len(docs) + len(test) + len(rejected) + len(test_rejected))
    for e in rejected + test_rejected:
        counts.reject(reason(e))
    for found, key, path in ((docs, "corpus.path", s.corpus.path), (test, "corpus.test_path", s.corpus.test_path)):
        if not found and (key == "corpus.path" or test_rejected):
            raise InputError(
                f"every record of {key} is invalid",
                path=path,
                fix=f"`synthdeid validate {path}` lists each problem with its fix",
            )
    counts.kept(write_jsonl(docs, paths.CORPUS_DOCUMENTS) + write_jsonl(test, paths.CORPUS_TEST))
    write_rejected(rejected + test_rejected, paths.CORPUS_REJECTED)
    if not s.corpus.test_path:
        empty_on_purpose(paths.CORPUS_TEST, "no corpus.test_path: prepare splits the test notes off the corpus")
    if not rejected + test_rejected:
        empty_on_purpose(paths.CORPUS_REJECTED, "no record was rejected")
    counts.extra = {
        "on_invalid": s.corpus.on_invalid,
        "spans": sum(len(d.spans) for d in docs),
        "spans_per_label": label_counts(docs),
        "spans_dropped_by_mapping": dict(sorted(tags.dropped.items())),  # labels tags.mapping maps onto null
        "whitespace_tokens": sum(len(d.text.split()) for d in docs),
        "test_set": {
            "documents": len(test),
            "spans": sum(len(d.spans) for d in test),
            "spans_per_label": label_counts(test),
            "rejected": len(test_rejected),
        },
    }
    counts.write(METRICS)


if __name__ == "__main__":
    main()
