"""CoNLL/BIO: one ``token<TAB>tag`` per line, a blank line between sentences (newlines of the
text), ``-DOCSTART-<TAB>id`` before each document.

The view is token-level: reading joins tokens with single spaces and lines with newlines, so
the original spacing is not kept; spans and their words are. BIOES tags are read as well.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path

from ..errors import InputError
from ..records import Document, Span
from ..tags import TagSet
from .textfile import each_record, read_lines

DOCSTART = "-DOCSTART-"
_DEFAULT_TOKEN = re.compile(r"\w+|[^\w\s]")


def default_tokenize(text: str) -> list[tuple[int, int]]:
    """Words and single punctuation marks."""
    return [m.span() for m in _DEFAULT_TOKEN.finditer(text)]


def to_bio(doc: Document, tokenize: Callable[[str], list[tuple[int, int]]] = default_tokenize) -> list[list[tuple[str, str]]]:
    """Sentences (one per line of the text) of (token, BIO tag); tokens never cross a span edge."""
    bounds = sorted({0, len(doc.text)} | {x for s in doc.spans for x in (s.start, s.end)})
    label_at = {s.start: s for s in doc.spans}
    sentences: list[list[tuple[str, str]]] = [[]]
    current: Span | None = None
    for a, b in zip(bounds, bounds[1:]):
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


def write_conll(docs: Iterable[Document], path: str | Path,
                tokenize: Callable[[str], list[tuple[int, int]]] = default_tokenize) -> int:
    n = 0
    with open(path, "w", encoding="utf-8", newline="\n") as f:
        for doc in docs:
            if any(c.isspace() for c in doc.id):
                raise InputError("the document id contains whitespace", doc_id=doc.id,
                                 fix="CoNLL keeps the id on the -DOCSTART- line: use ids without spaces")
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
            raise InputError(f"unknown tag {tag!r}", **where,
                             fix="use O, B-<label>, I-<label> (or BIOES: E-, S-)")
        continues = prefix in {"I", "E"} and self.open is not None and self.open[2] == label
        if continues:
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

    for lineno, line in read_lines(path):
        blank = not line.strip()
        if line.startswith(DOCSTART) or (blank and not has_docstart and doc is not None):
            yield from finish()
            doc, failed = None, False
            if line.startswith(DOCSTART):
                has_docstart = True
                parts = line.split(maxsplit=1)
                count += 1
                doc, start_line = _DocBuilder(parts[1].strip() if len(parts) > 1 else f"{stem}-{count}"), lineno
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
        parts = line.split()
        try:
            if len(parts) < 2:
                raise InputError(f"expected a token and a tag, got {line!r}", path=path, line=lineno,
                                 fix="write '<token><TAB><tag>' on each line, a blank line between sentences")
            doc.add(parts[0], parts[-1], {"path": path, "line": lineno})
        except InputError as e:
            if errors is None:
                raise
            errors.append(e.located(doc_id=doc.id))
            failed = True
    yield from finish()


def _built(doc: _DocBuilder, tagset: TagSet | None, path: str | Path, line: int) -> Document:
    try:
        return doc.build(tagset)
    except InputError as e:
        raise e.located(path=path, line=line) from None
