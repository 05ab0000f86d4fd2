"""``synthdeid deidentify --engine ray``: the same work as the one-process engine, on Ray Data.

The driver plans the input as shards of ``block_notes`` notes (``note_sources``) and hands their
descriptors (paths and offsets, never text) to an actor pool: each actor loads the annotator and
language pack once, then reads, de-identifies and writes whole shards into the output folder
(``shards``). Note text never enters Ray's object store; the job (with the surrogate key, in memory)
is each actor's constructor argument. Shards are written in input order with the local engine's
JSONL lines, so with one ``--key-file`` their concatenation equals ``--engine local``'s output byte
for byte; done shards are skipped when the same command runs again."""

from __future__ import annotations

import dataclasses
import json
import logging
import time
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from rich.console import Console

from synthdeid.errors import InputError, SurrogateError, SynthdeidError
from synthdeid.phi import note_sources, shards
from synthdeid.phi.deid_job import DeidJob, report

DEFAULT_BLOCK_NOTES = 1000
"""Notes per shard: large enough that a shard outlasts its scheduling, small enough to lose little
to a kill. Part of the job's settings (a resumed run must cut the same shards)."""
MANIFEST_EVERY = 5.0
"""Seconds between manifest rewrites while shards complete (done markers are the record)."""


def run_on_ray(
    job: DeidJob,
    out: Console,
    address: str | None = None,
    workers: int | None = None,
    *,
    force: bool = False,
    threads: int | None = None,
    block_notes: int | None = None,
) -> int:
    """De-identify ``job`` on Ray (a local one on this machine's cores, or the cluster at
    ``address``) with ``workers`` actors of ``threads`` torch threads each (default 1), into the
    folder ``job.output``; returns the exit code. A folder holding an earlier run of the same job
    is resumed; another job's folder is refused unless ``force``."""
    if address:
        check_address(address)
    if job.output_format not in (None, "jsonl"):
        raise InputError(
            f"the Ray engine writes JSONL shards, not {job.output_format}",
            fix="leave out --to (convert the shards afterwards), or use --engine local",
        )
    block = DEFAULT_BLOCK_NOTES if block_notes is None else block_notes
    job = dataclasses.replace(
        job,
        threads=1 if threads is None else threads,
        model=str(Path(job.model).resolve()) if job.model else None,  # workers may start elsewhere
    )
    fmt = "parquet" if note_sources.is_parquet(job.input) else job.input_format
    plan, input_fp = note_sources.plan_shards(job.input, fmt, block, job.strict)
    settings = job_settings(job, fmt, block)
    identity = {
        "settings": settings,
        "settings_fingerprint": shards.fingerprint(settings),
        "input_fingerprint": input_fp,
        "key_fingerprint": shards.key_fingerprint(job.key),
    }
    folder = job.output
    shards.prepare_folder(folder, identity, force)
    done = _done_shards(folder, len(plan))
    resumed = set(done)
    manifest = {"format": shards.MANIFEST_FORMAT, **identity, "complete": False}
    shards.write_manifest(folder, _with_shards(manifest, plan, done))
    todo = [s for s in plan if s["index"] not in done]
    started = time.perf_counter()
    error = _run(todo, job, folder, address, workers, done, manifest, plan) if todo else None
    elapsed = time.perf_counter() - started
    manifest["complete"] = error is None and len(done) == len(plan)
    shards.write_manifest(folder, _with_shards(manifest, plan, done))
    if error is not None:
        raise error
    if job.id_map is not None:
        write_id_map(job, plan, job.id_map)
    return _report(out, job, plan, done, resumed, elapsed)


def write_id_map(job: DeidJob, plan: list[note_sources.Shard], path: Path) -> None:
    """``--id-map`` (``path``): the driver reads the notes' ids again, shard by shard (workers never send ids)."""
    from synthdeid.phi.public_ids import public_ids

    ids = public_ids(job, record=True)
    for shard in plan:
        errors: list[InputError] = []
        for doc in note_sources.read_shard(shard, errors):
            ids(doc.id)
        for e in errors:
            ids.error_entry(e)
    ids.write_map(path)


