"""Notes for ``synthdeid deidentify --engine ray``, planned as shards of a fixed number of notes:
JSONL (byte ranges of whole lines), a folder of ``.txt`` notes (runs of files, ids as
``read_plain`` gives them) and Parquet (row ranges of row groups; columns ``id``, ``text`` and
optionally ``spans``). The plan is deterministic for a given input and block size, so a resumed run
cuts the same shards. Each shard is read where it is processed (on a worker), validated by the same
code as synthdeid's readers; a shard descriptor holds paths and offsets, never note text.

The driver's planning pass reads JSONL and Parquet ids once to find an id repeated in a later shard
(a worker sees only its own shard); with ``strict`` the first bad record stops the plan."""

from __future__ import annotations

import hashlib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from synthdeid.corpus.formats.folder import by_id, scan_folder
from synthdeid.corpus.formats.jsonl import parse_json_line, parse_record, record_to_document
from synthdeid.corpus.formats.plaintext import read_note
from synthdeid.corpus.formats.textfile import each_record, lines_from, warn
from synthdeid.corpus.records import Document
from synthdeid.errors import InputError

FORMATS = ("jsonl", "text", "parquet")
"""The inputs the Ray engine reads (other formats: convert to JSONL first, or ``--engine local``)."""
PARQUET_COLUMNS = ("id", "text", "spans")

Shard = dict[str, Any]
"""A shard descriptor (JSON-able): ``index``, ``kind``, where to read, ``seen`` ids of earlier shards
that recur in it, ``pre_errors`` (the reader's, as fields) found while planning."""


def is_parquet(path: str | Path) -> bool:
    """A ``.parquet`` file, or a folder holding ``.parquet`` files and no ``.txt`` notes."""
    p = Path(path)
    if p.is_dir():
        names = [f.suffix.lower() for f in p.rglob("*") if f.is_file()]
        return ".parquet" in names and ".txt" not in names
    return p.suffix.lower() == ".parquet"


def plan_shards(path: str | Path, fmt: str, block_notes: int, strict: bool) -> tuple[list[Shard], str]:
    """The shards of the input, in input order, and a fingerprint of the input (names, sizes,
    modification and change times, inodes: a changed note is never resumed as it was)."""
    if fmt not in FORMATS:
        raise InputError(
            f"the Ray engine reads {', '.join(FORMATS)}, not {fmt!r}",
            path=path,
            fix="convert the notes to JSONL first (synthdeid convert), or use --engine local",
        )
    if block_notes < 1:
        raise InputError(f"block size {block_notes}: a shard needs at least one note", fix="e.g. 1000")
    p = Path(path)
    if not p.exists():
        raise InputError("not found", path=p, fix="check the path (params.yaml or the command line)")
    plan = {"jsonl": _plan_jsonl, "text": _plan_text, "parquet": _plan_parquet}[fmt]
    shards, files = plan(p, block_notes, strict)
    if not shards:
        raise InputError(
            "holds no documents",
            path=p,
            fix="check that this is the corpus you meant (an empty file or folder is not a corpus)",
        )
    return shards, _fingerprint(files)


def read_shard(shard: Shard, errors: list[InputError] | None) -> Iterator[Document]:
    """The notes of one shard, validated; with an ``errors`` list, bad records go there."""
    read = {"jsonl": _read_jsonl, "text": _read_text, "parquet": _read_parquet}[shard["kind"]]
    return read(shard, errors)


def _fingerprint(files: list[Path]) -> str:
    h = hashlib.sha256()
    for f in files:
        st = f.stat()
        # the change time too: an edit whose modification time is set back (touch -r) still moves it
        line = f"{f.resolve()}\0{st.st_size}\0{st.st_mtime_ns}\0{st.st_ctime_ns}\0{st.st_ino}\n"
        h.update(line.encode("utf-8", "surrogateescape"))
    return h.hexdigest()


def _shard(index: int, kind: str, path: Path, **where: Any) -> Shard:
    return {"index": index, "kind": kind, "path": str(path), "abs": str(path.resolve()), "seen": {}, **where}


# JSONL: lines as ``read_lines`` gives them, from a byte offset


def _plan_jsonl(p: Path, block: int, strict: bool) -> tuple[list[Shard], list[Path]]:
    shards: list[Shard] = []
    seen: dict[str, int] = {}
    records = 0
    for n, offset, line, bad in lines_from(p, str(p)):
        if not line.strip():
            continue
        if records % block == 0:
            if shards:
                shards[-1]["stop"] = offset
            shards.append(_shard(len(shards), "jsonl", p, offset=offset, line=n, stop=None))
        records += 1
        if strict:  # the reader's own error, at the first bad record
            parse_record(line, str(p), n, None, seen, bad)
            continue
        if bad is not None:
            continue  # the worker lists it with its reason
        try:
            doc_id = record_to_document(parse_json_line(line)).id
        except InputError:
            continue  # the worker lists it with its reason
        first = seen.setdefault(doc_id, n)
        if first < shards[-1]["line"]:
            shards[-1]["seen"][doc_id] = first
    return shards, [p]


def _read_jsonl(shard: Shard, errors: list[InputError] | None) -> Iterator[Document]:
    seen = dict(shard["seen"])
    lines = lines_from(Path(shard["abs"]), shard["path"], shard["offset"], shard["line"])
    items = (
        (line, shard["path"], n, None, seen, bad) for n, _, line, bad in _until(lines, shard["stop"]) if line.strip()
    )
    return each_record(items, parse_record, errors)


