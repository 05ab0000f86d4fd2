"""JSONL standoff, the canonical format: one ``{"id", "text", "spans"}`` object per line."""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from pathlib import Path

from ..errors import InputError
from ..records import Document
from ..tags import TagSet
from .textfile import each_record, read_lines


def read_jsonl(
    path: str | Path, tagset: TagSet | None = None, errors: list[InputError] | None = None
) -> Iterator[Document]:
    """Documents of a JSONL file, validated; errors name the file and line. With an ``errors``
    list, invalid records are collected there and skipped instead of raising."""
    seen: dict[str, int] = {}
    lines = ((line, path, n, tagset, seen) for n, line in read_lines(path) if line.strip())
    return each_record(lines, _parse, errors)


def _parse(line: str, path: str | Path, lineno: int, tagset: TagSet | None, seen: dict[str, int]) -> Document:
    try:
        data = json.loads(line)
    except json.JSONDecodeError as e:
        raise InputError(
            f"malformed JSON ({e.msg} at column {e.colno})",
            path=path,
            line=lineno,
            fix="write one complete JSON object per line",
        ) from None
    try:
        doc = Document.from_dict(data, tagset=tagset)
    except InputError as e:
        raise e.located(path=path, line=lineno) from None
    if doc.id in seen:
        raise InputError(
            f"duplicate document id {doc.id!r} (first on line {seen[doc.id]})",
            path=path, line=lineno, fix="give every document a unique id",
        )
    seen[doc.id] = lineno
    return doc


def write_jsonl(docs: Iterable[Document], path: str | Path) -> int:
    """Write documents (byte-stable: sorted spans, fixed key order); returns the count."""
    n = 0
    Path(path).parent.mkdir(parents=True, exist_ok=True)
    with open(path, "w", encoding="utf-8", newline="\n") as f:
        for doc in docs:
            f.write(json.dumps(doc.to_dict(), ensure_ascii=False) + "\n")
            n += 1
    return n
