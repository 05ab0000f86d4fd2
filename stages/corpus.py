"""Stage ``corpus``: the embedded demo corpus, or a user corpus (JSONL file, BRAT folder, CoNLL
file, inline-tag file, i2b2 XML, XML-style inline tags; read with ``corpus.format_options``) with
its labels mapped onto the tag set (``tags``), written as canonical JSONL; and the separate test
set of ``corpus.test_path`` if there is one (an empty file otherwise).

Invalid records are found against the user's own file and line, all of them: with
``corpus.on_invalid: fail`` (the default) the stage lists every problem and stops; with ``reject``
it leaves the invalid records out, counted by reason in the metrics and each listed with its
location and fix in ``data/corpus/rejected.jsonl``."""

from __future__ import annotations

import json
import re

from synthdeid.accounting import Counts
from synthdeid.errors import InputError
from synthdeid.formats import read_documents, write_jsonl
from synthdeid.formats.textfile import atomic_write
from synthdeid.params import get, load_params
from synthdeid.records import Document, label_counts
from synthdeid.stages.common import stage_main
from synthdeid.tags import TagSet, tagset_from_params

OUT = "data/corpus/documents.jsonl"
TEST_OUT = "data/corpus/test.jsonl"
REJECTED = "data/corpus/rejected.jsonl"
METRICS = "data/metrics/corpus.json"
ON_INVALID = ("fail", "reject")
SHOWN = 20
"""Problems printed when the stage stops; ``synthdeid validate`` lists every one."""


def on_invalid(params: dict) -> str:
    value = (get(params, "corpus") or {}).get("on_invalid", "fail")
    if value not in ON_INVALID:
        raise InputError(f"corpus.on_invalid is {value!r}", path="params.yaml",
                         fix="use `fail` (stop on the first run that finds invalid records, listing them all) "
                         "or `reject` (leave them out, counted with reasons)")
    return value


def format_options(params: dict) -> dict:
    """``corpus.format_options``: options for the reader (none when the key is absent)."""
    value = (get(params, "corpus") or {}).get("format_options") or {}
    if not isinstance(value, dict):
        raise InputError(f"corpus.format_options is {value!r}", path="params.yaml",
                         fix="write a mapping, e.g. format_options: {labels: [First_Name, Date]} (xml_inline), "
                         "or {} for none")
    return value


def reason(e: InputError) -> str:
    """A problem without its particulars (numbers, quoted text that may be PHI): a count key."""
    general = re.sub(r"'[^']*'|\"[^\"]*\"", "'…'", e.problem.split("\n")[0])
    return re.sub(r"\d+", "N", general)


def read_source(path: str, fmt: str, tagset: TagSet, mode: str, errors: list[InputError],
                options: dict | None = None) -> list[Document]:
    """The valid documents of ``path``; every invalid record is added to ``errors``, and with
    ``mode == "fail"`` any of them stops the stage with the whole list."""
    found: list[InputError] = []
    docs = list(read_documents(path, None if fmt == "auto" else fmt, tagset=tagset, errors=found, options=options))
    if found and mode == "fail":
        shown = "\n".join(f"  {str(e).splitlines()[0]}" for e in found[:SHOWN])
        more = f"\n  ... and {len(found) - SHOWN} more" if len(found) > SHOWN else ""
        raise InputError(
            f"{len(found)} invalid record(s):\n{shown}{more}",
            path=path,
            fix=f"correct them (`synthdeid validate {path}` lists each with its fix), or set "
            "corpus.on_invalid: reject to leave them out, counted with reasons in data/metrics/corpus.json",
        )
    errors.extend(found)
    return docs


def load_corpus(params: dict, errors: list[InputError] | None = None) -> list[Document]:
    """The corpus's documents, labels mapped onto the tag set; invalid records go to ``errors``
    (``corpus.on_invalid: reject``) or stop the stage (``fail``)."""
    source = get(params, "corpus.source")
    if source == "demo":
        from synthdeid.demo import generate_demo_corpus

        return generate_demo_corpus(int(get(params, "corpus.demo.n_docs")), int(get(params, "corpus.demo.seed")))
    if source == "files":
        return read_source(get(params, "corpus.path"), get(params, "corpus.format"), tagset_from_params(params),
                           on_invalid(params), [] if errors is None else errors, format_options(params))
    raise InputError(f"unknown corpus.source {source!r}", path="params.yaml",
                     fix="use `demo` (the embedded Dutch demo corpus) or `files` (read corpus.path)")


def load_test_set(params: dict, errors: list[InputError] | None = None) -> list[Document]:
    """The documents of ``corpus.test_path`` (same format setting as ``corpus.path``), or none."""
    path = (get(params, "corpus") or {}).get("test_path")
    if not path:
        return []
    return read_source(path, get(params, "corpus.format"), tagset_from_params(params), on_invalid(params),
                       [] if errors is None else errors, format_options(params))


def write_rejected(errors: list[InputError], path: str) -> None:
    """One JSON line per rejected record: where it is, what is wrong and the fix."""
    with atomic_write(path) as f:
        for e in errors:
            f.write(json.dumps({"path": e.path, "line": e.line, "document": e.doc_id, "problem": e.problem,
                                "fix": e.fix}, ensure_ascii=False) + "\n")


@stage_main
def main() -> None:
    params = load_params()
    rejected: list[InputError] = []
    test_rejected: list[InputError] = []
    docs = load_corpus(params, rejected)
    test = load_test_set(params, test_rejected)
    counts = Counts("corpus")
    counts.took(len(docs) + len(test) + len(rejected) + len(test_rejected))
    for e in rejected + test_rejected:
        counts.reject(reason(e))
    for found, key in ((docs, "corpus.path"), (test, "corpus.test_path")):
        if not found and (key == "corpus.path" or test_rejected):
            raise InputError(f"every record of {key} is invalid", path=get(params, key),
                             fix=f"`synthdeid validate {get(params, key)}` lists each problem with its fix")
    counts.kept(write_jsonl(docs, OUT) + write_jsonl(test, TEST_OUT))
    write_rejected(rejected + test_rejected, REJECTED)
    counts.extra = {
        "on_invalid": on_invalid(params),
        "spans": sum(len(d.spans) for d in docs),
        "spans_per_label": label_counts(docs),
        "whitespace_tokens": sum(len(d.text.split()) for d in docs),
        "test_set": {"documents": len(test), "spans": sum(len(d.spans) for d in test),
                     "spans_per_label": label_counts(test), "rejected": len(test_rejected)},
    }
    counts.write(METRICS)


if __name__ == "__main__":
    main()
