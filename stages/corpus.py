"""Stage ``corpus``: the embedded demo corpus, or a user corpus (JSONL file, BRAT folder, CoNLL
file, inline-tag file), written as canonical JSONL."""

from __future__ import annotations

from synthdeid.accounting import Counts
from synthdeid.errors import InputError
from synthdeid.formats import read_documents, write_jsonl
from synthdeid.params import get, load_params
from synthdeid.records import Document, label_counts
from synthdeid.stages.common import stage_main

OUT = "data/corpus/documents.jsonl"
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


@stage_main
def main() -> None:
    params = load_params()
    docs = load_corpus(params)
    counts = Counts("corpus")
    counts.took(len(docs))
    counts.kept(write_jsonl(docs, OUT))
    counts.extra = {
        "spans": sum(len(d.spans) for d in docs),
        "spans_per_label": label_counts(docs),
        "whitespace_tokens": sum(len(d.text.split()) for d in docs),
    }
    counts.write(METRICS)


if __name__ == "__main__":
    main()
