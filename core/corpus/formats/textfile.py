"""Reading text files with errors that name the file, line and fix; writing files and folders
that appear only when every document could be written."""

from __future__ import annotations

import contextlib
import os
import shutil
import warnings
from collections.abc import Callable, Iterable, Iterator, Mapping
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any, TypeVar

from synthdeid.corpus.formats.outpaths import SAFE_ID as SAFE_ID  # where writers and tests find it
from synthdeid.corpus.formats.outpaths import (
    FolderLayout,
    check_folder_name,
    make_folders,
    new_folder,
    open_new,
    open_new_bytes,
)
from synthdeid.corpus.formats.sniff_encoding import SNIFFED, check_not_wide, not_utf8
from synthdeid.errors import InputError, InputWarning

if TYPE_CHECKING:
    from synthdeid.corpus.records import Document

T = TypeVar("T")
BOM = "\ufeff"


def read_text(path: str | Path, doc_id: str | None = None) -> str:
    """The file's text as UTF-8 (a BOM is kept as U+FEFF so that offsets stay true); errors name
    ``doc_id`` when given. A UTF-16 or UTF-32 file is refused as such."""
    p = Path(path)
    if not p.exists():
        raise InputError("file not found", path=p, fix="check the path (params.yaml or the command line)")
    if p.is_dir():
        raise InputError("is a folder, not a file", path=p, fix="name a file, or use the BRAT format for folders")
    data = p.read_bytes()
    check_not_wide(data[:SNIFFED], p, doc_id)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as e:
        line = data[: e.start].count(b"\n") + 1
        raise not_utf8(data, e.start, e.end, e.start, p, line, doc_id) from None


def decoded_lines(path: str | Path) -> Iterator[tuple[int, str, InputError | None]]:
    """(line number, line without its newline, its error or None) for each line of a UTF-8 file,
    read as a stream: a line that is no UTF-8, or starts with a byte-order mark (other than the
    file's first), comes with its error (and its text with U+FFFD for the bad bytes), so that a
    reader can skip it or the document it is in. A UTF-16/32 file is refused whole."""
    p = Path(path)
    if not p.exists():
        raise InputError("file not found", path=p, fix="check the path (params.yaml or the command line)")
    if p.is_dir():
        raise InputError("is a folder, not a file", path=p, fix="name a file, or use the BRAT format for folders")
    for i, _, line, error in lines_from(p, p):
        yield i, line, error


def lines_from(
    path: Path, display: str | Path, offset: int = 0, lineno: int = 1
) -> Iterator[tuple[int, int, str, InputError | None]]:
    """(line number, byte offset, line, its error or None) from byte ``offset`` (line ``lineno``)
    on, as ``decoded_lines`` gives them; errors name the file as ``display``. A shard of a file
    starts mid-way: the UTF-16/32 check is made only from the start."""
    with open(path, "rb") as f:
        if offset == 0:
            check_not_wide(f.read(SNIFFED), display)
        f.seek(offset)
        for i, raw in enumerate(_raw_lines(f), start=lineno):
            error = _wide_line(raw, display, i)
            try:
                line = raw.decode("utf-8")
            except UnicodeDecodeError as e:
                error = error or not_utf8(raw, e.start, e.end, offset + e.start, display, i, None)
                line = raw.decode("utf-8", errors="replace")
            if i == 1 and line.startswith(BOM):
                line = line[1:]
            try:
                check_line_start(line, display, i)
            except InputError as e:
                error = error or e
            line = line[:-1] if line.endswith("\n") else line
            yield i, offset, line[:-1] if line.endswith("\r") else line, error
            offset += len(raw)


def _raw_lines(f: IO[bytes]) -> Iterator[bytes]:
    """The file's lines as bytes, split at ``\\n``, except that a line holding NUL bytes (UTF-16
    text) also takes the NUL that follows its newline: in UTF-16LE a newline is ``\\n\\0``, and
    that NUL would otherwise start (and spoil) the next line."""
    pending: bytes | None = None
    for raw in f:
        if pending is not None:
            if raw.startswith(b"\0"):
                pending, raw = pending + b"\0", raw[1:]
            yield pending
            pending = None
            if not raw:
                continue
        if b"\0" in raw and raw.endswith(b"\n"):
            pending = raw
        else:
            yield raw
    if pending is not None:
        yield pending


