"""The files of a folder corpus: taken by suffix in any case (``b.TXT`` is a ``.txt`` file), and
every other file named in a warning, so that no note is skipped unseen."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from pathlib import Path

from synthdeid.corpus.formats.textfile import warn
from synthdeid.errors import InputError

LISTED = 10
"""Files named in the warning about files not read (the rest are counted)."""


def scan_folder(
    root: Path, suffixes: Iterable[str], what: str, belongs: Callable[[Path], bool] = lambda _: False
) -> dict[str, list[Path]]:
    """The files under ``root`` (sorted) by suffix, for each of ``suffixes`` (lower case, with the
    dot), matched in any case. Any other file, unless ``belongs`` says it is part of the format, is
    named in one ``InputWarning``."""
    found: dict[str, list[Path]] = {s: [] for s in suffixes}
    other: list[Path] = []
    for f in sorted(root.rglob("*")):
        if not f.is_file():
            continue
        suffix = f.suffix.lower()
        if suffix in found:
            found[suffix].append(f)
        elif not belongs(f):
            other.append(f)
    if other:
        names = ", ".join(f.relative_to(root).as_posix() for f in other[:LISTED])
        more = f" and {len(other) - LISTED} more" if len(other) > LISTED else ""
        warn(
            f"{len(other)} file(s) not read: {names}{more}",
            path=root,
            fix=f"the folder is read as {what}, through its {', '.join(sorted(found))} files (in any case): move "
            "the others out, or name the format the folder is in (--format, --from, corpus.format)",
        )
    return found


def doc_id(root: Path, f: Path) -> str:
    """A folder document's id: its path relative to the folder, without the suffix."""
    return f.relative_to(root).with_suffix("").as_posix()


def by_id(root: Path, files: list[Path], errors: list[InputError] | None) -> dict[str, Path]:
    """``files`` by document id; a second file with one id (``a.txt`` and ``a.TXT``) is an error,
    collected in ``errors`` (its file skipped) when given."""
    out: dict[str, Path] = {}
    for f in files:
        key = doc_id(root, f)
        if key in out:
            e = InputError(
                f"{out[key].name} and {f.name} give one document id {key!r}",
                path=f,
                fix="rename or remove one of them (suffixes are read in any case)",
            )
            if errors is None:
                raise e
            errors.append(e)
            continue
        out[key] = f
    return out
