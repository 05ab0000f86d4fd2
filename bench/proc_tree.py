"""CPU time and peak memory of a process tree, sampled from /proc (Linux), attributed to a label.

``TreeSampler(root_pid)`` polls every ``interval`` seconds in a thread: every descendant of the
root is charged to the label current when it was first seen (``sampler.label = "train_lm@lstm"``),
with its CPU seconds (utime + stime) and its peak resident set (``VmHWM``), the largest read. The root
itself (DVC, hashing and bookkeeping) is charged to ``"<root>"``. A process that lives less than
one interval may be missed and the last interval of each process is lost (at most ``interval``
seconds of CPU per process), which is why the figures are per stage, not per call.
"""

from __future__ import annotations

import os
import threading
from dataclasses import dataclass, field
from pathlib import Path

TICKS = os.sysconf("SC_CLK_TCK")


@dataclass
class Usage:
    cpu_seconds: float = 0.0
    peak_rss_gb: float = 0.0
    processes: int = 0


@dataclass
class TreeSampler:
    root: int
    interval: float = 0.25
    label: str = "<setup>"
    _seen: dict[int, tuple[str, float, float]] = field(default_factory=dict)  # pid -> (label, cpu s, hwm GB)
    _stop: threading.Event = field(default_factory=threading.Event)
    _thread: threading.Thread | None = None

    def start(self) -> TreeSampler:
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join()
        self._sample()

    def usage(self) -> dict[str, Usage]:
        out: dict[str, Usage] = {}
        for label, cpu, hwm in self._seen.values():
            u = out.setdefault(label, Usage())
            u.cpu_seconds += cpu
            u.peak_rss_gb = max(u.peak_rss_gb, hwm)
            u.processes += 1
        return out

    def _run(self) -> None:
        while not self._stop.wait(self.interval):
            self._sample()

    def _sample(self) -> None:
        parents: dict[int, int] = {}
        for entry in Path("/proc").iterdir():
            if entry.name.isdigit():
                stat = _read(entry / "stat")
                if stat:
                    parents[int(entry.name)] = int(stat.rsplit(")", 1)[1].split()[1])
        tree, frontier = {self.root}, [self.root]
        while frontier:
            parent = frontier.pop()
            for pid, ppid in parents.items():
                if ppid == parent and pid not in tree:
                    tree.add(pid)
                    frontier.append(pid)
        for pid in tree:
            stat, status = _read(Path(f"/proc/{pid}/stat")), _read(Path(f"/proc/{pid}/status"))
            if not stat or not status:
                continue
            fields = stat.rsplit(")", 1)[1].split()
            cpu = (int(fields[11]) + int(fields[12])) / TICKS  # utime, stime (fields 14, 15 of stat)
            hwm = next((int(line.split()[1]) for line in status.splitlines() if line.startswith("VmHWM:")), 0)
            label, cpu_before, hwm_before = self._seen.get(pid, (self.label, 0.0, 0.0))
            if pid == self.root:
                label = "<root>"
            # the largest reading: an exiting process's status has no VmHWM line any more
            self._seen[pid] = (label, max(cpu, cpu_before), max(hwm / 1024**2, hwm_before))


def _read(path: Path) -> str:
    try:
        return path.read_text()
    except OSError:
        return ""