def _wide_line(raw: bytes, path: str | Path, lineno: int) -> InputError | None:
    """A line holding NUL bytes: UTF-16 (or UTF-32) text in a UTF-8 file, refused by itself."""
    if b"\0" not in raw:
        return None
    return InputError(
        "holds NUL bytes: this line looks like UTF-16 text (in a UTF-8 file)",
        path=path,
        line=lineno,
        fix="re-save the line as UTF-8 (e.g. iconv -f UTF-16 -t UTF-8), or export the notes again as UTF-8",
    )


def read_lines(path: str | Path, errors: list[InputError] | None = None) -> Iterator[tuple[int, str]]:
    """(line number, line without its newline) for each line of a UTF-8 file, read as a stream
    (one line in memory at a time); a byte-order mark at the start is dropped. A line that cannot
    be read (see ``decoded_lines``) raises, or with an ``errors`` list is collected and skipped."""
    for i, line, error in decoded_lines(path):
        if error is None:
            yield i, line
        elif errors is None:
            raise error
        else:
            errors.append(error)


def check_line_start(line: str, path: str | Path, lineno: int) -> None:
    """A byte-order mark starts a file, never a later line: there it is the mark of a file joined
    on (``cat a b``), and would become part of an id or token. Refused, naming the line."""
    if lineno > 1 and line.startswith(BOM):
        raise InputError(
            f"a byte-order mark (U+FEFF) starts line {lineno}, not the file: it would become part "
            "of the line's id or first token",
            path=path,
            line=lineno,
            fix="files joined with `cat` keep each one's mark: remove it from the start of the line "
            "(e.g. `sed -i '2,$ s/^\\xEF\\xBB\\xBF//' FILE`)",
        )


def warn(problem: str, *, path: str | Path | None = None, line: int | None = None, fix: str | None = None) -> None:
    """An ``InputWarning`` worded as an ``InputError`` (where, what, fix)."""
    warnings.warn(str(InputError(problem, path=path, line=line, fix=fix)), InputWarning, stacklevel=3)


