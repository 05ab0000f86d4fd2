"""Reading the configured corpus (the study's ``corpus`` section): the embedded demo corpus or a
user's files in any format, labels mapped onto the tag set, invalid records collected or stopping
with the whole list. Used by the ``corpus`` stage and by ``synthdeid check``."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import TYPE_CHECKING

from synthdeid.corpus.formats.textfile import atomic_write
from synthdeid.corpus.records import Document
from synthdeid.corpus.tags import TagSet
from synthdeid.corpus_io import read_documents
from synthdeid.errors import InputError

if TYPE_CHECKING:
    from synthdeid.spec.study import CorpusSection

SHOWN = 20
"""Problems printed when the stage stops; ``synthdeid validate`` lists every one."""


def reason(e: InputError) -> str:
    """A problem without its particulars (numbers, quoted text that may be PHI): a count key."""
    general = re.sub(r"'[^']*'|\"[^\"]*\"", "'…'", e.problem.split("\n")[0])
    return re.sub(r"\d+", "N", general)


def read_source(
    path: str, fmt: str, tagset: TagSet, mode: str, errors: list[InputError], options: dict | None = None
) -> list[Document]:
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


def load_corpus(corpus: CorpusSection, tagset: TagSet, errors: list[InputError] | None = None) -> list[Document]:
    """The documents of the ``corpus`` section's source, labels mapped onto ``tagset``; invalid
    records go to ``errors`` (``corpus.on_invalid: reject``) or stop the stage (``fail``)."""
    if corpus.source == "demo":
        from synthdeid.sources.demo import generate_demo_corpus

        return generate_demo_corpus(corpus.demo.n_docs, corpus.demo.seed)
    return read_source(
        corpus.path, corpus.format, tagset, corpus.on_invalid, [] if errors is None else errors, corpus.format_options
    )


def load_test_set(corpus: CorpusSection, tagset: TagSet, errors: list[InputError] | None = None) -> list[Document]:
    """The documents of ``corpus.test_path`` (same format setting as ``corpus.path``), or none."""
    if not corpus.test_path:
        return []
    return read_source(
        corpus.test_path,
        corpus.format,
        tagset,
        corpus.on_invalid,
        [] if errors is None else errors,
        corpus.format_options,
    )


def write_rejected(errors: list[InputError], path: str | Path) -> None:
    """One JSON line per rejected record: where it is, what is wrong and the fix."""
    with atomic_write(path) as f:
        for e in errors:
            f.write(
                json.dumps(
                    {"path": e.path, "line": e.line, "document": e.doc_id, "problem": e.problem, "fix": e.fix},
                    ensure_ascii=False,
                )
                + "\n"
            )
