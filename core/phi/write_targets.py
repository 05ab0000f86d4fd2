"""Every path ``synthdeid deidentify`` writes, checked against every other and against the notes
before the first byte is written, whether the paths exist yet or not.

The command writes the output (a file, or a folder: BRAT, text, the Ray engine's shards and
manifest), the rejects file, the key file (when it is new) and the id map (``--id-map``). Each is
resolved (links followed, ``..`` removed) and refused when it is another one, lies inside another
one, is or lies inside the input (the input file, the input folder, any note in it or the file a
note links to), or holds the input. A path that exists is refused when it is a link, a device, a
FIFO or a socket (``--force`` included: replacing ``/dev/null`` or a link's target is never what was
meant), or a hard link to a note."""

from __future__ import annotations

import os
import stat
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from synthdeid.errors import InputError


@dataclass(frozen=True)
class Target:
    """One path the command writes: ``role`` names it in errors (``the rejects file (--rejects)``)."""

    role: str
    path: Path
    folder: bool = False
    """Written as a folder (the output of BRAT, text or Ray): an existing folder is allowed here."""


def resolved(path: str | Path) -> Path:
    """``path`` absolute, with links and ``..`` resolved as far as it exists."""
    return Path(os.path.abspath(path)).resolve(strict=False)


def check_targets(targets: Sequence[Target], source: str | Path) -> None:
    """Refuse any of ``targets`` that clashes with another or with the notes at ``source`` (see
    the module docstring); the error names the path, the clash and the fix."""
    for t in targets:
        _check_kind(t)
    real = [(t, resolved(t.path)) for t in targets]
    for i, (a, ra) in enumerate(real):
        for b, rb in real[i + 1 :]:
            if ra == rb or (os.path.lexists(a.path) and os.path.lexists(b.path) and _same_file(a.path, b.path)):
                raise InputError(
                    f"{a.role} and {b.role} are the same path ({ra}): one would overwrite the other",
                    path=a.path,
                    fix=f"give {b.role} a path of its own",
                )
            for inner, r_in, outer, r_out in ((a, ra, b, rb), (b, rb, a, ra)):
                if r_out in r_in.parents:
                    raise InputError(
                        f"{inner.role} lies inside {outer.role} ({r_out}): one would overwrite or mix with the other",
                        path=inner.path,
                        fix=f"put {inner.role} outside {r_out}",
                    )
    src = resolved(source)
    notes = _note_files(Path(source))
    inodes = {_inode(f) for f in notes} - {None}
    note_paths = {resolved(f) for f in notes}
    for t, r in real:
        clash = None
        if r == src or src in r.parents:
            clash = "is the input or lies inside it"
        elif r in src.parents:
            clash = "holds the input"
        elif r in note_paths or (_inode(t.path) in inodes):
            clash = "is one of the notes (or a link to one)"
        if clash is not None:
            raise InputError(
                f"{t.role} {clash} ({src}): writing it would destroy or mix with the notes",
                path=t.path,
                fix=f"give {t.role} a path outside {src}",
            )


def _check_kind(t: Target) -> None:
    try:
        info = os.lstat(t.path)
    except FileNotFoundError:
        return
    except NotADirectoryError:
        raise InputError(
            f"{t.role} cannot be written: a part of its path is a file", path=t.path, fix="name a path in a folder"
        ) from None
    if stat.S_ISLNK(info.st_mode):
        raise InputError(
            f"{t.role} is a symbolic link: synthdeid never writes through a link (--force included); it could "
            "point anywhere, the notes included",
            path=t.path,
            fix="name the file itself, or remove the link first",
        )
    if stat.S_ISDIR(info.st_mode):
        if t.folder:
            return
        raise InputError(
            f"{t.role} is a folder, and is written as one file", path=t.path, fix="name a file, e.g. out.rejects.jsonl"
        )
    if not stat.S_ISREG(info.st_mode):
        raise InputError(
            f"{t.role} is a device, FIFO or socket, not a regular file: synthdeid never replaces one "
            "(--force included)",
            path=t.path,
            fix="name a regular file (a new path, or an existing file with --force)",
        )


def _note_files(source: Path) -> list[Path]:
    """The input and, for a folder, every entry in it (the notes, and links to elsewhere)."""
    if not source.is_dir():
        return [source]
    return [source, *source.rglob("*")]


def _inode(path: Path) -> tuple[int, int] | None:
    try:
        info = os.stat(path)
    except OSError:
        return None
    return (info.st_dev, info.st_ino) if stat.S_ISREG(info.st_mode) else None


def _same_file(a: Path, b: Path) -> bool:
    try:
        return os.path.samefile(a, b)
    except OSError:
        return False


def check_input_links(source: str | Path) -> None:
    """Refuse a notes folder holding a link (to a file or a folder) that leads out of it: a note
    would be read from wherever the link points (another patient's file, ``/etc/shadow``)."""
    root = Path(source)
    if not root.is_dir():
        return
    real_root = resolved(root)
    for entry in sorted(root.rglob("*")):
        if not entry.is_symlink():
            continue
        target = resolved(entry)
        if target != real_root and real_root not in target.parents:
            raise InputError(
                f"links out of the notes folder (to {target}): synthdeid reads a folder's notes from the folder only",
                path=entry,
                fix="copy the note into the folder (or remove the link), or name the folder it links to",
            )
