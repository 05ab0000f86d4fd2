"""The demo's time and memory budget on this machine, measured from a fresh clone.

Clones the repository's committed HEAD into a temporary folder, then runs, timing each:
``make setup`` (a new .venv: torch, then the package), the study (``dvc repro``, with the time of
every stage from DVC's own log lines), and a second, no-op ``dvc repro``. Peak memory is the
largest resident set of any process of the run (``getrusage`` of the waited-for children). Prints
the figures against the budget of issue #6 (whole ``make demo`` under 20 min, no-op repro under
5 s, peak memory under 6 GB) and exits 1 when one is over.

A fresh clone holds the committed ``dvc.lock`` and the committed metrics and plots, so ``make demo``
skips a stage whose outputs are all committed files when its dependencies match the lock (e.g. the
learning curve when the synthetic corpus comes out the same): the script lists such stages.
``--whole`` runs ``dvc repro --force`` after ``make setup`` instead, timing every stage.

Every stage's wall time, CPU time, CPU share (CPU seconds over wall seconds: 200% is both of two
cores busy) and peak resident memory are printed as a table (``--table FILE`` also writes it as
Markdown, with the CPU and date), read from /proc while the stage runs (``bench/proc_tree.py``).

``--preset NAME`` switches the clone to a preset first (``synthdeid preset NAME``, e.g. meddocan),
with the repository's ``../shared`` (where MEDDOCAN lives) linked beside the clone.

    python bench/budget.py [--keep] [--whole] [--repo .] [--table docs/stage-costs.md] [--preset meddocan]
"""

from __future__ import annotations

import argparse
import datetime
import os
import platform
import re
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from proc_tree import TreeSampler, Usage

STUDY = "make demo (set-up + study)"
BUDGET = {STUDY: 20 * 60.0, "no-op dvc repro": 5.0}
MEMORY_BUDGET_GB = 6.0
_STAGE = re.compile(r"^(?:Running stage|Stage) '([^']+)'")
_SKIPPED = re.compile(r"^Stage '([^']+)' didn't change, skipping")


def run(
    cmd: list[str], cwd: Path, log: Path, usage: dict[str, Usage] | None = None
) -> tuple[float, list[tuple[str, float]], list[str]]:
    """Wall seconds of ``cmd`` and, from its output, the seconds of each DVC stage it ran and the
    stages it skipped as up to date; ``usage`` receives each stage's CPU time and peak memory."""
    stages: list[tuple[str, float]] = []
    skipped: list[str] = []
    current: tuple[str, float] | None = None
    t0 = time.perf_counter()
    with open(log, "a", encoding="utf-8") as out:
        proc = subprocess.Popen(cmd, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                                env={**os.environ, "CI": "true", "PYTHONUNBUFFERED": "1",  # stage lines as they happen
                                     "PATH": f"{cwd / '.venv' / 'bin'}{os.pathsep}{os.environ['PATH']}"})  # as make does
        assert proc.stdout is not None
        sampler = TreeSampler(proc.pid).start()
        for line in proc.stdout:
            out.write(line)
            if s := _SKIPPED.match(line):
                skipped.append(s.group(1))
            m = _STAGE.match(line)
            if m and line.startswith("Running stage"):
                now = time.perf_counter()
                if current:
                    stages.append((current[0], now - current[1]))
                current = (m.group(1), now)
                sampler.label = m.group(1)
        code = proc.wait()
        sampler.stop()
        if usage is not None:
            usage.update(sampler.usage())
    elapsed = time.perf_counter() - t0
    if current:
        stages.append((current[0], time.perf_counter() - current[1]))
    if code:
        sys.exit(f"{' '.join(cmd)} failed with exit code {code}; see {log}")
    return elapsed, stages, skipped


def cpu_name() -> str:
    for line in Path("/proc/cpuinfo").read_text().splitlines():
        if line.startswith("model name"):
            return line.split(":", 1)[1].strip()
    return platform.processor() or "unknown CPU"


