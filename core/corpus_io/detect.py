"""Telling a corpus's format from its name and, where the name does not say, its contents.

A name says its format by the file-name endings each registered format claims
(``CorpusFormat.suffixes``: ``.jsonl``, ``.inline.txt``, a plugin's own); the longest one wins.

A ``.txt`` file (plain notes by its name) that holds PHI tags is not read as plain text: the
tags would stay in the notes, unmarked. It is refused, naming the format it looks like. A folder is
BRAT when it holds ``.ann`` files, i2b2 when it holds ``.xml`` files, XML-style inline tags when
its ``.txt`` files hold such tags (suffixes in any case), else the caller's default.
"""

from __future__ import annotations

import re
from pathlib import Path

from synthdeid.corpus.formats.xml_inline import NAME
from synthdeid.corpus.inline import find_reserved, find_tag_like
from synthdeid.corpus_io.registered import Formats, formats
from synthdeid.errors import InputError

SNIFFED_BYTES = 1 << 16
"""How much of a file is looked at for tags."""
SNIFFED_FILES = 20
"""How many of a folder's ``.txt`` files are looked at for tags."""
_XML_TAGGED = re.compile(rf"<({NAME})(?:\s[^<>]*)?>[^<>]*</\1\s*>")
_LOOKS_LIKE = {
    "inline": ("inline-tag text (<NameSTART> Jan <NameEND>)", ".inline.txt"),
    "xml_inline": ("XML-style inline tags (<Name>Jan</Name>)", ".xml.txt"),
}


def guess_format(path: str | Path, *, for_writing: bool = False, folder: str = "brat") -> str:
    """The format a path implies: by its name (``*.xml`` is i2b2, ``*.xmltags``/``*.xml.txt``
    XML-style inline tags, ...); a folder by its files (see the module docstring; ``folder`` when
    they do not tell, and always BRAT when writing); a path without suffix, when writing, BRAT.
    An existing ``.txt`` file that holds PHI tags is refused, naming its format."""
    p = Path(path)
    registered = formats()
    fmt = registered.by_ending(p.name.lower(), p.suffix.lower())
    if fmt == "text" and not for_writing and p.is_file():
        _refuse_tagged(p)
    if fmt:
        return fmt
    if p.is_dir():
        return "brat" if for_writing else folder_format(p, folder)
    if for_writing and not p.suffix and not p.exists():
        return "brat"
    raise InputError(
        "cannot tell the format from the name",
        path=p,
        fix="name it *.jsonl, *.conll/*.bio, *.inline(.txt), *.xml (i2b2), *.xmltags/*.xml.txt (XML-style inline "
        f"tags), *.txt{_plugin_endings(registered)} or a BRAT folder, or pass --from/--to "
        f"({', '.join(registered.by_name)})",
    )


def _plugin_endings(registered: Formats) -> str:
    """``, *.tsv (NAME)`` for each ending a format of a third-party plugin claims."""
    return "".join(f", *{e} ({name})" for e, name in registered.endings.items() if name in registered.third_party)


def folder_format(root: Path, default: str) -> str:
    """A folder's format by its files (see the module docstring)."""
    suffixes: dict[str, list[Path]] = {}
    for f in sorted(root.rglob("*")):
        if f.is_file():
            suffixes.setdefault(f.suffix.lower(), []).append(f)
    if ".ann" in suffixes:
        return "brat"
    if ".xml" in suffixes:
        return "i2b2"
    for f in suffixes.get(".txt", [])[:SNIFFED_FILES]:
        found = looks_tagged(_head(f))
        if found and found[0] == "xml_inline":
            return "xml_inline"
        if found:
            m = found[1]
            raise InputError(
                f"the folder's .txt files hold inline tags ({m.group()[:60]!r}), which no folder "
                "format reads: plain text would keep them as words, their PHI unmarked",
                path=f,
                line=m.string.count("\n", 0, m.start()) + 1,
                fix="join the notes into one inline-tag file (id<TAB>text lines, *.inline.txt), or "
                "pass --format text (--from text) if the tags are part of the notes",
            )
    return default


def looks_tagged(text: str) -> tuple[str, re.Match[str]] | None:
    """The tagged format ``text`` looks like (``inline`` or ``xml_inline``) and its first tag."""
    m = find_reserved(text) or find_tag_like(text)
    if m:
        return "inline", m
    m = _XML_TAGGED.search(text)
    return ("xml_inline", m) if m else None


def _head(path: Path) -> str:
    with open(path, "rb") as f:
        return f.read(SNIFFED_BYTES).decode("utf-8", errors="replace")


def _refuse_tagged(path: Path) -> None:
    found = looks_tagged(_head(path))
    if found:
        fmt, m = found
        what, suffix = _LOOKS_LIKE[fmt]
        raise InputError(
            f"looks like {what}, not plain notes: it holds the tag {m.group()[:60]!r}, which plain text would keep "
            "as words, its PHI unmarked",
            path=path,
            line=m.string.count("\n", 0, m.start()) + 1,
            fix=f"pass --format {fmt} (convert, deidentify: --from {fmt}; params.yaml: corpus.format: {fmt}), or "
            f"name the file *{suffix}; pass --format text (--from text) if the tags are part of the notes",
        )
