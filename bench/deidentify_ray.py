"""What ``synthdeid deidentify --engine ray`` gains: notes/s of Ray Data with 1 one-thread worker and
with 2, and of the one-process command with both cores (``--engine local --threads 2``), on the
same notes and tagger (``data/taggers/real`` when present, else a tiny tagger trained here on demo
notes). Ray's start-up (``ray.init``) is reported, not counted; each Ray run's actor start-up (a
worker process and a model load per actor) is left out of the rate (it runs from the first shard's start
to the last shard's end), as the one-process command's model load is out of its rate.

    python bench/deidentify_ray.py [--notes 4000] [--block 200] [--model data/taggers/real]

Goals (issue #41): 2 workers >= 1.7x one worker; run it on an idle machine.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import logging
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from rich.console import Console

from synthdeid.cli import build_parser
from synthdeid.corpus.formats import write_jsonl
from synthdeid.phi.deidentify_command import job_from_args
from synthdeid.phi.ray_engine import run_on_ray
from synthdeid.sources.demo import generate_demo_corpus

FAST = {"threads": 1, "batch_size": 16, "hidden_size": 64, "embedding_size": 48, "char_filters": 16}


def tagger(folder: Path) -> Path:
    """A tiny torch tagger trained on demo notes (a minute on one core)."""
    from synthdeid.plugin_system.manager import registry
    from synthdeid.plugins.torch_tagger import create

    pack = registry("language").create("nl")
    create({**FAST, "max_epochs": 6, "patience": 2}).train(
        generate_demo_corpus(200, seed=1), generate_demo_corpus(40, seed=2), folder, pack.tokenize
    )
    return folder


def ray_rate(notes: Path, model: Path, work: Path, name: str, workers: int, block: int) -> tuple[float, float]:
    """(notes/s, wall seconds) of one ``--engine ray`` run (Ray already started); the rate runs from
    the first shard's start to the last one's end (done markers), without actor start-up."""
    out = work / name
    args = ["deidentify", str(notes), str(out), "--model", str(model), "--language", "nl", "--mode", "surrogate",
            "--key-file", str(work / "bench.key"), "--engine", "ray"]  # fmt: skip
    job = job_from_args(build_parser().parse_args(args))
    started = time.perf_counter()
    run_on_ray(job, Console(file=io.StringIO()), workers=workers, threads=1, block_notes=block)
    wall = time.perf_counter() - started
    markers = [json.loads(p.read_text()) for p in out.glob("*.done.json")]
    first = min(m["started_at"] for m in markers)
    last = max(m["started_at"] + m["seconds"] for m in markers)
    return sum(m["notes_in"] for m in markers) / max(last - first, 1e-9), wall


def local_rate(notes: Path, model: Path, work: Path) -> float:
    """notes/s of ``--engine local --threads 2`` as its report gives it (model load excluded)."""
    args = ["deidentify", str(notes), str(work / "local.jsonl"), "--model", str(model), "--language", "nl",
            "--mode", "surrogate", "--key-file", str(work / "bench.key"), "--engine", "local", "--threads", "2"]  # fmt: skip
    code = "import sys; from synthdeid.cli import main; sys.exit(main(sys.argv[1:]))"
    done = subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True, check=True)
    return float(re.search(r"\(([\d.]+) notes/s\)", done.stdout).group(1))  # type: ignore[union-attr]


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--notes", type=int, default=4000)
    ap.add_argument("--block", type=int, default=200, help="notes per shard")
    ap.add_argument("--model", type=Path, default=Path("data/taggers/real"))
    args = ap.parse_args(argv)
    import ray

    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        model = args.model if args.model.is_dir() else tagger(work / "tagger")
        notes = work / "notes.jsonl"
        write_jsonl(generate_demo_corpus(args.notes, seed=7), notes)
        started = time.perf_counter()
        ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, logging_level=logging.WARNING)
        startup = time.perf_counter() - started
        try:
            rates = {}
            for workers in (1, 2):
                rates[workers], wall = ray_rate(notes, model, work, f"ray{workers}", workers, args.block)
                print(f"ray, {workers} worker(s) of 1 thread: {rates[workers]:.1f} notes/s "
                      f"({wall:.1f} s with actor start-up)")  # fmt: skip
        finally:
            ray.shutdown()
        with contextlib.suppress(subprocess.CalledProcessError):
            local = local_rate(notes, model, work)
            print(f"local, one process of 2 threads: {local:.1f} notes/s")
            print(f"ray 2 workers / local 2 threads: {rates[2] / local:.2f}x")
        same = all((work / "local.jsonl").read_bytes() == b"".join(sorted_shards(work / f"ray{w}")) for w in (1, 2))
        print(f"ray start-up (ray.init, not counted): {startup:.1f} s; {args.notes} notes, shards of {args.block}")
        print(f"ray 2 workers / 1 worker: {rates[2] / rates[1]:.2f}x (goal >= 1.7x); outputs byte-identical: {same}")


def sorted_shards(folder: Path) -> list[bytes]:
    manifest = json.loads((folder / "manifest.json").read_text())
    return [(folder / s["file"]).read_bytes() for s in manifest["shards"]]


if __name__ == "__main__":
    main()
