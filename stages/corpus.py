"""Stage ``corpus``: the embedded demo corpus, or a user corpus (JSONL file, BRAT folder, CoNLL
file, inline-tag file), written as canonical JSONL; and the separate test set of
``corpus.test_path`` if there is one (an empty file otherwise)."""

from __future__ import annotations

from synthdeid.accounting import Counts
from synthdeid.errors import InputError
from synthdeid.formats import read_documents, write_jsonl
from synthdeid.params import get, load_params
from synthdeid.records import Document, label_counts
from synthdeid.stages.common import stage_main

OUT = "data/corpus/documents.jsonl"
TEST_OUT = "data/corpus/test.jsonl"
METRICS = "data/metrics/corpus.json"


def load_corpus(params: dict) -> list[Document]:
    source = get(params, "corpus.source")
    if source == "demo":
        from synthdeid.demo import generate_demo_corpus

        return generate_demo_corpus(int(get(params, "corpus.demo.n_docs")), int(get(params, "corpus.demo.seed")))
    if source == "files":
        fmt = get(params, "corpus.format")
        return list(read_documents(get(params, "corpus.path"), None if fmt == "auto" else fmt))
    raise InputError(f"unknown corpus.source {source!r}", path="params.yaml",
                     fix="use `demo` (the embedded Dutch demo corpus) or `files` (read corpus.path)")


def load_test_set(params: dict) -> list[Document]:
    """The documents of ``corpus.test_path`` (same format setting as ``corpus.path``), or none."""
    path = (get(params, "corpus") or {}).get("test_path")
    if not path:
        return []
    fmt = get(params, "corpus.format")
    return list(read_documents(path, None if fmt == "auto" else fmt))


@stage_main
def main() -> None:
    params = load_params()
    docs = load_corpus(params)
    test = load_test_set(params)
    counts = Counts("corpus")
    counts.took(len(docs) + len(test))
    counts.kept(write_jsonl(docs, OUT) + write_jsonl(test, TEST_OUT))
    counts.extra = {
        "spans": sum(len(d.spans) for d in docs),
        "spans_per_label": label_counts(docs),
        "whitespace_tokens": sum(len(d.text.split()) for d in docs),
        "test_set": {"documents": len(test), "spans": sum(len(d.spans) for d in test),
                     "spans_per_label": label_counts(test)},
    }
    counts.write(METRICS)


if __name__ == "__main__":
    main()
