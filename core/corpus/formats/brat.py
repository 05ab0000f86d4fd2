"""BRAT standoff folders: ``NAME.txt`` with ``NAME.ann`` beside it.

Offsets in ``.ann`` count characters of the UTF-8 text, a byte-order mark included: the reader
strips the BOM and shifts the offsets. Discontinuous spans (``0 5;9 14``) become one span per
fragment. Only text-bound annotations (``T`` lines) are spans; relations, events, attributes,
normalizations, equivalences and notes (``R``, ``E``, ``A``/``M``, ``N``, ``*``, ``#`` lines) are
read past, as BRAT defines them; any other line, an ``.ann`` without its ``.txt`` and a ``T`` id
used twice are errors, so that no span is skipped unseen. Suffixes are read in any case
(``B.TXT`` with ``B.ANN``); any other file in the folder but BRAT's own (``*.conf``,
``.stats_cache``) is named in a warning.

Writing refuses a folder that is not empty, two ids that would name the same file (ids
differing only in case collide on case-insensitive file systems), and a label holding whitespace
(an ``.ann`` line cannot hold it), checking every document before writing any.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from pathlib import Path

from synthdeid.corpus.formats.folder import by_id, scan_folder
from synthdeid.corpus.formats.textfile import each_record, no_whitespace, read_text, write_each, write_new
from synthdeid.corpus.records import Document, Span
from synthdeid.corpus.tags import TagSet
from synthdeid.errors import InputError

_T_LINE = re.compile(r"^(T\d+)\t(\S+) (\d+ \d+(?:;\d+ \d+)*)(?:\t(.*))?$")
_OTHER_LINE = re.compile(r"^(?:[REAMN]\d+|\*|#\d*)\t")
_MAX_DIGITS = 15
_OWN_FILES = {".stats_cache"}  # besides *.conf: BRAT's configuration and the server's cache


def _norm(s: str) -> str:
    return " ".join(s.split())


def read_brat_document(txt: Path, doc_id: str, tagset: TagSet | None = None, ann: Path | None = None) -> Document:
    text = read_text(txt, doc_id)
    shift = 1 if text.startswith("\ufeff") else 0
    text = text[shift:]
    ann = ann or txt.with_suffix(".ann")
    if not ann.exists():
        raise InputError(
            "no .ann file beside the .txt file",
            path=txt,
            fix=f"create {ann.name} (an empty file for a note without PHI)",
        )
    spans: list[Span] = []
    seen: dict[str, int] = {}
    for lineno, line in enumerate(read_text(ann, doc_id).split("\n"), start=1):
        line = line.lstrip("\ufeff").rstrip("\r")
        if not line.strip() or _OTHER_LINE.match(line):
            continue  # relations, events, attributes, normalizations and notes are not spans
        m = _T_LINE.match(line)
        if not m:
            raise InputError(
                f"unreadable annotation line {line[:60]!r}",
                path=ann,
                line=lineno,
                fix="write text-bound annotations as 'T<n><TAB><label> <start> <end>[;<start> <end>...]<TAB><text>' "
                "(other BRAT lines start with R, E, A, M, N, * or #, then a tab)",
            )
        if m.group(1) in seen:
            raise InputError(
                f"annotation id {m.group(1)} is used twice (first on line {seen[m.group(1)]})",
                path=ann,
                line=lineno,
                fix="give every T annotation its own number",
            )
        seen[m.group(1)] = lineno
        if any(len(x) > _MAX_DIGITS for x in re.split(r"[ ;]", m.group(3))):
            raise InputError(
                f"{m.group(1)}: an offset of more than {_MAX_DIGITS} digits",
                path=ann,
                line=lineno,
                fix="offsets count characters of the .txt file",
            )
        fragments = []
        for frag in m.group(3).split(";"):
            a, b = (int(x) - shift for x in frag.split())
            if a < 0 or b > len(text) or a >= b:
                raise InputError(
                    f"{m.group(1)}: offsets {a + shift}-{b + shift} are outside the text "
                    f"({len(text) + shift} characters) or empty",
                    path=ann,
                    line=lineno,
                    fix="offsets count characters (not bytes) of the UTF-8 .txt file, end exclusive",
                )
            fragments.append((a, b))
        surface = " ".join(text[a:b] for a, b in fragments)
        if m.group(4) and _norm(surface) != _norm(m.group(4)):
            raise InputError(
                f"{m.group(1)}: the annotated text {m.group(4)!r} differs from the .txt at {m.group(3)}: {surface!r}",
                path=ann,
                line=lineno,
                fix="the .ann offsets do not match the .txt: re-export the pair from the annotation tool",
            )
        spans.extend(Span(a, b, m.group(2)) for a, b in fragments)
    try:
        return Document.create(doc_id, text, spans, tagset=tagset)
    except InputError as e:
        raise e.located(path=ann) from None


def read_brat(
    folder: str | Path, tagset: TagSet | None = None, errors: list[InputError] | None = None
) -> Iterator[Document]:
    """Every ``.txt``/``.ann`` pair under ``folder`` (sorted; ids are relative paths without
    suffix; suffixes in any case). With an ``errors`` list, invalid documents are collected there
    and skipped."""
    root = Path(folder)
    if not root.is_dir():
        raise InputError("BRAT folder not found", path=root, fix="name a folder holding .txt and .ann files")
    files = scan_folder(
        root, (".txt", ".ann"), "BRAT", belongs=lambda f: f.suffix.lower() == ".conf" or f.name in _OWN_FILES
    )
    if not files[".txt"]:
        raise InputError(
            "no .txt files in the BRAT folder",
            path=root,
            fix="put each note in NAME.txt with its annotations in NAME.ann",
        )
    txts = by_id(root, files[".txt"], errors)
    anns = by_id(root, files[".ann"], errors)
    for key, ann in anns.items():
        if key not in txts:
            e = InputError(
                "an .ann file without its .txt: its annotations have no text",
                path=ann,
                fix=f"put the note's text in {ann.with_suffix('.txt').name}, or remove the .ann file",
            )
            if errors is None:
                raise e
            errors.append(e)
    pairs = ((txt, key, tagset, anns.get(key)) for key, txt in txts.items())
    yield from each_record(pairs, read_brat_document, errors)


def write_brat(docs: Iterable[Document], folder: str | Path) -> int:
    """Write one ``.txt``/``.ann`` pair per document into a new or empty folder; returns the count."""
    return write_each(docs, folder, ".txt", _write_pair, "BRAT", check=_check, companions=(".ann",))


def _check(doc: Document, index: int) -> None:
    for s in doc.spans:
        no_whitespace(s.label, doc.id, "a BRAT .ann line")


def _write_pair(doc: Document, txt: Path) -> None:
    # a text that starts with U+FEFF gets a byte-order mark before it, which the reader strips
    shift = 1 if doc.text.startswith("\ufeff") else 0
    write_new(txt, "\ufeff" * shift + doc.text)
    lines = [
        f"T{i}\t{s.label} {s.start + shift} {s.end + shift}\t{_norm(doc.surface(s))}\n"
        for i, s in enumerate(doc.spans, start=1)
    ]
    write_new(txt.with_suffix(".ann"), "".join(lines), newline="\n")
