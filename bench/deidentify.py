"""``synthdeid deidentify``'s throughput against the tagger's own, idle and beside another job.

On the same notes, in one run: the tagger's own prediction (``Tagger.predict`` on every note,
model already loaded: the reference), then the ``synthdeid deidentify`` command in ``annotate``,
``redact`` and ``surrogate`` modes (its own notes/s, counted from the first note read: reading,
finding, replacing and writing; and the wall time with start-up and model loading). Each runs in
a fresh process. Then the same with one competing CPU-bound job on the cores (a torch matrix
loop with 2 threads and OpenMP's default wait policy, as another team's job would run), and the
same command as it ran before its threads waited passively (``before``: OpenMP's default policy,
spinning). The slowdown is loaded time / idle time; sharing two cores fairly costs about 2x.
Memory: the peak RSS of ``annotate`` on N and on 4N notes (flat means streaming).

The notes are ``--notes`` (default: the demo's test split ``data/prepared/test.jsonl``, repeated
to ``--n`` notes with new ids); the tagger ``--model`` (default ``data/taggers/real``; without
it a small tagger is trained on toy notes first, and the table says so). Run it alone.

    python bench/deidentify.py [--model DIR] [--notes FILE] [--n 1000] [--language nl]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

CHILD = r"""
import json, resource, sys, time
argv, what = json.loads(sys.argv[1]), sys.argv[2]
t0 = time.perf_counter()
if what == "tagger":
    from synthdeid.corpus.formats import read_jsonl
    from synthdeid.phi.deidentify import load_annotator
    from synthdeid.phi.threads import passive_waits, use_threads
    from synthdeid.spec.build import annotator as create
    model, notes, language, threads = argv
    docs = list(read_jsonl(notes))
    use_threads(int(threads))
    tagger = load_annotator(model, None, language, create=create).tagger
    start = time.perf_counter()
    tagger.predict(docs)
    rate = len(docs) / (time.perf_counter() - start)
    out = ""
else:
    import contextlib, io
    from rich.console import Console
    buf = io.StringIO()
    if what == "before":  # the command without main()'s passive_waits(): OpenMP's default policy
        from synthdeid.cli import build_parser
        args = build_parser().parse_args(argv)
        args.run(args, Console(file=buf, soft_wrap=True))
    else:
        from synthdeid.cli import main
        with contextlib.redirect_stdout(buf):
            assert main(argv) == 0
    out = buf.getvalue()
    import re
    rate = float(re.search(r"\(([0-9.]+) notes/s\)", out).group(1))
