"""XML-style inline tags: PHI marked in the text itself, ``<First_Name>Ulrik</First_Name>`` (label
= the element name), or i2b2 2006's attribute form ``<PHI TYPE="PATIENT">Jane Doe</PHI>`` (label =
``TYPE``).

Two layouts. A file (``*.xmltags``, ``*.xml.txt``): each non-empty line is one document,
``id<TAB>text`` (an id: characters other than whitespace, ``<`` and ``>``) when every line starts
so, else all text with the id ``{file stem}-{line number}``: the file decides, since a note's
first word and a tab (``BP<TAB>120/80``) look like an id; a file that mixes both is refused
unless the option ``ids`` says which (``every_line``, ``none``; see ``line_ids``). Lines end at
LF, CRLF or CR (a CR-only file is read line by line too); a line that is not UTF-8 is that
line's error. A folder: every ``*.txt`` file under it (in any
case: ``b.TXT``) is one document (ids: relative paths without the suffix), its text kept exactly,
line endings included; any other file is named in a warning. A UTF-8 byte-order mark at the start
of a file is dropped; one at the start of a later line of a file is an error (files joined with
``cat``: it would become part of the id).

Tags: with the option ``labels`` (a list of element names), only those elements are tags and
anything else (``<5 mg``, ``<br>``) is text. Without it, every ``<Name ...>`` / ``</Name>`` with a
name that is an XML name (``NAME``: letters of any script, digits, ``_ . - :``, not starting with a
digit, so ``<Förnamn>`` and ``<ns:Name>`` too) is a tag, and one without its partner is an error (as
are nested or crossing tags, an empty tag, and attributes other than ``TYPE``), naming line and
column. A token that looks like a tag but is none (``< Name>``, ``</ Name>``, ``<Name/>``,
``<Name START>``) is an error too, unless its name is outside ``labels``, or the option
``unknown_tags: keep`` keeps such tokens as text: PHI is never left unmarked without a word. The
five predefined XML entities (``&amp; &lt; &gt; &quot; &apos;``) are decoded in the text and in
``TYPE``; anything else after ``&`` stays as it is. The writer escapes ``&``, ``<`` and ``>``, so
reading what it wrote gives back the same documents.

Writing: to a folder (an existing folder or a path without suffix) one ``ID.txt`` per document;
to a file one ``id<TAB>text`` line per document, which refuses a text holding a line break (CR or
LF), and an id starting with U+FEFF on any line but the first, naming the document: write the
folder form for those. A label that is not an element name is written in the attribute form
``<PHI TYPE="...">``; an empty one is refused. Every document is checked before any is written.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path
from typing import Any

from synthdeid.corpus.formats.doc_ids import check_late_bom, duplicate_id, write_id_lines
from synthdeid.corpus.formats.folder import by_id, scan_folder
from synthdeid.corpus.formats.inline_text import unknown_tags_option
from synthdeid.corpus.formats.line_ids import ID, byte_lines, has_ids, ids_option, split_id
from synthdeid.corpus.formats.sniff_encoding import SNIFFED, check_not_wide
from synthdeid.corpus.formats.textfile import (
    BOM,
    check_line_start,
    each_record,
    read_text,
    write_each,
    write_new,
)
from synthdeid.corpus.records import Document, Span
from synthdeid.corpus.tags import TagSet
from synthdeid.errors import InputError

OPTIONS = ("labels", "unknown_tags", "ids")
_NAME_START = (
    ":A-Z_a-z\u00c0-\u00d6\u00d8-\u00f6\u00f8-\u02ff\u0370-\u037d\u037f-\u1fff\u200c\u200d\u2070-\u218f"
    "\u2c00-\u2fef\u3001-\ud7ff\uf900-\ufdcf\ufdf0-\ufffd\U00010000-\U000effff"
)
NAME = f"[{_NAME_START}][{_NAME_START}\\-.0-9\u00b7\u0300-\u036f\u203f\u2040]*"
"""An XML 1.0 name (the ``Name`` production): the element names that are tags."""
_NAME = re.compile(NAME)
_TAG = re.compile(rf"<(/?)({NAME})((?:\s+{NAME}\s*=\s*(?:\"[^\"<]*\"|'[^'<]*'))*)\s*>")
_TAG_LIKE = re.compile(rf"<\s*/?\s*({NAME})(?:[\s/][^<>]{{0,200}})?>")
"""A token that looks like a tag: '<', a name (after spaces or '/'), then '>' or space or '/'."""
_ATTRIBUTE = re.compile(rf"({NAME})\s*=\s*(?:\"([^\"<]*)\"|'([^'<]*)')")
_ENTITY = re.compile(r"&(amp|lt|gt|quot|apos);")
ENTITIES = {"amp": "&", "lt": "<", "gt": ">", "quot": '"', "apos": "'"}
_LINE_BREAK = re.compile(r"\r\n|\r|\n")
LABELS_FIX = "set corpus.format_options.labels (or --format-option labels=...) to the tag names"


def labels_option(options: Mapping[str, Any] | None) -> frozenset[str] | None:
    """The ``labels`` option: the element names that are tags (a list, or one comma-separated
    string), or None (every element name is a tag)."""
    value = (options or {}).get("labels")
    if value is None:
        return None
    if isinstance(value, str):
        value = [v.strip() for v in value.split(",")]
    if not isinstance(value, (list, tuple)) or not value:
        raise InputError(
            f"format option labels is {value!r}",
            fix="list the tag names, e.g. corpus.format_options: {labels: [First_Name, Date]} "
            "(or --format-option labels=First_Name,Date); leave it out to read every tag",
        )
    for name in value:
        if not isinstance(name, str) or not _NAME.fullmatch(name):
            raise InputError(
                f"format option labels holds {name!r}, which is not an element name",
                fix="list element names (letters, digits, '_', '.', '-', ':'; not starting with a digit)",
            )
    return frozenset(value)


def decode_entities(text: str) -> str:
    """``text`` with the five predefined XML entities decoded (nothing else)."""
    return _ENTITY.sub(lambda m: ENTITIES[m.group(1)], text)


def escape_text(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


class _Where:
    """Line and column of an offset in a body (the body starts at ``line``, ``column``)."""

    def __init__(self, path: Path, line: int, column: int, body: str) -> None:
        self.path, self.line, self.column, self.body = path, line, column, body

    def at(self, offset: int) -> tuple[int, int]:
        breaks = list(_LINE_BREAK.finditer(self.body, 0, offset))
        if not breaks:
            return self.line, self.column + offset
        return self.line + len(breaks), offset - breaks[-1].end() + 1

    def error(self, problem: str, offset: int, fix: str, doc_id: str) -> InputError:
        line, column = self.at(offset)
        return InputError(
            f"{problem} (line {line}, column {column})", path=self.path, line=line, doc_id=doc_id, fix=fix
        )


def _label(name: str, attributes: str, where: _Where, offset: int, doc_id: str) -> str:
    found: dict[str, str] = {}
    for m in _ATTRIBUTE.finditer(attributes):
        key = m.group(1)
        if key in found:
            raise where.error(f"<{name}> has the attribute {key} twice", offset, "write each attribute once", doc_id)
        found[key] = decode_entities(m.group(2) if m.group(2) is not None else m.group(3))
    other = sorted(set(found) - {"TYPE"})
    if other:
        raise where.error(
            f"<{name}> has the attribute {other[0]!r}",
            offset,
            'only TYPE is read (<PHI TYPE="PATIENT">...</PHI>): remove the others; if this is no '
            f"PHI tag, {LABELS_FIX}",
            doc_id,
        )
    if "TYPE" in found and not found["TYPE"]:
        raise where.error(f"<{name}> has an empty TYPE", offset, 'write the label, e.g. TYPE="PATIENT"', doc_id)
    return found.get("TYPE", name)


def _check_tag_like(body: str, start: int, end: int, labels: frozenset[str] | None, where: _Where, doc_id: str) -> None:
    """Refuse a token in ``body[start:end]`` (text between tags) that looks like a tag but is none."""
    for m in _TAG_LIKE.finditer(body, start, end):
        if labels is not None and m.group(1) not in labels:
            continue  # with a label set, other names are text
        token = m.group()
        why = (
            "an empty element marks no text"
            if token.rstrip("> \t\r\n").endswith("/")
            else "no space may follow '<' or '</'"
            if re.match(r"<\s|</\s", token)
            else 'what follows the name is no attribute NAME="value"'
        )
        raise where.error(
            f"{token[:40]!r} looks like a tag but is none ({why}): its PHI would stay unmarked",
            m.start(),
            'write PHI tags as <Name>text</Name> (or <PHI TYPE="Name">text</PHI>) and a '
            "'<' that is text as &lt;; or read such tokens as text with corpus.format_options: "
            "{unknown_tags: keep} (--format-option unknown_tags=keep)",
            doc_id,
        )


def parse_tagged(
    body: str,
    doc_id: str,
    labels: frozenset[str] | None,
    where: _Where,
    tagset: TagSet | None = None,
    keep_unknown: bool = False,
) -> Document:
    """The document of one tagged text (see the module docstring); ``keep_unknown`` keeps tokens
    that look like tags but are none as text (else they are refused)."""
    text: list[str] = []
    length = 0
    spans: list[Span] = []
    open_tag: tuple[str, str, int, int] | None = None  # name, label, start in the text, offset in the body
    last = 0
    unpaired_fix = "close every tag after its text: <Name>Jan</Name>" + (
        "" if labels else f"; if it is no PHI tag, {LABELS_FIX}"
    )
    for m in _TAG.finditer(body):
        closing, name, attributes = m.groups()
        if labels is not None and name not in labels:
            continue
        if not keep_unknown:
            _check_tag_like(body, last, m.start(), labels, where, doc_id)
        piece = decode_entities(body[last : m.start()])
        text.append(piece)
        length += len(piece)
        last = m.end()
        if closing and attributes.strip():
            raise where.error(
                f"the closing tag {m.group()[:40]!r} has attributes", m.start(), f"write </{name}>", doc_id
            )
        if closing and open_tag is None:
            raise where.error(f"the closing tag </{name}> has no opening tag <{name}>", m.start(), unpaired_fix, doc_id)
        if closing and open_tag is not None and open_tag[0] != name:
            line, column = where.at(open_tag[3])
            raise where.error(
                f"</{name}> closes <{open_tag[0]}> (opened at line {line}, column {column})",
                m.start(),
                f"close <{open_tag[0]}> with </{open_tag[0]}>; tags may not nest or cross",
                doc_id,
            )
        if closing and open_tag is not None:
            if length == open_tag[2]:
                raise where.error(
                    f"the tag <{name}> is empty",
                    open_tag[3],
                    "a PHI tag holds the PHI text: remove the empty tag",
                    doc_id,
                )
            spans.append(Span(open_tag[2], length, open_tag[1]))
            open_tag = None
        elif open_tag is not None:
            line, column = where.at(open_tag[3])
            raise where.error(
                f"<{name}> inside <{open_tag[0]}> (opened at line {line}, column {column}): nested or crossing tags",
                m.start(),
                f"close <{open_tag[0]}> before the next tag opens (PHI spans are flat)"
                + ("" if labels else f"; if <{name}> is no PHI tag, {LABELS_FIX}"),
                doc_id,
            )
        else:
            open_tag = (name, _label(name, attributes, where, m.start(), doc_id), length, m.start())
    if not keep_unknown:  # first: a closing tag that is tag-like leaves its opening tag unclosed
        _check_tag_like(body, last, len(body), labels, where, doc_id)
    if open_tag is not None:
        raise where.error(
            f"the opening tag <{open_tag[0]}> has no closing tag </{open_tag[0]}>", open_tag[3], unpaired_fix, doc_id
        )
    text.append(decode_entities(body[last:]))
    try:
        return Document.create(doc_id, "".join(text), spans, tagset=tagset)
    except InputError as e:
        raise e.located(path=where.path, line=where.line) from None


def _file_line(
    lineno: int,
    line: str,
    unreadable: InputError | None,
    path: Path,
    ids: bool,
    labels: frozenset[str] | None,
    tagset: TagSet | None,
    seen: dict[str, int],
    keep_unknown: bool,
) -> Document:
    check_line_start(line, path, lineno)
    doc_id, body, column = split_id(line, path, lineno, ids)
    if unreadable is not None:
        raise unreadable.located(doc_id=doc_id)
    duplicate = duplicate_id(doc_id, seen, path, lineno)
    if duplicate is not None:
        raise duplicate
    return parse_tagged(body, doc_id, labels, _Where(path, lineno, column, body), tagset, keep_unknown)


def _folder_file(
    path: Path, doc_id: str, labels: frozenset[str] | None, tagset: TagSet | None, keep_unknown: bool
) -> Document:
    text = read_text(path, doc_id)
    text = text[1:] if text.startswith(BOM) else text
    return parse_tagged(text, doc_id, labels, _Where(path, 1, 1, text), tagset, keep_unknown)


def read_xml_inline(
    path: str | Path,
    tagset: TagSet | None = None,
    errors: list[InputError] | None = None,
    options: Mapping[str, Any] | None = None,
) -> Iterator[Document]:
    """The documents of a tagged file (one per non-empty line) or of every ``*.txt`` file under a
    folder (sorted). With an ``errors`` list, invalid documents are collected there and skipped.
    ``options``: ``labels`` (the element names that are tags), ``unknown_tags`` (``error`` or
    ``keep``: tokens that look like tags but are none), ``ids`` (a file's: ``auto``,
    ``every_line`` or ``none``; see ``line_ids``)."""
    labels = labels_option(options)
    keep = unknown_tags_option(options)
    root = Path(path)
    if root.is_dir() and ids_option(options) != "auto":
        raise InputError(
            "format option ids is for a file of one note per line: a folder's ids are its file names",
            path=root,
            fix="remove --format-option ids (corpus.format_options.ids)",
        )
    if root.is_dir():
        files = scan_folder(root, (".txt",), "xml_inline")[".txt"]
        if not files:
            raise InputError(
                "no .txt files in the folder",
                path=root,
                fix="put each tagged note in its own NAME.txt, or name a file with one note per line",
            )
        items = ((f, key, labels, tagset, keep) for key, f in by_id(root, files, errors).items())
        return each_record(items, _folder_file, errors)
    if not root.exists():
        raise InputError("file not found", path=root, fix="check the path (params.yaml or the command line)")
    data = root.read_bytes()
    check_not_wide(data[:SNIFFED], root)
    lines = list(byte_lines(data[3:] if data.startswith(BOM.encode()) else data, root))
    ids = has_ids(lines, root, ids_option(options))
    seen: dict[str, int] = {}
    rows = ((*line, root, ids, labels, tagset, seen, keep) for line in lines)
    return each_record(rows, _file_line, errors)


def encode_tagged(doc: Document) -> str:
    """The text of ``doc`` with its spans as XML-style tags, escaped (``&``, ``<``, ``>``)."""
    out: list[str] = []
    last = 0
    for s in doc.spans:
        if _NAME.fullmatch(s.label):
            opening, closing = f"<{s.label}>", f"</{s.label}>"
        else:
            value = escape_text(s.label).replace('"', "&quot;")
            opening, closing = f'<PHI TYPE="{value}">', "</PHI>"
        out += [escape_text(doc.text[last : s.start]), opening, escape_text(doc.surface(s)), closing]
        last = s.end
    out.append(escape_text(doc.text[last:]))
    return "".join(out)


def write_xml_inline(docs: Iterable[Document], path: str | Path) -> int:
    """One ``id<TAB>tagged text`` line per document into a file, or one ``ID.txt`` per document
    into a folder (an existing folder or a path without suffix); returns the count."""
    p = Path(path)
    if p.is_dir() or (not p.exists() and not p.suffix):
        return _write_folder(docs, p)
    return write_id_lines(docs, p, _check_line, encode_tagged)


def _check_line(doc: Document, index: int) -> None:
    """Refuse what one ``id<TAB>text`` line cannot hold."""
    if not ID.fullmatch(doc.id + "\t"):
        raise InputError(
            "the document id is empty or holds whitespace, '<' or '>'",
            doc_id=doc.id,
            fix="use ids without whitespace, '<' or '>' (the line starts with id<TAB>)",
        )
    check_late_bom(doc, index, fix="remove the U+FEFF from the id, write this document first, or write the folder form")
    if _LINE_BREAK.search(doc.text) or any(_LINE_BREAK.search(s.label) for s in doc.spans):
        raise InputError(
            "the text holds a line break, which one line per document cannot hold",
            doc_id=doc.id,
            fix="write the folder form (one ID.txt per document): name a folder, a path without suffix, as the output",
        )


def _write_folder(docs: Iterable[Document], root: Path) -> int:
    # a text that starts with U+FEFF gets a byte-order mark before it, which the reader drops
    return write_each(
        docs,
        root,
        ".txt",
        lambda doc, out: write_new(out, BOM * doc.text.startswith(BOM) + encode_tagged(doc)),
        "xml_inline",
    )
