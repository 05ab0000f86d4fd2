"""The ``example_tsv`` corpus format: one note per line, ``id<TAB>text<TAB>spans``.

The text escapes a backslash, tab, newline and carriage return as ``\\\\``, ``\\t``, ``\\n`` and
``\\r``; the spans are ``start:end:label`` separated by single spaces (none: an empty field).
Offsets count characters of the unescaped text, end exclusive."""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Iterator
from pathlib import Path

from synthdeid import Document, InputError, Span, TagSet

_ESCAPES = {"\\": "\\\\", "\t": "\\t", "\n": "\\n", "\r": "\\r"}
_UNESCAPES = {v: k for k, v in _ESCAPES.items()}
_ESCAPED = re.compile(r"\\(.)", re.DOTALL)
_SPAN = re.compile(r"(\d+):(\d+):(\S+)")


def escape(text: str) -> str:
    """``text`` with its backslashes, tabs and line breaks escaped."""
    return "".join(_ESCAPES.get(c, c) for c in text)


def unescape(text: str) -> str:
    """The text ``escape`` was given; an unknown escape is an ``InputError``."""

    def one(m: re.Match[str]) -> str:
        if m.group() not in _UNESCAPES:
            raise InputError(f"unknown escape {m.group()!r}", fix="write \\\\, \\t, \\n or \\r")
        return _UNESCAPES[m.group()]

    if text.endswith("\\") and not text.endswith("\\\\"):
        raise InputError("the text ends in a lone backslash", fix="write a backslash as \\\\")
    return _ESCAPED.sub(one, text)


def _document(line: str, tagset: TagSet | None) -> Document:
    fields = line.split("\t")
    if len(fields) != 3:
        raise InputError(
            f"{len(fields)} tab-separated fields, not 3", fix="write id<TAB>text<TAB>spans (spans may be empty)"
        )
    doc_id, text, spans = fields
    parsed = []
    for item in spans.split(" ") if spans else []:
        m = _SPAN.fullmatch(item)
        if m is None:
            raise InputError(f"span {item!r} is not start:end:label", doc_id=doc_id, fix="e.g. 0:3:Name")
        parsed.append(Span(int(m.group(1)), int(m.group(2)), m.group(3)))
    return Document.create(doc_id, unescape(text), parsed, tagset=tagset)


def read_tsv(
    path: str | Path, tagset: TagSet | None = None, errors: list[InputError] | None = None
) -> Iterator[Document]:
    """The notes of an ``example_tsv`` file. With an ``errors`` list, an invalid line is collected
    there and skipped; without, it is raised."""
    seen: set[str] = set()
    with open(path, encoding="utf-8", newline="\n") as f:
        for n, line in enumerate(f, 1):
            line = line.removesuffix("\n")
            if not line:
                continue
            try:
                doc = _document(line, tagset)
                if doc.id in seen:
                    raise InputError("a second note with this id", doc_id=doc.id, fix="give every note its own id")
            except InputError as e:
                if errors is None:
                    raise e.located(path=path, line=n) from None
                errors.append(e.located(path=path, line=n))
                continue
            seen.add(doc.id)
            yield doc


def write_tsv(docs: Iterable[Document], path: Path) -> int:
    """Write ``docs`` to ``path`` (a private file, 0o600), checking every note first: an id holding
    whitespace, or a label holding whitespace, cannot be written."""
    lines = []
    for doc in docs:
        if not doc.id or any(c.isspace() for c in doc.id):
            raise InputError("an id with whitespace cannot be written", doc_id=doc.id, fix="write jsonl instead")
        for span in doc.spans:
            if not span.label or any(c.isspace() for c in span.label):
                raise InputError(f"the label {span.label!r} holds whitespace", doc_id=doc.id, fix="map it first")
        spans = " ".join(f"{s.start}:{s.end}:{s.label}" for s in doc.spans)
        lines.append(f"{doc.id}\t{escape(doc.text)}\t{spans}\n")
    Path(path).parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as f:
        f.writelines(lines)
    return len(lines)
