"""The lines of a one-note-per-line file (XML-style inline tags) and whether they start with an id.

``id<TAB>text`` and a note whose first word is followed by a tab (``BP<TAB>120/80``) look alike,
so the file decides, not the line: the option ``ids`` is ``auto`` (every non-blank line starts
with an id and a tab: those are ids; no line does: the ids are ``{file stem}-{line number}``; a
mix is refused, naming a line of each kind), ``every_line`` (a line without an id is an error,
that line's alone) or ``none`` (no line has an id: every line is all text)."""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

from synthdeid.corpus.formats.sniff_encoding import not_utf8
from synthdeid.corpus.formats.textfile import choice_option
from synthdeid.errors import InputError

IDS = ("auto", "every_line", "none")
IDS_FIX = (
    "auto takes ids when every line starts with id<TAB> and none when no line does, every_line "
    "wants an id on each line, none reads every line as text"
)
ID = re.compile(r"([^\s<>]+)\t")
"""An id field: characters other than whitespace, '<' and '>', then a tab."""
_BREAK = re.compile(rb"\r\n|\r|\n")


def ids_option(options: Mapping[str, Any] | None) -> str:
    """The ``ids`` option: ``auto`` unless given."""
    return choice_option(options, "ids", IDS, IDS_FIX)


def byte_lines(data: bytes, path: Path) -> Iterator[tuple[int, str, InputError | None]]:
    """(line number, text, its error or None) of each line (ending at LF, CRLF or CR) that is not
    blank; a line that is no UTF-8 comes with its error (its bad bytes as U+FFFD)."""
    start, lineno = 0, 1
    while start <= len(data):
        m = _BREAK.search(data, start)
        end = m.start() if m else len(data)
        raw = data[start:end]
        try:
            line, error = raw.decode("utf-8"), None
        except UnicodeDecodeError as e:
            line = raw.decode("utf-8", errors="replace")
            error = not_utf8(raw, e.start, e.end, start + e.start, path, lineno, None)
        if line.strip():
            yield lineno, line, error
        if not m:
            break
        start, lineno = m.end(), lineno + 1


def has_ids(lines: list[tuple[int, str, InputError | None]], path: Path, mode: str) -> bool:
    """Whether the file's lines start with ids (see the module docstring); a mix is refused in
    ``auto``."""
    if mode != "auto":
        return mode == "every_line"
    fields = [(n, ID.match(line)) for n, line, _ in lines]
    first = next(((n, m.group(1)) for n, m in fields if m), None)
    without = next((n for n, m in fields if not m), None)
    if first is None or without is None:
        return first is not None
    with_id, word = first
    raise InputError(
        f"line {with_id} starts with {word[:40]!r} and a tab, as an id<TAB>text line does, but line "
        f"{without} has no id: is {word[:40]!r} an id or the first word of the note?",
        path=path,
        line=max(with_id, without),
        fix="give every line an id and a tab, or none (the ids are then FILE-LINE); or say which: "
        "--format-option ids=none (corpus.format_options: {ids: none}) reads every line as text, "
        "ids=every_line takes the id of each line and refuses a line without",
    )


def split_id(line: str, path: Path, lineno: int, ids: bool) -> tuple[str, str, int]:
    """(id, body, column where the body starts) of a line; with ``ids``, a line without an id
    field is an error."""
    if not ids:
        return f"{path.stem}-{lineno}", line, 1
    m = ID.match(line)
    if not m:
        raise InputError(
            f"the line does not start with an id and a tab: {line[:40]!r}",
            path=path,
            line=lineno,
            fix="start the line with its id and a tab (or read the file with --format-option ids=none)",
        )
    return m.group(1), line[m.end() :], m.end() + 1
