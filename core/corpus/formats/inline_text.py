"""Inline-tag text files: one document per line, ``id<TAB>inline text``, lossless
(see ``synthdeid.corpus.inline``). A file with malformed tags is an error here; generated text, where
malformed tags are expected, goes through ``synthdeid.corpus.inline.decode`` with counting instead.
Text after an ``<EOD>`` and an id used twice are errors too: nothing is dropped unseen.

A token that looks like a tag but is none (``<Name START>``, ``< NameEND>``, a label that is not
ASCII letters, digits and ``_``: ``<FörnamnSTART>``) is an error naming the line, unless the
option ``unknown_tags: keep`` (``corpus.format_options``) keeps such tokens as text. A line other
than the first that starts with a byte-order mark is an error (files joined with ``cat``). The
writer checks every document before writing any: labels an inline tag cannot hold, text holding
tag tokens or tag-like tokens, and ids the line cannot hold are refused."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path
from typing import Any

from synthdeid.corpus.formats.doc_ids import check_late_bom, duplicate_id, write_id_lines
from synthdeid.corpus.formats.textfile import BOM, choice_option, decoded_lines, each_record
from synthdeid.corpus.inline import EOD, check_label, decode, encode, find_reserved, find_tag_like
from synthdeid.corpus.records import Document
from synthdeid.corpus.tags import TagSet
from synthdeid.errors import InputError

OPTIONS = ("unknown_tags",)
UNKNOWN_TAGS = ("error", "keep")
UNKNOWN_TAGS_FIX = "error refuses a token that looks like a tag but is none (<Name START>), keep reads it as text"


def unknown_tags_option(options: Mapping[str, Any] | None) -> bool:
    """True when the option ``unknown_tags: keep`` keeps tag-like tokens as text."""
    return choice_option(options, "unknown_tags", UNKNOWN_TAGS, UNKNOWN_TAGS_FIX) == "keep"


def read_inline(
    path: str | Path,
    tagset: TagSet | None = None,
    errors: list[InputError] | None = None,
    options: Mapping[str, Any] | None = None,
) -> Iterator[Document]:
    """Documents of an inline-tag file. With an ``errors`` list, invalid lines are collected
    there and skipped instead of raising. ``options``: ``unknown_tags`` (``error`` or ``keep``)."""
    keep = unknown_tags_option(options)
    seen: dict[str, int] = {}
    lines = ((line, path, n, tagset, seen, keep, bad) for n, line, bad in decoded_lines(path) if line.strip())
    return each_record(lines, _parse, errors)


def _parse(
    line: str,
    path: str | Path,
    lineno: int,
    tagset: TagSet | None,
    seen: dict[str, int],
    keep: bool = False,
    bad: InputError | None = None,
) -> Document:
    doc_id, tab, body = line.partition("\t")
    if bad is not None:  # a line that is no UTF-8 (or starts with a byte-order mark)
        raise bad.located(doc_id=doc_id.lstrip(BOM) if tab and "\ufffd" not in doc_id else None)
    if not tab or not doc_id.strip():
        raise InputError(
            "expected '<id><TAB><inline text>'",
            path=path,
            line=lineno,
            fix="start each line with the document id and a tab",
        )
    duplicate = duplicate_id(doc_id, seen, path, lineno)
    if duplicate is not None:
        raise duplicate
    eod = body.find(EOD)
    if eod >= 0 and body[eod + len(EOD) :].strip():
        raise InputError(
            f"text after {EOD} at column {len(doc_id) + 2 + eod}: {body[eod : eod + 40]!r}",
            path=path,
            line=lineno,
            doc_id=doc_id,
            fix=f"{EOD} ends a document: put the rest on its own line with its own id, or remove {EOD}",
        )
    decoded = decode(body, doc_id, trim=False)
    # first: a tag-like token leaves its partner unpaired (a left-over real tag token is reported below)
    odd = None if keep or find_reserved(decoded.document.text) else find_tag_like(decoded.document.text)
    if odd:
        raise InputError(
            f"{odd.group()[:60]!r} looks like an inline tag but is none: its PHI would stay unmarked",
            path=path,
            line=lineno,
            doc_id=doc_id,
            fix="write <LabelSTART> text <LabelEND>, the label of ASCII letters, digits and '_' with "
            "no space before START/END; or read such tokens as text with corpus.format_options: "
            "{unknown_tags: keep} (--format-option unknown_tags=keep)",
        )
    counts = {k: decoded.count(k) for k in ("unclosed", "unopened", "nested", "crossing", "empty", "unknown")}
    malformed = {k: v for k, v in counts.items() if v}
    if malformed:
        raise InputError(
            "malformed inline tags: " + ", ".join(f"{v} {k}" for k, v in malformed.items()),
            path=path,
            line=lineno,
            doc_id=doc_id,
            fix="every <XSTART> needs its own <XEND> after it, not nested or crossing another tag",
        )
    clash = find_reserved(decoded.document.text)
    if clash:
        raise InputError(
            f"the text still reads as holding the tag {clash.group()!r} once its tags are taken out",
            path=path,
            line=lineno,
            doc_id=doc_id,
            fix="remove the stray '<', '>' or tag pieces around the tags",
        )
    try:
        return decoded.document.validate(tagset)
    except InputError as e:
        raise e.located(path=path, line=lineno) from None


def check_inline(doc: Document, index: int) -> None:
    """Refuse what an inline-tag line cannot hold (see the module docstring)."""
    if "\t" in doc.id or "\n" in doc.id or not doc.id.strip():
        raise InputError(
            "the document id is empty or holds a tab or newline", doc_id=doc.id, fix="use ids without tabs or newlines"
        )
    check_late_bom(doc, index, fix="remove the U+FEFF from the id, or write this document first")
    for s in doc.spans:
        check_label(s.label, doc.id)
    clash = find_reserved(doc.text) or find_tag_like(doc.text)
    if clash:
        raise InputError(
            f"the text holds {clash.group()[:60]!r}, which reads as an inline tag (or one malformed) "
            f"at offset {clash.start()}",
            doc_id=doc.id,
            fix="remove or rewrite it, or write another format (jsonl keeps any text)",
        )


def write_inline(docs: Iterable[Document], path: str | Path) -> int:
    return write_id_lines(docs, path, check_inline, encode)
