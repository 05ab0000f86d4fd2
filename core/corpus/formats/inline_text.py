"""Inline-tag text files: one document per line, ``id<TAB>inline text``, lossless
(see ``synthdeid.corpus.inline``). A file with malformed tags is an error here; generated text, where
malformed tags are expected, goes through ``synthdeid.corpus.inline.decode`` with counting instead.
Text after an ``<EOD>`` and an id used twice are errors too: nothing is dropped unseen."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from pathlib import Path

from synthdeid.corpus.formats.textfile import atomic_write, each_record, read_lines
from synthdeid.corpus.inline import EOD, decode, encode, find_reserved
from synthdeid.corpus.records import Document
from synthdeid.corpus.tags import TagSet
from synthdeid.errors import InputError


def read_inline(
    path: str | Path, tagset: TagSet | None = None, errors: list[InputError] | None = None
) -> Iterator[Document]:
    """Documents of an inline-tag file. With an ``errors`` list, invalid lines are collected
    there and skipped instead of raising."""
    seen: dict[str, int] = {}
    lines = ((line, path, n, tagset, seen) for n, line in read_lines(path) if line.strip())
    return each_record(lines, _parse, errors)


def _parse(line: str, path: str | Path, lineno: int, tagset: TagSet | None, seen: dict[str, int]) -> Document:
    doc_id, tab, body = line.partition("\t")
    if not tab or not doc_id.strip():
        raise InputError("expected '<id><TAB><inline text>'", path=path, line=lineno,
                         fix="start each line with the document id and a tab")
    if doc_id in seen:
        raise InputError(f"duplicate document id {doc_id!r} (first on line {seen[doc_id]})",
                         path=path, line=lineno, doc_id=doc_id, fix="give every document a unique id")
    seen[doc_id] = lineno
    eod = body.find(EOD)
    if eod >= 0 and body[eod + len(EOD):].strip():
        raise InputError(f"text after {EOD} at column {len(doc_id) + 2 + eod}: {body[eod:eod + 40]!r}",
                         path=path, line=lineno, doc_id=doc_id,
                         fix=f"{EOD} ends a document: put the rest on its own line with its own id, or remove {EOD}")
    decoded = decode(body, doc_id, trim=False)
    bad = {k: decoded.count(k) for k in ("unclosed", "unopened", "nested", "crossing", "empty", "unknown")}
    bad = {k: v for k, v in bad.items() if v}
    if bad:
        raise InputError(
            "malformed inline tags: " + ", ".join(f"{v} {k}" for k, v in bad.items()),
            path=path, line=lineno, doc_id=doc_id,
            fix="every <XSTART> needs its own <XEND> after it, not nested or crossing another tag",
        )
    clash = find_reserved(decoded.document.text)
    if clash:
        raise InputError(f"the text still reads as holding the tag {clash.group()!r} once its tags are taken out",
                         path=path, line=lineno, doc_id=doc_id,
                         fix="remove the stray '<', '>' or tag pieces around the tags")
    try:
        return decoded.document.validate(tagset)
    except InputError as e:
        raise e.located(path=path, line=lineno) from None


def write_inline(docs: Iterable[Document], path: str | Path) -> int:
    n = 0
    with atomic_write(path) as f:
        for doc in docs:
            if "\t" in doc.id or "\n" in doc.id or not doc.id:
                raise InputError("the document id is empty or holds a tab or newline", doc_id=doc.id,
                                 fix="use ids without tabs or newlines")
            if n == 0 and doc.id.startswith("\ufeff"):
                f.write("\ufeff")  # a byte-order mark, which the reader strips: the id keeps its U+FEFF
            f.write(f"{doc.id}\t{encode(doc)}\n")
            n += 1
    return n
