"""JSONL standoff, the canonical format: one ``{"id", "text", "spans"}`` object per line."""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from pathlib import Path

from ..errors import InputError
from ..records import Document
from ..tags import TagSet
from .textfile import read_lines


def read_jsonl(path: str | Path, tagset: TagSet | None = None) -> Iterator[Document]:
    """Documents of a JSONL file, validated; errors name the file and line."""
    seen: dict[str, int] = {}
    for lineno, line in read_lines(path):
        if not line.strip():
            continue
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
        yield doc


def write_jsonl(docs: Iterable[Document], path: str | Path) -> int:
    """Write documents (byte-stable: sorted spans, fixed key order); returns the count."""
    n = 0
    with open(path, "w", encoding="utf-8", newline="\n") as f:
        for doc in docs:
            f.write(json.dumps(doc.to_dict(), ensure_ascii=False) + "\n")
            n += 1
    return n