def stage_table(stages: list[tuple[str, float]], usage: dict[str, Usage], study: float) -> str:
    """A Markdown table of every stage, slowest first, with its share of the study's wall time."""
    rows = ["| stage | wall s | share of study | CPU s | CPU share | peak GB |", "|---|---:|---:|---:|---:|---:|"]
    for name, seconds in sorted(stages, key=lambda s: -s[1]):
        u = usage.get(name, Usage())
        rows.append(
            f"| {name} | {seconds:.1f} | {seconds / study:.1%} | {u.cpu_seconds:.1f} | "
            f"{u.cpu_seconds / seconds:.0%} | {u.peak_rss_gb:.2f} |"
        )
    total_cpu = sum(u.cpu_seconds for u in usage.values())
    rows.append(f"| **whole study** | {study:.1f} | 100% | {total_cpu:.1f} | {total_cpu / study:.0%} | "
                f"{max((u.peak_rss_gb for u in usage.values()), default=0):.2f} |")
    return "\n".join(rows)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repo", default=".", help="the repository to clone (its committed HEAD)")
    ap.add_argument("--keep", action="store_true", help="keep the clone (its path is printed)")
    ap.add_argument("--whole", action="store_true",
                    help="run every stage (dvc repro --force) instead of make demo, which skips stages whose "
                         "committed outputs are up to date")
    ap.add_argument("--table", help="also write the per-stage table as Markdown to this file")
    ap.add_argument("--preset", help="switch the clone to this preset before the study (e.g. meddocan)")
    args = ap.parse_args()
    work = Path(tempfile.mkdtemp(prefix="synthdeid-budget-"))
    clone = work / "synthdeid"
    log = work / "budget.log"
    subprocess.run(["git", "clone", "--quiet", str(Path(args.repo).resolve()), str(clone)], check=True)
    print(f"fresh clone of {subprocess.check_output(['git', '-C', str(clone), 'rev-parse', '--short', 'HEAD'], text=True).strip()} "
          f"in {clone}; log in {log}", flush=True)
    setup, _, _ = run(["make", "setup"], clone, log)
    print(f"make setup: {setup:.0f} s", flush=True)
    if args.preset:
        shared = Path(args.repo).resolve().parent / "shared"
        if shared.is_dir():
            (work / "shared").symlink_to(shared, target_is_directory=True)
        run([str(clone / ".venv/bin/synthdeid"), "preset", args.preset], clone, log)
        print(f"preset {args.preset}", flush=True)
    dvc = str(clone / ".venv/bin/dvc")
    usage: dict[str, Usage] = {}
    study, stages, skipped = run([dvc, "repro", "--force"] if args.whole else ["make", "demo"], clone, log, usage)
    print(f"dvc repro (the study): {study:.0f} s, {len(stages)} stages run", flush=True)
    if skipped:
        print(f"skipped, up to date with their committed outputs: {', '.join(skipped)}", flush=True)
    noop, _, _ = run([dvc, "repro"], clone, log)
    peak_gb = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024 ** 2  # KiB on Linux
    figures = {STUDY: setup + study, "no-op dvc repro": noop}
    table = stage_table(stages, usage, study)
    print("\n" + table)
    if args.table:
        cpu = cpu_name()
        Path(args.table).write_text(
            f"Measured {datetime.date.today()} on {cpu} ({os.cpu_count()} cores), commit "
            f"{subprocess.check_output(['git', '-C', str(clone), 'rev-parse', '--short', 'HEAD'], text=True).strip()}, "
            f"{'every stage forced' if args.whole else 'make demo'}"
            f"{f', preset {args.preset}' if args.preset else ''}:\n\n{table}\n",
            encoding="utf-8",
        )
    print(f"\n{'figure':30} {'measured':>10} {'budget':>10}")
    over = []
    for name, value in figures.items():
        label = "set-up + every stage forced" if args.whole and name == STUDY else name
        print(f"{label:30} {value:9.1f}s {BUDGET[name]:9.0f}s")
        if value > BUDGET[name]:
            over.append(name)
    print(f"{'peak memory (one process)':30} {peak_gb:8.2f}GB {MEMORY_BUDGET_GB:8.0f}GB")
    if peak_gb > MEMORY_BUDGET_GB:
        over.append("peak memory")
    print(f"cores: {os.cpu_count()}, load average before the end: {os.getloadavg()[0]:.1f}")
    if not args.keep:
        shutil.rmtree(work, ignore_errors=True)
    if over:
        sys.exit(f"over budget: {', '.join(over)}")


if __name__ == "__main__":
    main()
