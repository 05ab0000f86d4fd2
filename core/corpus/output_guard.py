"""Refuse a command's output path before anything is read or written: never the input itself
(the same file, a link to it, or a folder holding it), never an existing file unless ``--force``."""

from __future__ import annotations

import os
from pathlib import Path

from synthdeid.errors import InputError


def _real(path: str | Path) -> Path:
    return Path(os.path.realpath(path))


def _inside(inner: Path, outer: Path) -> bool:
    return inner == outer or outer in inner.parents


def check_output(
    output: str | Path,
    inputs: tuple[str | Path, ...] = (),
    force: bool = False,
    flag: str = "--force",
    existing_ok: bool = False,
) -> None:
    """Refuse ``output`` when it is (or holds, or lies in) one of ``inputs`` — through any link or
    alias —, when it is a folder that is not empty, and, unless ``force``, when it is a file.
    ``existing_ok``: an existing output is the caller's to judge (a resumable run's folder)."""
    out = Path(output)
    real_out = _real(out)
    for source in inputs:
        src = Path(source)
        if not os.path.lexists(src):
            continue
        same = os.path.lexists(out) and _same_file(src, out)
        if same or _inside(real_out, _real(src)) or _inside(_real(src), real_out):
            raise InputError(
                f"the output is the input {src} (or lies in it, or holds it): writing it would destroy the notes",
                path=out,
                fix="write to a new path outside the input",
            )
    if existing_ok:
        return
    if out.is_dir() and not _empty_folder(out):
        raise InputError(
            "is a folder that is not empty: synthdeid writes a folder output only into a new or empty folder",
            path=out,
            fix="choose a new folder, or empty this one",
        )
    if os.path.lexists(out) and not out.is_dir() and not force:
        raise InputError(
            "already exists: synthdeid does not replace files without being asked",
            path=out,
            fix=f"choose a new path, or pass {flag} to replace it",
        )


def _same_file(a: Path, b: Path) -> bool:
    try:
        return os.path.samefile(a, b)
    except OSError:  # a dangling link: compare where it points
        return _real(a) == _real(b)


def _empty_folder(path: Path) -> bool:
    return path.is_dir() and not path.is_symlink() and not any(path.iterdir())
