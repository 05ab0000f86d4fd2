"""Output files and folders: private whatever the umask (files 0o600, folders 0o700), a folder
output never named like a file, and each document id checked for the file it names in a folder
(a safe relative path, within the file system's limits, one file per document)."""

from __future__ import annotations

import contextlib
import os
import re
import unicodedata
from pathlib import Path
from typing import IO

from synthdeid.errors import InputError

FILE_MODE = 0o600
FOLDER_MODE = 0o700
NAME_MAX = 255
"""Bytes of one file or folder name (Linux, macOS, Windows all stop at 255)."""
PATH_MAX = 4096
"""Bytes of a whole path, the output folder's included (Linux's PATH_MAX)."""
MAX_DEPTH = 100
"""Folders a document id may name (``a/b/c``: 2): deeper trees break tools and Python's own walks."""
_SPARE = 64
"""Bytes kept free for the hidden folder an output is written in before it appears."""
FILE_SUFFIXES = frozenset(
    ".jsonl .json .ndjson .conll .conllu .bio .iob .inline .ann .txt .xml .xmltags .spacy .csv .tsv "
    ".parquet .arrow .gz .zip .bz2 .xz .tar .pkl .pickle .yaml .yml".split()
)
"""Suffixes of files: a folder output named so (``out.jsonl/``) is refused."""
SAFE_ID = re.compile(r"[\w.-]+(?:/[\w.-]+)*")
"""A document id usable as a relative file name (letters, digits, '.', '-', '_', '/' between parts):
use ``SAFE_ID.fullmatch`` (``$`` would let a final newline through)."""


def make_folders(path: Path) -> None:
    """``path`` and any missing folder above it, each new one 0o700."""
    missing = []
    p = Path(os.path.abspath(path))
    while not p.is_dir():
        missing.append(p)
        p = p.parent
    for folder in reversed(missing):
        new_folder(folder)


def new_folder(path: Path) -> None:
    """A new folder, 0o700 (an existing one is an error)."""
    os.mkdir(path, FOLDER_MODE)
    os.chmod(path, FOLDER_MODE)  # the umask could only have taken rights away


def _new_fd(path: Path) -> int:
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_CLOEXEC", 0), FILE_MODE)
    try:
        os.fchmod(fd, FILE_MODE)  # the umask could only have taken rights away
    except BaseException:
        os.close(fd)
        raise
    return fd


def open_new(path: Path, newline: str | None = "") -> IO[str]:
    """A new UTF-8 text file (an existing one, or a link, is an error), 0o600, for writing."""
    return os.fdopen(_new_fd(path), "w", encoding="utf-8", newline=newline)


def open_new_bytes(path: Path) -> IO[bytes]:
    """``open_new`` for bytes."""
    return os.fdopen(_new_fd(path), "wb")


def make_private(root: Path) -> None:
    """Every file under ``root`` 0o600 and every folder 0o700 (for files a library wrote)."""
    os.chmod(root, FOLDER_MODE)
    for folder, dirs, files in os.walk(root):
        for name in dirs:
            os.chmod(os.path.join(folder, name), FOLDER_MODE, follow_symlinks=False)
        for name in files:
            with contextlib.suppress(NotImplementedError):  # a link: nothing of ours to change
                os.chmod(os.path.join(folder, name), FILE_MODE, follow_symlinks=False)


def check_folder_name(path: str | Path, what: str) -> None:
    """Refuse to make a folder output named like a file (``out.jsonl``): tools and people take it
    for one. A folder that already exists is the caller's choice."""
    p = Path(path)
    suffix = p.suffix.lower()
    if suffix in FILE_SUFFIXES and not p.is_dir():
        raise InputError(
            f"{what} output is a folder, but its name ends in {suffix}, a file's suffix",
            path=p,
            fix=f"name a folder (e.g. {p.with_suffix('').name or 'out'}), or write one file "
            f"(--to jsonl with a .jsonl name)",
        )


def _limits(root: Path) -> tuple[int, int]:
    """(name, path) byte limits where ``root`` will be: the constants, lower if the file system says so."""
    p = Path(os.path.abspath(root))
    while not p.exists() and p != p.parent:
        p = p.parent
    limits = [NAME_MAX, PATH_MAX]
    for i, key in enumerate(("PC_NAME_MAX", "PC_PATH_MAX")):
        with contextlib.suppress(OSError, ValueError, AttributeError):
            found = os.pathconf(p, key)
            if found > 0:
                limits[i] = min(limits[i], found)
    return limits[0], limits[1]