wall = time.perf_counter() - t0
print(json.dumps({"rate": rate, "wall": wall, "rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}))
"""

COMPETITOR = "import torch\ntorch.set_num_threads(2)\na = torch.randn(1024, 1024)\nwhile True:\n    a @ a\n"


def child(what: str, argv: list[str], env: dict[str, str]) -> dict[str, float]:
    out = subprocess.run(
        [sys.executable, "-c", CHILD, json.dumps(argv), what], capture_output=True, text=True, env=env, check=False
    )
    if out.returncode != 0:
        sys.exit(f"{what} failed:\n{out.stderr[-3000:]}")
    return json.loads(out.stdout.strip().splitlines()[-1])


def base_env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("OMP_WAIT_POLICY", "OMP_NUM_THREADS", "CI")}
    return env


def prepare_notes(path: Path | None, n: int, language: str, folder: Path) -> tuple[Path, int, int]:
    """``n`` notes (the source repeated, ids made unique) as JSONL; (file, notes, tokens)."""
    from synthdeid.corpus.formats import read_jsonl, write_jsonl
    from synthdeid.corpus.records import Document
    from synthdeid.plugin_system.manager import registry

    if path is None:
        from toy_notes import toy_docs

        source = toy_docs(400, seed=7)
    else:
        source = list(read_jsonl(path))
    docs = [
        Document.create(f"r{i // len(source)}/{d.id}", d.text, d.spans)
        for i, d in enumerate(source[i % len(source)] for i in range(n))
    ]
    out = folder / f"notes-{n}.jsonl"
    write_jsonl(docs, out)
    tokenize = registry("language").create(language).tokenize
    return out, len(docs), sum(len(tokenize(d.text)) for d in docs)


def toy_model(folder: Path, language: str) -> Path:
    from toy_notes import toy_docs

    from synthdeid.plugin_system.manager import registry
    from synthdeid.plugins.torch_tagger import create

    docs = toy_docs(360, seed=0)
    create({"max_epochs": 6, "threads": 2}).train(docs[:300], docs[300:360], folder, registry("language").create(language).tokenize)
    return folder


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--model", type=Path)
    ap.add_argument("--notes", type=Path)
    ap.add_argument("--n", type=int, default=1000)
    ap.add_argument("--language", default="nl")
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--rounds", type=int, default=3, help="rounds of every run; the table shows medians")
    a = ap.parse_args()
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))  # the toy notes
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        model = a.model or (Path("data/taggers/real") if Path("data/taggers/real/tagger.json").exists() else None)
        what_model = str(model) if model else "a small tagger trained on toy notes (no data/taggers/real)"
        model = model or toy_model(folder / "tagger", a.language)
        notes_src = a.notes or (Path("data/prepared/test.jsonl") if Path("data/prepared/test.jsonl").exists() else None)
        notes, n, tokens = prepare_notes(notes_src, a.n, a.language, folder)
        big, n_big, _ = prepare_notes(notes_src, 4 * a.n, a.language, folder)
        env = base_env()

        def command(mode: str, src: Path = notes) -> list[str]:
            out = folder / f"out-{mode}-{time.perf_counter_ns()}.jsonl"
            return ["deidentify", str(src), str(out), "--model", str(model), "--language", a.language,
                    "--mode", mode, "--threads", str(a.threads)]

        def measure_once() -> dict[str, dict[str, float]]:
            passive = {**env, "OMP_WAIT_POLICY": "PASSIVE"}  # the reference waits as the command does
            runs = {"tagger (reference)": child("tagger", [str(model), str(notes), a.language, str(a.threads)], passive)}
            for mode in ("annotate", "redact", "surrogate"):
                runs[f"deidentify {mode}"] = child("cli", command(mode), env)
            runs["deidentify annotate, before"] = child("before", command("annotate"), env)
            return runs

        def measure() -> dict[str, dict[str, float]]:
            """Each run's median over ``--rounds`` rounds (the runs take turns within a round)."""
            rounds = [measure_once() for _ in range(a.rounds)]
            return {k: {f: statistics.median(r[k][f] for r in rounds) for f in rounds[0][k]} for k in rounds[0]}

        idle = measure()
        competitor = subprocess.Popen([sys.executable, "-c", COMPETITOR], env=env)
        try:
            time.sleep(2)
            loaded = measure()
        finally:
            competitor.kill()
            competitor.wait()
        memory = {k: child("cli", command("annotate", src), env)["rss_mb"] for k, src in ((n, notes), (n_big, big))}

    ref = idle["tagger (reference)"]["rate"]
    print(f"{n} notes, {tokens} tokens ({tokens / n:.0f} a note); tagger: {what_model}; --threads {a.threads}; "
          f"medians of {a.rounds} rounds")
    print("| run | idle notes/s | idle tokens/s | of the tagger's | wall s (with start-up) | loaded notes/s | slowdown |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    for name, r in idle.items():
        rate, slow = r["rate"], r["rate"] / loaded[name]["rate"]
        print(f"| {name} | {rate:.0f} | {rate * tokens / n:.0f} | {rate / ref:.0%} | {r['wall']:.1f} | "
              f"{loaded[name]['rate']:.0f} | {slow:.2f}x |")
    print(f"peak RSS of annotate: {memory[n]:.0f} MB for {n} notes, {memory[n_big]:.0f} MB for {n_big} notes")


if __name__ == "__main__":
    main()