def _until(lines: Iterator[Any], stop: int | None) -> Iterator[Any]:
    for item in lines:
        if stop is not None and item[1] >= stop:
            return
        yield item


# a folder of .txt notes (or one .txt file), as read_plain reads it


def _plan_text(p: Path, block: int, strict: bool) -> tuple[list[Shard], list[Path]]:
    errors: list[InputError] | None = None if strict else []
    if p.is_file():
        notes = [(p, p.stem)]
    else:
        files = scan_folder(p, (".txt",), "plain-text")[".txt"]
        if not files:
            raise InputError("no .txt files in the folder", path=p, fix="put each note in its own NAME.txt")
        notes = [(f, key) for key, f in by_id(p, files, errors).items()]
    shards = [
        _shard(k, "text", p, notes=[[str(f), str(f.resolve()), key] for f, key in notes[i : i + block]])
        for k, i in enumerate(range(0, len(notes), block))
    ]
    if shards and errors:  # the first shard's worker lists them (naming each note by its public id)
        shards[0]["pre_errors"] = [
            {"problem": e.problem, "path": e.path, "line": e.line, "doc_id": e.doc_id, "fix": e.fix} for e in errors
        ]
    return shards, [f for f, _ in notes]


def _read_text(shard: Shard, errors: list[InputError] | None) -> Iterator[Document]:
    def note(display: str, real: str, key: str) -> Document:
        try:
            return read_note(Path(real), key)
        except InputError as e:  # named as the reader names it, not by the worker's absolute path
            raise InputError(e.problem, path=display, line=e.line, doc_id=e.doc_id, fix=e.fix) from None

    return each_record((tuple(n) for n in shard["notes"]), note, errors)


# Parquet: columns id, text and optionally spans; the number after the colon is the row (from 1)


def _parquet_files(p: Path) -> list[Path]:
    return sorted(f for f in p.rglob("*") if f.is_file() and f.suffix.lower() == ".parquet") if p.is_dir() else [p]


def _columns(f: Path, names: list[str]) -> list[str]:
    missing = [c for c in ("id", "text") if c not in names]
    if missing:
        raise InputError(
            f"no column {', '.join(missing)} (columns: {', '.join(names)[:200]})",
            path=f,
            fix="export the notes with an id and a text column (and optionally spans: a list of {start, end, label})",
        )
    other = [c for c in names if c not in PARQUET_COLUMNS]
    if other:
        warn(f"columns not read: {', '.join(other)[:200]}", path=f, fix="only id, text and spans are de-identified")
    return [c for c in PARQUET_COLUMNS if c in names]


def _plan_parquet(p: Path, block: int, strict: bool) -> tuple[list[Shard], list[Path]]:
    import pyarrow.parquet as pq

    shards: list[Shard] = []
    seen: dict[str, tuple[str, int]] = {}  # id -> (where first, its shard)
    files = _parquet_files(p)
    for f in files:
        pf = pq.ParquetFile(f)
        columns = _columns(f, pf.schema_arrow.names)
        row = 0
        for g in range(pf.num_row_groups):
            ids = pf.read_row_group(g, columns=["id"]).column("id").to_pylist()
            for start in range(0, len(ids), block):
                k = len(shards)
                shards.append(_shard(k, "parquet", f, group=g, start=start, stop=start + block, row=row + start + 1))
                shards[-1]["columns"] = columns
                for i, doc_id in enumerate(ids[start : start + block], start=row + start + 1):
                    if not isinstance(doc_id, str):
                        continue
                    first, in_shard = seen.setdefault(doc_id, (f"{f}:{i}", k))
                    if strict and first != f"{f}:{i}":
                        raise _duplicate(doc_id, first, f, i)
                    if in_shard < k:  # the worker finds repeats within its own shard
                        shards[-1]["seen"].setdefault(doc_id, first)
            row += len(ids)
    return shards, files


def _duplicate(doc_id: str, first: str, f: str | Path, row: int) -> InputError:
    return InputError(
        f"duplicate document id {doc_id!r} (first at {first})",
        path=f,
        line=row,
        doc_id=doc_id,
        fix="give every document a unique id",
    )


def _read_parquet(shard: Shard, errors: list[InputError] | None) -> Iterator[Document]:
    import pyarrow.parquet as pq

    table = pq.ParquetFile(shard["abs"]).read_row_group(shard["group"], columns=shard["columns"])
    rows = table.slice(shard["start"], shard["stop"] - shard["start"]).to_pylist()
    seen: dict[str, str] = dict(shard["seen"])

    def parse(i: int, row: dict[str, Any]) -> Document:
        where = f"{shard['path']}:{i}"
        doc_id = row.get("id")
        if isinstance(doc_id, str):
            first = seen.setdefault(doc_id, where)
            if first != where:
                raise _duplicate(doc_id, first, shard["path"], i)
        record = {k: v for k, v in row.items() if not (k == "spans" and v is None)}
        try:
            return record_to_document(record)
        except InputError as e:
            raise e.located(path=shard["path"], line=i) from None

    return each_record(enumerate(rows, start=shard["row"]), parse, errors)