def job_settings(job: DeidJob, fmt: str, block: int) -> dict[str, Any]:
    """What decides the output, and nothing secret: the manifest records these (never the key)."""
    import synthdeid

    return {
        "input": str(Path(job.input).resolve()),
        "input_format": fmt,
        "mode": job.mode,
        "language": job.language,
        "model": job.model,
        "model_fingerprint": shards.folder_fingerprint(job.model),
        "annotator": job.annotator,
        "min_confidence": job.min_confidence,
        "trust_model": job.trust_model,
        "mask": job.mask,
        "keep_ids": job.keep_ids,
        "max_note_chars": job.max_note_chars,
        "block_notes": block,
        "synthdeid_version": getattr(synthdeid, "__version__", None),
    }


def _done_shards(folder: Path, n: int) -> dict[int, dict[str, Any]]:
    done: dict[int, dict[str, Any]] = {}
    for i in range(n):
        marker = shards.done_shard(folder, i)
        if marker is None:
            shards.clear_shard(folder, i)
        else:
            done[i] = marker
    return done


def _with_shards(manifest: dict[str, Any], plan: list[note_sources.Shard], done: dict[int, Any]) -> dict[str, Any]:
    entries = []
    for s in plan:
        i = s["index"]
        entry = {"index": i, "file": shards.shard_file(i), "source": _source(s), "done": i in done}
        if i in done:
            m = done[i]
            entry |= {k: m[k] for k in ("notes_in", "out", "rejected", "sha256", "rejects_sha256")}
            entry["rejects"] = shards.rejects_file(i) if m["rejects_sha256"] else None
        entries.append(entry)
    return {**manifest, "shards": entries}


def _source(s: note_sources.Shard) -> dict[str, Any]:
    """Where a shard's notes come from, for the manifest (no note names: ids may carry PHI)."""
    if s["kind"] == "jsonl":
        return {"path": s["path"], "from_line": s["line"], "byte_offset": s["offset"]}
    if s["kind"] == "parquet":
        return {"path": s["path"], "row_group": s["group"], "from_row": s["row"]}
    return {"path": s["path"], "notes": len(s["notes"])}


def _run(
    todo: list[note_sources.Shard],
    job: DeidJob,
    folder: Path,
    address: str | None,
    workers: int | None,
    done: dict[int, dict[str, Any]],
    manifest: dict[str, Any],
    plan: list[note_sources.Shard],
) -> SynthdeidError | None:
    """Process ``todo`` on Ray, recording each completed shard in ``done``; the first error (in
    input order) of a ``--strict`` run, or None."""
    import ray

    stop = ensure_ray(address)
    try:
        last = time.monotonic()
        for summary in _summaries(ray, todo, job, folder, workers):
            if "error" in summary:
                return _error(summary["error"])
            done[summary["index"]] = summary
            if time.monotonic() - last > MANIFEST_EVERY:
                shards.write_manifest(folder, _with_shards(manifest, plan, done))
                last = time.monotonic()
        return None
    finally:
        stop()


