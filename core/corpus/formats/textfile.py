"""Reading text files with errors that name the file, line and fix."""

from __future__ import annotations

import contextlib
import os
import re
import shutil
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any, TypeVar

from synthdeid.errors import InputError

if TYPE_CHECKING:
    from synthdeid.corpus.records import Document

T = TypeVar("T")


def read_text(path: str | Path) -> str:
    """The file's text as UTF-8 (a BOM is kept as U+FEFF so that offsets stay true)."""
    p = Path(path)
    if not p.exists():
        raise InputError("file not found", path=p, fix="check the path (params.yaml or the command line)")
    if p.is_dir():
        raise InputError("is a folder, not a file", path=p, fix="name a file, or use the BRAT format for folders")
    data = p.read_bytes()
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as e:
        line = data[: e.start].count(b"\n") + 1
        raise InputError(
            f"undecodable bytes {data[e.start:e.end]!r} at byte {e.start}: the file is not UTF-8",
            path=p,
            line=line,
            fix="re-save the file as UTF-8 (e.g. `iconv -f latin1 -t utf-8`)",
        ) from None


def read_lines(path: str | Path) -> Iterator[tuple[int, str]]:
    """(line number, line without its newline) for each line of a UTF-8 file, read as a stream
    (one line in memory at a time); a byte-order mark at the start is dropped."""
    p = Path(path)
    if not p.exists():
        raise InputError("file not found", path=p, fix="check the path (params.yaml or the command line)")
    if p.is_dir():
        raise InputError("is a folder, not a file", path=p, fix="name a file, or use the BRAT format for folders")
    offset = 0
    with open(p, "rb") as f:
        for i, raw in enumerate(f, start=1):
            try:
                line = raw.decode("utf-8")
            except UnicodeDecodeError as e:
                raise InputError(
                    f"undecodable bytes {raw[e.start:e.end]!r} at byte {offset + e.start}: the file is not UTF-8",
                    path=p, line=i, fix="re-save the file as UTF-8 (e.g. `iconv -f latin1 -t utf-8`)",
                ) from None
            offset += len(raw)
            if i == 1 and line.startswith("\ufeff"):
                line = line[1:]
            line = line[:-1] if line.endswith("\n") else line
            yield i, line[:-1] if line.endswith("\r") else line


def each_record(
    items: Iterable[tuple[Any, ...]], parse: Callable[..., T], errors: list[InputError] | None
) -> Iterator[T]:
    """``parse(*item)`` for each item; with an ``errors`` list, an InputError is collected there
    and the record skipped, otherwise it propagates."""
    for item in items:
        try:
            yield parse(*item)
        except InputError as e:
            if errors is None:
                raise
            errors.append(e)


@contextlib.contextmanager
def atomic_write(path: str | Path) -> Iterator[IO[str]]:
    """A UTF-8 text file (``\\n`` newlines) that appears at ``path`` only when the block ends
    without an error: a writer that fails half-way leaves nothing behind (nor a half file)."""
    p = Path(path)
    p.parent.mkdir(parents=True, exist_ok=True)
    tmp = p.with_name(f".{p.name}.{os.getpid()}.tmp")  # opened like any file: the umask applies
    try:
        with open(tmp, "w", encoding="utf-8", newline="\n") as f:
            yield f
        os.replace(tmp, p)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise


@contextlib.contextmanager
def atomic_folder(path: str | Path) -> Iterator[Path]:
    """A new folder, filled inside the block, that appears at ``path`` (absent or empty) only
    when the block ends without an error."""
    p = Path(path)
    p.parent.mkdir(parents=True, exist_ok=True)
    tmp = p.with_name(f".{p.name}.{os.getpid()}.tmp")
    shutil.rmtree(tmp, ignore_errors=True)  # left by a killed run of this process id
    tmp.mkdir()
    try:
        yield tmp
        if p.is_dir():
            p.rmdir()  # empty (the caller checked): replaced by the new folder
        os.replace(tmp, p)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise


SAFE_ID = re.compile(r"^[\w.-]+(?:/[\w.-]+)*$")
"""A document id usable as a relative file name (letters, digits, '.', '-', '_', '/' between parts)."""


def write_each(docs: Iterable[Document], folder: str | Path, suffix: str,
               write: Callable[[Document, Path], None], what: str) -> int:
    """Each document into its own ``ID{suffix}`` file (``write(doc, path)``, which may add files
    beside it) in a new or empty ``folder`` that appears only once all are written; an id that is no
    safe file name, or collides with another ignoring case, is refused. Returns the number written."""
    root = Path(folder)
    if root.exists() and not root.is_dir():
        raise InputError("is a file, not a folder", path=root, fix=f"name a new or empty folder for {what} output")
    if root.is_dir() and any(root.iterdir()):
        raise InputError("the folder is not empty: writing would overwrite or mix notes", path=root,
                         fix="write to a new or empty folder")
    with atomic_folder(root) as tmp:
        written: dict[str, str] = {}
        for doc in docs:
            if not SAFE_ID.match(doc.id) or ".." in doc.id.split("/"):
                raise InputError("the document id cannot be used as a file name", doc_id=doc.id,
                                 fix="use ids of letters, digits, '.', '-', '_' (and '/' for sub-folders)")
            key = doc.id.casefold()
            if key in written:
                raise InputError(f"two documents would be written to the same file {doc.id}{suffix} (the first "
                                 f"is {written[key]!r})", doc_id=doc.id,
                                 fix="give every document a unique id (ids differing only in case collide)")
            written[key] = doc.id
            out = tmp / f"{doc.id}{suffix}"
            out.parent.mkdir(parents=True, exist_ok=True)
            write(doc, out)
    return len(written)