def _key(relative: str) -> str:
    """A file name as a case-insensitive, normalisation-insensitive file system sees it."""
    return unicodedata.normalize("NFC", unicodedata.normalize("NFC", relative).casefold())


class FolderLayout:
    """The files a folder writer will make, one document at a time: ``add`` refuses an id that
    is no safe relative path, too deep or long for the file system, or that names a file (or a
    folder) another document's file already is, even after ``.`` parts are taken out and case
    folded."""

    def __init__(self, root: Path, suffix: str, companions: tuple[str, ...] = ()) -> None:
        self.suffixes = (suffix, *companions)
        self.name_max, path_max = _limits(root)
        self.room = path_max - len(os.fsencode(os.path.abspath(root))) - _SPARE
        self.files: dict[str, tuple[str, str]] = {}  # key -> (document id, relative path)
        self.folders: dict[str, str] = {}  # key -> the first document id under it
        self.count = 0

    def add(self, doc_id: str) -> None:
        if not SAFE_ID.fullmatch(doc_id) or ".." in doc_id.split("/"):
            raise InputError(
                "the document id cannot be used as a file name",
                doc_id=doc_id,
                fix="use ids of letters, digits, '.', '-', '_' (and '/' for sub-folders)",
            )
        self._check_size(doc_id)
        paths = ["/".join(p for p in f"{doc_id}{s}".split("/") if p != ".") for s in self.suffixes]
        for folder in _folders(paths[0]):
            other = self.files.get(_key(folder))
            if other:
                self._collision(doc_id, other[0], f"{folder} (a file of {other[0]!r}, a folder of {doc_id!r})")
            self.folders.setdefault(_key(folder), doc_id)
        for path in paths:
            other = self.files.get(_key(path))
            if other:
                self._collision(doc_id, other[0], path if other[1] == path else f"{other[1]} and {path}")
            if _key(path) in self.folders:
                owner = self.folders[_key(path)]
                self._collision(doc_id, owner, f"{path} (a folder of {owner!r}, a file of {doc_id!r})")
        if paths[0] != f"{doc_id}{self.suffixes[0]}":
            read_back = paths[0][: -len(self.suffixes[0])]
            raise InputError(
                f"the id holds '.' path parts: it would be written to {paths[0]} and read back as {read_back!r}",
                doc_id=doc_id,
                fix=f"name the document {read_back!r} (ids are relative paths without '.' parts)",
            )
        for path in paths:
            self.files[_key(path)] = (doc_id, path)
        self.count += 1

    def _check_size(self, doc_id: str) -> None:
        parts = doc_id.split("/")
        too_long = "write one file instead (--to jsonl), or shorten the ids"
        if len(parts) - 1 > MAX_DEPTH:
            raise InputError(
                f"the id names {len(parts) - 1} nested folders, more than the {MAX_DEPTH} a folder output allows",
                doc_id=doc_id[:200] + ("..." if len(doc_id) > 200 else ""),
                fix=too_long,
            )
        longest = max(len(os.fsencode(p)) for p in parts[:-1]) if len(parts) > 1 else 0
        last = len(os.fsencode(parts[-1])) + max(len(s) for s in self.suffixes)
        if max(longest, last) > self.name_max:
            raise InputError(
                f"a file or folder name of the id is {max(longest, last)} bytes (with its suffix), more than "
                f"the {self.name_max} a file system allows",
                doc_id=doc_id[:200] + ("..." if len(doc_id) > 200 else ""),
                fix=too_long,
            )
        size = len(os.fsencode(doc_id)) + max(len(s) for s in self.suffixes)
        if size > self.room:
            raise InputError(
                f"the id's file path is {size} bytes: with the output folder's path it would pass the "
                f"{self.room + _SPARE} bytes a path may have",
                doc_id=doc_id[:200] + ("..." if len(doc_id) > 200 else ""),
                fix=too_long + ", or write to a folder with a shorter path",
            )

    @staticmethod
    def _collision(doc_id: str, other: str, where: str) -> None:
        raise InputError(
            f"documents {other!r} and {doc_id!r} would both be written to {where}",
            doc_id=doc_id,
            fix="give every document its own id (ids differing only in case, or in '.' path parts, name the "
            "same file; an id may not be another's folder), or write one file (--to jsonl)",
        )


def _folders(relative: str) -> list[str]:
    parts = relative.split("/")
    return ["/".join(parts[:i]) for i in range(1, len(parts))]
