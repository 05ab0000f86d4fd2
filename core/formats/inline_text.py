"""Inline-tag text files: one document per line, ``id<TAB>inline text``, lossless
(see ``synthdeid.inline``). A file with malformed tags is an error here; generated text, where
malformed tags are expected, goes through ``synthdeid.inline.decode`` with counting instead."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from pathlib import Path

from ..errors import InputError
from ..inline import decode, encode
from ..records import Document
from ..tags import TagSet
from .textfile import each_record, read_lines


def read_inline(
    path: str | Path, tagset: TagSet | None = None, errors: list[InputError] | None = None
) -> Iterator[Document]:
    """Documents of an inline-tag file. With an ``errors`` list, invalid lines are collected
    there and skipped instead of raising."""
    lines = ((line, path, n, tagset) for n, line in read_lines(path) if line.strip())
    return each_record(lines, _parse, errors)


def _parse(line: str, path: str | Path, lineno: int, tagset: TagSet | None) -> Document:
    doc_id, tab, body = line.partition("\t")
    if not tab or not doc_id:
        raise InputError("expected '<id><TAB><inline text>'", path=path, line=lineno,
                         fix="start each line with the document id and a tab")
    decoded = decode(body, doc_id, trim=False)
    bad = {k: decoded.count(k) for k in ("unclosed", "unopened", "nested", "crossing", "empty", "unknown")}
    bad = {k: v for k, v in bad.items() if v}
    if bad:
        raise InputError(
            "malformed inline tags: " + ", ".join(f"{v} {k}" for k, v in bad.items()),
            path=path, line=lineno, doc_id=doc_id,
            fix="every <XSTART> needs its own <XEND> after it, not nested or crossing another tag",
        )
    try:
        return decoded.document.validate(tagset)
    except InputError as e:
        raise e.located(path=path, line=lineno) from None


def write_inline(docs: Iterable[Document], path: str | Path) -> int:
    n = 0
    with open(path, "w", encoding="utf-8", newline="\n") as f:
        for doc in docs:
            if "\t" in doc.id or "\n" in doc.id or not doc.id:
                raise InputError("the document id is empty or holds a tab or newline", doc_id=doc.id,
                                 fix="use ids without tabs or newlines")
            f.write(f"{doc.id}\t{encode(doc)}\n")
            n += 1
    return n
