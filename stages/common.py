"""What every stage shares: turning synthdeid errors into a clear exit."""

from __future__ import annotations

import functools
import gc
import sys
from collections.abc import Callable
from pathlib import Path

from synthdeid.errors import SynthdeidError
from synthdeid.spec import Study, load_study

_STUDY: list[Study] = []


def study() -> Study:
    """params.yaml as the study spec, read and checked once per process (``load_study``): a stage
    refuses exactly what ``synthdeid check`` refuses, with the same message."""
    if not _STUDY:
        _STUDY.append(load_study())
    return _STUDY[0]


def empty_on_purpose(path: str, why: str) -> None:
    """Say that the output ``path`` is empty by design, before DVC warns "'PATH' is empty."."""
    print(f"note: {path} is empty on purpose ({why}); DVC's warning that it is empty is expected")


def stage_main(fn: Callable[[], None]) -> Callable[[], None]:
    """Run a stage; a SynthdeidError prints its message (file, line, fix) and exits with 1. The
    stage module's ``METRICS`` file (when it is one fixed path) is removed before the stage runs.

    Once the stage is done, its objects are frozen out of the cyclic GC: the interpreter's exit
    would otherwise walk every torch/flair object again (0.3-0.9 s a stage, about 20 s of a
    44-stage smoke run)."""

    @functools.wraps(fn)
    def run() -> None:
        metrics = fn.__globals__.get("METRICS")
        if isinstance(metrics, str) and "{" not in metrics:
            # a stage that fails (or is killed) must not leave the last run's figures looking current
            # (dvc repro removes every output first; this covers `python -m synthdeid.stages.NAME`)
            Path(metrics).unlink(missing_ok=True)
        _STUDY.clear()  # read params.yaml afresh for each run (tests run several stages in one process)
        try:
            study()  # every mistake in params.yaml stops the stage before it reads or writes anything
            fn()
        except SynthdeidError as e:
            print(f"error: {e}", file=sys.stderr)
            sys.exit(1)
        gc.freeze()

    return run
