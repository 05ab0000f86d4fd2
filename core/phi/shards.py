"""The Ray engine's output folder: one JSONL shard per input block (``shard-00000.jsonl``), its
rejects (``shard-00000.rejects.jsonl``, when any) and a done marker (``shard-00000.done.json``:
counts and sha256 of both), and ``manifest.json`` (the job's non-secret settings, fingerprints of
the input, the settings and the key, the shards in input order). Every file is created mode 600
under a temporary name and renamed when complete; a shard counts as done only when its marker's
checksums match its files, so a run killed at any point resumes by redoing the rest."""

from __future__ import annotations

import hashlib
import json
import os
import re
import time
import uuid
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from synthdeid.errors import InputError
from synthdeid.phi.surrogate_key import SurrogateKey

MANIFEST = "manifest.json"
MANIFEST_FORMAT = "synthdeid-deidentify-shards/1"
OURS = re.compile(r"manifest\.json|shard-\d+\.(jsonl|rejects\.jsonl|done\.json)|\..+\.tmp")
"""The files this engine writes in its output folder (``--force`` removes these, and only these)."""


def shard_file(i: int) -> str:
    return f"shard-{i:05d}.jsonl"


def rejects_file(i: int) -> str:
    return f"shard-{i:05d}.rejects.jsonl"


def done_file(i: int) -> str:
    return f"shard-{i:05d}.done.json"


def write_private(path: Path, chunks: Iterable[str]) -> str:
    """Write ``chunks`` (UTF-8) to ``path`` through a mode-600 temporary file renamed when complete;
    returns the sha256 of the bytes. A failure leaves no file behind."""
    tmp = path.with_name(f".{path.name}.{uuid.uuid4().hex}.tmp")
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0)
    digest = hashlib.sha256()
    try:
        with os.fdopen(os.open(tmp, flags, 0o600), "wb") as f:
            for chunk in chunks:
                data = chunk.encode("utf-8")
                digest.update(data)
                f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    return digest.hexdigest()


def sha256_file(path: Path) -> str | None:
    try:
        with open(path, "rb") as f:
            return hashlib.file_digest(f, "sha256").hexdigest()
    except FileNotFoundError:
        return None


def key_fingerprint(key: SurrogateKey | None) -> str | None:
    """HMAC-SHA256 of a constant under the key: tells two keys apart, reveals nothing of either
    (its domain differs from every surrogate seed's)."""
    return None if key is None else key.fingerprint()


def fingerprint(value: Any) -> str:
    """sha256 of ``value`` as canonical JSON."""
    return hashlib.sha256(json.dumps(value, sort_keys=True, ensure_ascii=False).encode()).hexdigest()


def folder_fingerprint(folder: str | Path | None) -> str | None:
    """sha256 over a folder's file names and contents (a tagger retrained in place is a new model)."""
    if folder is None:
        return None
    root = Path(folder)
    h = hashlib.sha256()
    for f in sorted(p for p in root.rglob("*") if p.is_file()):
        h.update(f.relative_to(root).as_posix().encode("utf-8", "surrogateescape") + b"\0")
        h.update((sha256_file(f) or "").encode() + b"\n")
    return h.hexdigest()


def done_shard(folder: Path, i: int) -> dict[str, Any] | None:
    """Shard ``i``'s marker when the shard and its rejects are complete (checksums match), else None."""
    try:
        marker = json.loads((folder / done_file(i)).read_text(encoding="utf-8"))
    except (FileNotFoundError, ValueError):
        return None
    if not isinstance(marker, dict) or marker.get("index") != i:
        return None
    if sha256_file(folder / shard_file(i)) != marker.get("sha256"):
        return None
    if sha256_file(folder / rejects_file(i)) != marker.get("rejects_sha256"):
        return None
    return marker


def clear_shard(folder: Path, i: int) -> None:
    """Remove what a run killed half-way left of shard ``i`` (it is redone whole)."""
    for name in (done_file(i), shard_file(i), rejects_file(i)):
        (folder / name).unlink(missing_ok=True)


def read_manifest(folder: Path) -> dict[str, Any] | None:
    path = folder / MANIFEST
    if not path.is_file():
        return None
    try:
        manifest = json.loads(path.read_text(encoding="utf-8"))
    except ValueError:
        return None
    return manifest if isinstance(manifest, dict) and manifest.get("format") == MANIFEST_FORMAT else None


def write_manifest(folder: Path, manifest: dict[str, Any]) -> None:
    write_private(folder / MANIFEST, [json.dumps(manifest, indent=1, ensure_ascii=False) + "\n"])


IDENTITY = ("settings_fingerprint", "input_fingerprint", "key_fingerprint")