def _summaries(
    ray: Any, todo: list[note_sources.Shard], job: DeidJob, folder: Path, workers: int | None
) -> Iterator[Any]:
    from ray.data import DataContext

    from synthdeid.progress import interactive

    cpus = int(ray.cluster_resources().get("CPU", 1))
    n = max(1, cpus // job.threads) if workers is None else workers
    if n < 1:
        raise InputError(f"--workers {n}: at least one worker is needed", fix="e.g. --workers 2")
    ctx = DataContext.get_current()
    ctx.execution_options.preserve_order = True  # summaries, and a --strict run's first error, in input order
    ctx.enable_progress_bars = interactive()
    ctx.print_on_execution_start = interactive()
    if not interactive():
        logging.getLogger("ray.data").setLevel(logging.ERROR)  # e.g. "Progress bars disabled"
    ds = ray.data.from_items([{"shard": json.dumps(s)} for s in todo], override_num_blocks=len(todo))
    ds = ds.map_batches(
        ShardWorker,
        fn_constructor_kwargs={"job": job, "folder": str(folder)},
        batch_size=1,
        compute=ray.data.ActorPoolStrategy(size=min(n, len(todo))),  # one model per actor, loaded once
        num_cpus=job.threads,
        runtime_env={"env_vars": {"OMP_NUM_THREADS": str(job.threads), "OMP_WAIT_POLICY": "PASSIVE"}},
    )
    for row in ds.iter_rows():
        yield json.loads(row["summary"])


def _error(e: dict[str, Any]) -> SynthdeidError:
    if e["kind"] == "surrogate":
        return SurrogateError(e["problem"])
    return InputError(e["problem"], path=e["path"], line=e["line"], doc_id=e["doc_id"], fix=e["fix"])


def _report(
    out: Console, job: DeidJob, plan: list[Any], done: dict[int, dict[str, Any]], resumed: set[int], elapsed: float
) -> int:
    from synthdeid.phi.deidentify import DeidCounts

    counts = DeidCounts()
    read_rejects = written = 0
    lines: list[str] = []
    for i in range(len(plan)):
        m = done[i]
        c = m["counts"]
        counts.notes += c["notes"]
        counts.spans_in += c["spans_in"]
        counts.found.update(Counter(c["found"]))
        counts.added += c["added"]
        counts.rejected += c["rejected"]
        read_rejects += m["rejected"] - c["rejected"]
        written += m["out"]
        if m["rejects_sha256"]:
            text = (job.output / shards.rejects_file(i)).read_text(encoding="utf-8")
            lines.extend(line + "\n" for line in text.split("\n")[:-1])  # JSONL lines: U+2028 is no break
    this_run = sum(done[i]["counts"]["notes"] for i in done if i not in resumed)
    counts.started = time.perf_counter() - elapsed * counts.notes / max(this_run, 1)  # the rate of this run
    if lines:
        shards.write_private(job.rejects, lines)
    code = report(out, job, counts, written, read_rejects)
    if resumed:
        out.print(f"ray: resumed: {len(resumed)} of {len(plan)} shard(s) were done by an earlier run", highlight=False)
    return code


ADDRESS_TIMEOUT = 10.0
"""Seconds to wait for a Ray ``--address`` to answer (Ray itself retries for minutes)."""


def check_address(address: str, timeout: float = ADDRESS_TIMEOUT) -> None:
    """Refuse a Ray ``--address`` (``HOST:PORT`` or ``ray://HOST:PORT``; ``auto`` and ``local`` are
    Ray's own) that is malformed or where nothing accepts a connection within ``timeout`` seconds."""
    import socket

    if address in ("auto", "local"):
        return
    hostport = address.split("://", 1)[1] if "://" in address else address
    host, _, port = hostport.rpartition(":")
    host = host.strip("[]")
    if not host or not port.isdigit():
        raise InputError(
            f"--address {address!r} is not HOST:PORT",
            fix="give the head node's address, e.g. --address 10.0.0.5:6379 (or ray://10.0.0.5:10001, or auto)",
        )
    try:
        socket.create_connection((host, int(port)), timeout=timeout).close()
    except OSError as e:
        raise InputError(
            f"nothing answers at the Ray address {host}:{port} within {timeout:g} s ({e.strerror or e})",
            fix="start the cluster first (ray start --head) and check the address and the firewall, or leave "
            "--address out for a local Ray on this machine",
        ) from None


def ensure_ray(address: str | None) -> Any:
    """Connect to Ray: the one this process already runs (tests, benches), the cluster at
    ``address``, or a new local one on this machine's cores. Returns what ends the connection
    (nothing, for a Ray this function did not start)."""
    import ray

    from synthdeid.phi.threads import default_threads
    from synthdeid.progress import interactive

    if ray.is_initialized():
        return lambda: None
    level = logging.INFO if interactive() else logging.ERROR  # off a terminal: errors only
    if address:
        ray.init(address=address, log_to_driver=False, logging_level=level)
    else:
        ray.init(num_cpus=default_threads(), include_dashboard=False, log_to_driver=False, logging_level=level)
    return ray.shutdown


class ShardWorker:
    """One actor of the pool: loads the annotator and language pack once, then de-identifies
    whole shards (``shards.process_shard``), returning each one's summary as JSON."""

    def __init__(self, job: DeidJob, folder: str) -> None:
        from synthdeid.phi.deidentify_local import build_annotator, language_pack

        self.job = job
        self.folder = Path(folder)
        self.annotator = build_annotator(job)
        self.pack = language_pack(job)

    def __call__(self, batch: dict[str, Any]) -> dict[str, list[str]]:
        return {
            "summary": [
                json.dumps(shards.process_shard(json.loads(s), self.job, self.annotator, self.pack, self.folder))
                for s in batch["shard"]
            ]
        }
