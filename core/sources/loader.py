"""Reading the configured corpus (``corpus`` in params): the embedded demo corpus or a user's files
in any format, labels mapped onto the tag set, invalid records collected or stopping with the
whole list. Used by the ``corpus`` stage and by ``synthdeid check``."""

from __future__ import annotations

import json
import re
from pathlib import Path

from synthdeid.corpus.formats import read_documents
from synthdeid.corpus.formats.textfile import atomic_write
from synthdeid.corpus.records import Document
from synthdeid.corpus.tags import TagSet, tagset_from_params
from synthdeid.errors import InputError
from synthdeid.params import get, get_int

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
        from synthdeid.sources.demo import generate_demo_corpus

        return generate_demo_corpus(get_int(params, "corpus.demo.n_docs", minimum=1),
                                    get_int(params, "corpus.demo.seed"))
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
    if not isinstance(path, str):
        raise InputError(f"corpus.test_path must be a path or null, not {path!r}", path="params.yaml",
                         fix="write the test set's path, e.g. test_path: data/test.jsonl, or null for none")
    return read_source(path, get(params, "corpus.format"), tagset_from_params(params), on_invalid(params),
                       [] if errors is None else errors, format_options(params))


def write_rejected(errors: list[InputError], path: str | Path) -> None:
    """One JSON line per rejected record: where it is, what is wrong and the fix."""
    with atomic_write(path) as f:
        for e in errors:
            f.write(json.dumps({"path": e.path, "line": e.line, "document": e.doc_id, "problem": e.problem,
                                "fix": e.fix}, ensure_ascii=False) + "\n")