def prepare_folder(folder: Path, identity: dict[str, Any], force: bool) -> bool:
    """Make ``folder`` ready for the job ``identity`` (settings and fingerprints); True when it
    holds an earlier run of the same job (resume). A folder of another job, or with files this
    engine did not write, is refused; with ``force`` another job's files are removed."""
    if folder.exists() and not folder.is_dir():
        raise InputError(
            "is a file: the Ray engine writes a folder of shards",
            path=folder,
            fix="name a new folder (e.g. out/), or use --engine local for a single file",
        )
    folder.mkdir(mode=0o700, parents=True, exist_ok=True)
    names = sorted(p.name for p in folder.iterdir())
    foreign = [n for n in names if not OURS.fullmatch(n)]
    if foreign:
        raise InputError(
            f"the folder holds files that are not this engine's shards: {', '.join(foreign[:5])}",
            path=folder,
            fix="write to a new or empty folder",
        )
    for n in names:  # left by a killed run
        if n.endswith(".tmp"):
            (folder / n).unlink(missing_ok=True)
    manifest = read_manifest(folder)
    if manifest is not None and all(manifest.get(k) == identity[k] for k in IDENTITY):
        return True
    if names and not force:
        raise InputError(_mismatch(manifest, identity), path=folder, fix=_FIX)
    for n in names:
        if OURS.fullmatch(n):
            (folder / n).unlink(missing_ok=True)
    return False


_FIX = (
    "run the same command again (same input, settings and --key-file) to resume it, choose a new output folder, "
    "or pass --force to start over (its shards are deleted)"
)


def _mismatch(manifest: dict[str, Any] | None, identity: dict[str, Any]) -> str:
    if manifest is None:
        return "the folder holds shards of a run whose manifest is missing or unreadable"
    what = []
    if manifest.get("input_fingerprint") != identity["input_fingerprint"]:
        what.append("the input (its files, sizes or times)")
    old = manifest.get("settings", {})
    changed = sorted(k for k in {*old, *identity["settings"]} if old.get(k) != identity["settings"].get(k))
    if changed or manifest.get("settings_fingerprint") != identity["settings_fingerprint"]:
        what.append("the settings (" + ", ".join(changed or ["the tagger's files"]) + ")")
    if manifest.get("key_fingerprint") != identity["key_fingerprint"]:
        what.append(
            "the surrogate key (a run without --key-file draws a fresh key, so only a --key-file run can resume)"
        )
    return "the folder holds another job's shards: " + "; ".join(what or ["another job"]) + " differ"


def process_shard(shard: dict[str, Any], job: Any, annotator: Any, pack: Any, folder: Path) -> dict[str, Any]:
    """Read, de-identify and write one shard (``job`` is a ``DeidJob``): its JSONL lines, its rejects
    and last its done marker, which is returned. A ``--strict`` run's first bad note is returned as
    ``{"index", "error"}`` instead (nothing of the shard is written)."""
    from synthdeid.corpus.formats.jsonl import write_jsonl
    from synthdeid.errors import SurrogateError
    from synthdeid.phi.deidentify import DeidCounts, deidentify
    from synthdeid.phi.deidentify_local import draining, reject_entry
    from synthdeid.phi.note_sources import read_shard
    from synthdeid.phi.public_ids import public_ids

    i = shard["index"]
    started, started_at = time.perf_counter(), time.time()
    errors: list[InputError] | None = None if job.strict else []
    ids = public_ids(job)
    rejects = [ids.error_entry(InputError(**e)) for e in shard.get("pre_errors", [])]
    counts = DeidCounts()

    def reject(where: str, reason: str) -> None:
        rejects.append(reject_entry(where, reason))

    docs = draining(read_shard(shard, errors), errors, rejects, ids)
    on_reject = None if job.strict else reject
    try:  # the one-process engine's writer: the same bytes
        written = write_jsonl(
            deidentify(docs, annotator, job.mode, pack, job.key, job.mask, counts, on_reject, ids, job.max_note_chars),
            folder / shard_file(i),
        )
    except InputError as e:
        return {"index": i, "error": {"kind": "input", **_located(e)}}
    except SurrogateError as e:
        return {"index": i, "error": {"kind": "surrogate", "problem": str(e)}}
    rejects_sha = None
    if rejects:
        rejects_sha = write_private(
            folder / rejects_file(i), (json.dumps(r, ensure_ascii=False) + "\n" for r in rejects)
        )
    read_rejects = len(rejects) - counts.rejected
    marker = {
        "index": i,
        "notes_in": counts.notes + read_rejects,
        "out": written,
        "rejected": len(rejects),
        "sha256": sha256_file(folder / shard_file(i)),
        "rejects_sha256": rejects_sha,
        "counts": {
            "notes": counts.notes,
            "spans_in": counts.spans_in,
            "found": dict(counts.found),
            "added": counts.added,
            "rejected": counts.rejected,
        },
        "started_at": round(started_at, 3),  # for a rate without start-up (bench/deidentify_ray.py)
        "seconds": round(time.perf_counter() - started, 3),
    }
    write_private(folder / done_file(i), [json.dumps(marker) + "\n"])
    return marker


def _located(e: InputError) -> dict[str, Any]:
    return {"problem": e.problem, "path": e.path, "line": e.line, "doc_id": e.doc_id, "fix": e.fix}
