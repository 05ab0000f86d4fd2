"""CoNLL/BIO: one ``token<TAB>tag`` per line, a blank line between sentences (newlines of the
text), ``-DOCSTART-<TAB>id`` before each document.

The view is token-level: reading joins tokens with single spaces and lines with newlines, so
the original spacing is not kept; spans and their words are. BIOES tags are read as well.
Writing splits the text at whitespace and at span edges only, so that a span's surface (a date
``12-03-1950``) reads back unchanged and a file read from CoNLL is written back token for token.

Columns are split on tabs when a line has one, else on spaces (CoNLL-2003's ``token POS chunk
tag``; a line whose tab-separated tag holds a space mixes both, and is refused); the token is the
first column and the tag the last, and every token line of a file must
have as many columns as the first: a token holding a space would otherwise lose a word. A
``-DOCSTART-`` line names its document (CoNLL-2003's ``-DOCSTART- -X- -X- O`` names none), and
every document id is read once.

Writing checks every document before writing any, and refuses what would not read back: a label
or id holding whitespace, an id the reader takes for no id (empty, ``O``, ``-X-...``), and a word that
starts with ``-DOCSTART-`` or a byte-order mark (the reader takes the first for a document's
start, the second for files joined with ``cat``).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from itertools import pairwise
from pathlib import Path
from typing import TYPE_CHECKING

from synthdeid.corpus.formats.doc_ids import duplicate_id
from synthdeid.corpus.formats.textfile import BOM, atomic_write, checked, decoded_lines, each_record, no_whitespace
from synthdeid.corpus.records import Document, Span
from synthdeid.corpus.tags import TagSet
from synthdeid.errors import InputError

if TYPE_CHECKING:
    from synthdeid.corpus.tokens import Tokenize

DOCSTART = "-DOCSTART-"
_DEFAULT_TOKEN = re.compile(r"\w+|[^\w\s]")
_WORD = re.compile(r"\S+")


def default_tokenize(text: str) -> list[tuple[int, int]]:
    """Words and single punctuation marks."""
    return [m.span() for m in _DEFAULT_TOKEN.finditer(text)]


def whitespace_tokenize(text: str) -> list[tuple[int, int]]:
    """Runs of non-whitespace: the CoNLL writer's tokens (span edges split them further)."""
    return [m.span() for m in _WORD.finditer(text)]


def to_bio(doc: Document, tokenize: Tokenize = whitespace_tokenize) -> list[list[tuple[str, str]]]:
    """Sentences (one per line of the text) of (token, BIO tag); tokens never cross a span edge."""
    bounds = sorted({0, len(doc.text)} | {x for s in doc.spans for x in (s.start, s.end)})
    label_at = {s.start: s for s in doc.spans}
    sentences: list[list[tuple[str, str]]] = [[]]
    current: Span | None = None
    for a, b in pairwise(bounds):
        if a in label_at:
            current = label_at[a]
        elif current is not None and a >= current.end:
            current = None
        first = True
        for i, line in enumerate(doc.text[a:b].split("\n")):
            if i:
                sentences.append([])
            for ta, tb in tokenize(line):
                tok = line[ta:tb]
                if tok.strip() != tok or not tok:
                    continue
                tag = "O" if current is None else ("B-" if first and a == current.start else "I-") + current.label
                first = False
                sentences[-1].append((tok, tag))
    return [s for s in sentences if s]


def check_conll(doc: Document, tokenize: Tokenize = whitespace_tokenize) -> None:
    """Refuse what a CoNLL file cannot hold (see the module docstring)."""
    if any(c.isspace() for c in doc.id):
        raise InputError(
            "the document id contains whitespace",
            doc_id=doc.id,
            fix="CoNLL keeps the id on the -DOCSTART- line: use ids without spaces",
        )
    if doc.id in {"", "O"} or doc.id.startswith("-X-"):
        raise InputError(
            "the document id reads as no id on a -DOCSTART- line (empty, CoNLL-2003's '-X-' columns or tag 'O')",
            doc_id=doc.id,
            fix="give the document another id",
        )
    for s in doc.spans:
        no_whitespace(s.label, doc.id, "a CoNLL tag column")
    for sentence in to_bio(doc, tokenize):
        for token, _ in sentence:
            if token.startswith((DOCSTART, BOM)):
                raise InputError(
                    f"the word {token[:40]!r} starts a line of the CoNLL file, where it reads as "
                    + ("a -DOCSTART- line" if token.startswith(DOCSTART) else "a stray byte-order mark"),
                    doc_id=doc.id,
                    fix="remove or rewrite it, or write another format (jsonl keeps any text)",
                )


def write_conll(docs: Iterable[Document], path: str | Path, tokenize: Tokenize = whitespace_tokenize) -> int:
    n = 0
    docs = checked(docs, lambda doc, i: check_conll(doc, tokenize))
    with atomic_write(path) as f:
        for doc in docs:
            f.write(f"{DOCSTART}\t{doc.id}\n\n")
            for sent in to_bio(doc, tokenize):
                f.writelines(f"{t}\t{tag}\n" for t, tag in sent)
                f.write("\n")
            n += 1
    return n


