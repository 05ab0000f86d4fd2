"""Document ids in the one-file formats (jsonl, conll, inline text, xml_inline's line form),
checked once for all of them: a reader refuses an id used twice (``duplicate_id``); a writer of
``id<TAB>...`` lines lets only the first line's id start with U+FEFF (``write_id_lines``): a
reader takes a U+FEFF starting a later line for a byte-order mark left by joining files."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from pathlib import Path

from synthdeid.corpus.formats.textfile import BOM, atomic_write, checked
from synthdeid.corpus.records import Document
from synthdeid.errors import InputError


def duplicate_id(doc_id: str, seen: dict[str, int], path: str | Path, lineno: int) -> InputError | None:
    """The error for ``doc_id`` read again on line ``lineno`` of ``path`` (``seen``: the ids read
    so far and their lines), or None after noting it as read there."""
    if doc_id in seen:
        return InputError(
            f"duplicate document id {doc_id!r} (first on line {seen[doc_id]})",
            path=path,
            line=lineno,
            doc_id=doc_id,
            fix="give every document a unique id",
        )
    seen[doc_id] = lineno
    return None


def check_late_bom(doc: Document, index: int, fix: str) -> None:
    """Refuse an id that starts with U+FEFF on any line but the first (``index`` 0)."""
    if index and doc.id.startswith(BOM):
        raise InputError(
            "the id starts with U+FEFF, which only the first line may (a reader takes it for a "
            "byte-order mark left by joining files)",
            doc_id=doc.id,
            fix=fix,
        )


def write_id_lines(
    docs: Iterable[Document],
    path: str | Path,
    check: Callable[[Document, int], None],
    body: Callable[[Document], str],
) -> int:
    """One ``id<TAB>body(doc)`` line per document into ``path``, each checked (``checked``; the
    check should call ``check_late_bom``) before any is written; returns the count. A first id
    that starts with U+FEFF gets a byte-order mark before it, which the readers drop: the id keeps
    its U+FEFF."""
    n = 0
    docs = checked(docs, check)
    with atomic_write(path) as f:
        for doc in docs:
            if n == 0 and doc.id.startswith(BOM):
                f.write(BOM)
            f.write(f"{doc.id}\t{body(doc)}\n")
            n += 1
    return n