def choice_option(options: Mapping[str, Any] | None, key: str, choices: tuple[str, ...], fix: str) -> str:
    """Reader option ``key``: one of ``choices`` (the first unless given)."""
    value = (options or {}).get(key, choices[0])
    if value not in choices:
        raise InputError(
            f"format option {key} is {value!r}",
            fix=f"set corpus.format_options.{key} (or --format-option {key}=...) to {' or '.join(choices)}: {fix}",
        )
    return value


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
    without an error: a writer that fails half-way leaves nothing behind (nor a half file). The
    file is 0o600 and any folder made for it 0o700, whatever the umask: notes are not for others."""
    with _atomic(path) as tmp, open_new(tmp, newline="\n") as f:
        yield f


@contextlib.contextmanager
def atomic_write_bytes(path: str | Path) -> Iterator[IO[bytes]]:
    """``atomic_write`` for bytes."""
    with _atomic(path) as tmp, open_new_bytes(tmp) as f:
        yield f


@contextlib.contextmanager
def _atomic(path: str | Path) -> Iterator[Path]:
    """A temporary name beside ``path``, renamed to it when the block ends without an error."""
    p = Path(os.path.abspath(path))  # "." and ".." have no name to put beside
    if p.is_dir():
        raise InputError(
            "is a folder: this format is written to one file",
            path=path,
            fix="name a new file (e.g. out.jsonl), or write a folder format (--to brat, i2b2 or xml_inline)",
        )
    make_folders(p.parent)
    tmp = p.with_name(f".{p.name}.{os.getpid()}.tmp")
    tmp.unlink(missing_ok=True)  # left by a killed run of this process id
    try:
        yield tmp
        os.replace(tmp, p)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise


@contextlib.contextmanager
def atomic_folder(path: str | Path) -> Iterator[Path]:
    """A folder, filled inside the block, that appears at ``path`` (absent or empty) only when the
    block ends without an error. An existing folder (``.``, say) stays the same folder: the files
    are made in a hidden folder inside it, then moved up. New folders are 0o700."""
    p = Path(os.path.abspath(path))  # "." and ".." have no name to put beside
    existing = p.is_dir()
    if existing:
        tmp = p / f".synthdeid-partial.{os.getpid()}"
    else:
        make_folders(p.parent)
        tmp = p.with_name(f".{p.name}.{os.getpid()}.tmp")
    shutil.rmtree(tmp, ignore_errors=True)  # left by a killed run of this process id
    new_folder(tmp)
    try:
        yield tmp
        if not existing:
            os.replace(tmp, p)
            return
        for child in sorted(tmp.iterdir()):
            os.replace(child, p / child.name)
        tmp.rmdir()
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise


def check_unicode(value: str, what: str, doc_id: str | None) -> None:
    """Refuse a lone surrogate (a ``\\ud800`` JSON escape): it is not a character and no file
    can hold it, so it would crash the first writer."""
    try:
        value.encode("utf-8")
    except UnicodeEncodeError as e:
        raise InputError(
            f"{what} holds a lone surrogate {value[e.start]!r} at character {e.start}",
            doc_id=doc_id,
            fix="replace the \\udXXX escape with the character it should be "
            "(a surrogate pair, or the character itself)",
        ) from None


def check_writable(doc: Document) -> None:
    """What every writer needs: text, id and labels a file can hold, and no empty label."""
    check_unicode(doc.id, "the id", doc.id)
    check_unicode(doc.text, "the text", doc.id)
    for s in doc.spans:
        if not isinstance(s.label, str) or not s.label:
            raise InputError(
                f"span {s.start}-{s.end} has the label {s.label!r}",
                doc_id=doc.id,
                fix="give every span a non-empty label",
            )
        check_unicode(s.label, f"the label {s.label[:40]!r}", doc.id)


def checked(docs: Iterable[Document], check: Callable[[Document, int], None]) -> Iterable[Document]:
    """``docs``, each passed through ``check_writable`` and ``check(doc, index)``, which raises
    what the format cannot hold: a list is checked whole before the caller writes its first byte,
    a stream document by document (the caller's atomic output then leaves nothing behind)."""
    if isinstance(docs, (list, tuple)):
        for i, doc in enumerate(docs):
            check_writable(doc)
            check(doc, i)
        return docs
    return _checking(docs, check)


def _checking(docs: Iterable[Document], check: Callable[[Document, int], None]) -> Iterator[Document]:
    for i, doc in enumerate(docs):
        check_writable(doc)
        check(doc, i)
        yield doc


def no_whitespace(label: str, doc_id: str, what: str) -> None:
    """Refuse a label that a whitespace-separated format would split or cut."""
    if any(c.isspace() for c in label):
        raise InputError(
            f"the label {label[:40]!r} holds whitespace, which {what} cannot hold",
            doc_id=doc_id,
            fix="map the label onto one without spaces or line breaks (params: tags.mapping), or "
            "write jsonl, i2b2 or xml_inline, which keep any label",
        )


def write_each(
    docs: Iterable[Document],
    folder: str | Path,
    suffix: str,
    write: Callable[[Document, Path], object],
    what: str,
    check: Callable[[Document, int], None] | None = None,
    companions: tuple[str, ...] = (),
) -> int:
    """Each document into its own ``ID{suffix}`` file (``write(doc, path)``, which may add files
    beside it: their suffixes in ``companions``) in a new or empty ``folder`` that appears only once
    all are written. Every document is checked first (``check``, and its id: see ``FolderLayout``).
    Files are written 0o600 (``write_new``), folders made 0o700. Returns the number written."""
    root = Path(folder)
    if root.exists() and not root.is_dir():
        raise InputError("is a file, not a folder", path=root, fix=f"name a new or empty folder for {what} output")
    check_folder_name(root, what)
    if root.is_dir() and any(root.iterdir()):
        raise InputError(
            "the folder is not empty: writing would overwrite or mix notes",
            path=root,
            fix="write to a new or empty folder",
        )
    layout = FolderLayout(root, suffix, companions)

    def check_all(doc: Document, i: int) -> None:
        layout.add(doc.id)
        if check is not None:
            check(doc, i)

    docs = checked(docs, check_all)
    with atomic_folder(root) as tmp:
        for doc in docs:
            out = tmp / f"{doc.id}{suffix}"
            make_folders(out.parent)
            try:
                write(doc, out)
            except FileExistsError as e:  # a file system that folds names FolderLayout does not know
                raise InputError(
                    f"another document was already written to {Path(e.filename or out).relative_to(tmp)}",
                    doc_id=doc.id,
                    fix="give every document an id that differs in more than case or accents, or write jsonl",
                ) from None
    return layout.count


def write_new(path: Path, text: str, newline: str = "") -> None:
    """``text`` as UTF-8 into a new 0o600 file (``newline=""``: line endings as they are)."""
    with open_new(path, newline=newline) as f:
        f.write(text)