class _DocBuilder:
    def __init__(self, doc_id: str) -> None:
        self.id = doc_id
        self.lines: list[str] = []
        self.cur: list[str] = []
        self.length = 0
        self.spans: list[Span] = []
        self.open: tuple[int, int, str] | None = None  # start, end, label

    def close_span(self) -> None:
        if self.open:
            self.spans.append(Span(*self.open))
            self.open = None

    def add(self, token: str, tag: str, where: dict) -> None:
        if self.cur:
            self.length += 1
        start = self.length
        self.cur.append(token)
        self.length += len(token)
        if tag == "O":
            self.close_span()
            return
        prefix, _, label = tag.partition("-")
        if prefix not in {"B", "I", "E", "S"} or not label:
            raise InputError(f"unknown tag {tag!r}", **where, fix="use O, B-<label>, I-<label> (or BIOES: E-, S-)")
        continues = prefix in {"I", "E"} and self.open is not None and self.open[2] == label
        if continues and self.open is not None:  # (continues implies an open span)
            self.open = (self.open[0], self.length, label)
        else:
            self.close_span()
            self.open = (start, self.length, label)
        if prefix in {"E", "S"}:
            self.close_span()

    def end_line(self) -> None:
        self.close_span()
        if self.cur:
            self.lines.append(" ".join(self.cur))
            self.length += 1  # the newline
            self.cur = []

    def build(self, tagset: TagSet | None) -> Document:
        self.end_line()
        return Document.create(self.id, "\n".join(self.lines), self.spans, tagset=tagset)


def read_conll(
    path: str | Path, tagset: TagSet | None = None, errors: list[InputError] | None = None
) -> Iterator[Document]:
    """Documents of a CoNLL file; without ``-DOCSTART-`` lines each sentence block is a document.
    With an ``errors`` list, an invalid document is collected there and skipped."""
    stem = Path(path).stem
    doc: _DocBuilder | None = None
    has_docstart = False
    count = 0
    start_line = 0
    failed = False  # the current document had an error: skip to the next one

    def finish() -> Iterator[Document]:
        if doc is not None and doc.length and not failed:
            yield from each_record([(doc, tagset, path, start_line)], _built, errors)

    columns: list[int] = []  # the column count of the first token line, and its line number
    seen: dict[str, int] = {}
    for lineno, line, unreadable in decoded_lines(path):
        if unreadable is not None and errors is None:
            raise unreadable
        blank = not line.strip()
        if line.startswith(DOCSTART) or (blank and not has_docstart and doc is not None):
            yield from finish()
            doc, failed = None, False
            if line.startswith(DOCSTART):
                has_docstart = True
                count += 1
                try:
                    if unreadable is not None:  # its document is skipped: the id may be garbled
                        raise unreadable
                    doc_id = _docstart_id(line, path, lineno)
                except InputError as e:
                    if errors is None:
                        raise
                    errors.append(e)
                    doc_id, failed = None, True
                doc, start_line = _DocBuilder(doc_id or f"{stem}-{count}"), lineno
                duplicate = None if failed else duplicate_id(doc.id, seen, path, lineno)
                if duplicate is not None:
                    if errors is None:
                        raise duplicate
                    errors.append(duplicate)
                    failed = True
                seen.setdefault(doc.id, lineno)
            continue
        if blank:
            if doc is not None and not failed:
                doc.end_line()
            continue
        if doc is None:
            count += 1
            doc, start_line = _DocBuilder(f"{stem}-{count}"), lineno
        if failed:
            continue
        try:
            if unreadable is not None:
                raise unreadable
            token, tag = _columns(line, columns, path, lineno)
            doc.add(token, tag, {"path": path, "line": lineno})
        except InputError as e:
            if errors is None:
                raise
            errors.append(e.located(doc_id=doc.id))
            failed = True
    yield from finish()


def _docstart_id(line: str, path: str | Path, lineno: int) -> str | None:
    """The id a ``-DOCSTART-`` line gives, or None (none, CoNLL-2003's ``-X-`` columns, or an
    ``O`` tag column)."""
    rest = line[len(DOCSTART) :]
    if rest and not rest[0].isspace():
        raise InputError(
            f"a -DOCSTART- line runs on into {rest[:30]!r}",
            path=path,
            line=lineno,
            fix="write '-DOCSTART-<TAB><document id>'",
        )
    rest = rest.strip()
    if not rest or rest.startswith("-X-") or rest == "O":
        return None
    if any(c.isspace() for c in rest):
        raise InputError(
            f"the -DOCSTART- line's id {rest[:40]!r} holds whitespace",
            path=path,
            line=lineno,
            fix="write '-DOCSTART-<TAB><document id>' with an id without spaces",
        )
    return rest


def _columns(line: str, columns: list[int], path: str | Path, lineno: int) -> tuple[str, str]:
    """(token, tag) of a token line; the first token line fixes the file's column count."""
    parts = [p.strip() for p in line.split("\t")] if "\t" in line else line.split()
    if len(parts) < 2 or not parts[0] or not parts[-1]:
        raise InputError(
            f"expected a token and a tag, got {line[:60]!r}",
            path=path,
            line=lineno,
            fix="write '<token><TAB><tag>' on each line, a blank line between sentences",
        )
    if "\t" in line and any(c.isspace() for c in parts[-1]):
        raise InputError(
            f"the tag column {parts[-1][:40]!r} holds a space: the line separates its columns with "
            "both tabs and spaces",
            path=path,
            line=lineno,
            fix="separate every column with a tab, or every column with spaces",
        )
    if any(c.isspace() for c in parts[0]):
        raise InputError(
            f"the token {parts[0][:40]!r} holds whitespace",
            path=path,
            line=lineno,
            fix="put each word on its own line (one token per line)",
        )
    if not columns:
        columns.extend((len(parts), lineno))
    elif len(parts) != columns[0]:
        raise InputError(
            f"{len(parts)} columns where the file's first token line (line {columns[1]}) has {columns[0]}",
            path=path,
            line=lineno,
            fix="give every token line the same columns; a token holding a space must become two lines",
        )
    return parts[0], parts[-1]


def _built(doc: _DocBuilder, tagset: TagSet | None, path: str | Path, line: int) -> Document:
    try:
        return doc.build(tagset)
    except InputError as e:
        raise e.located(path=path, line=line) from None
