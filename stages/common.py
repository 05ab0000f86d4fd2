"""What every stage shares: split file names and turning synthdeid errors into a clear exit."""

from __future__ import annotations

import functools
import sys
from collections.abc import Callable

from synthdeid.errors import SynthdeidError

LM_SPLITS = ("train", "dev")
"""The splits a language model learns from (train) and is validated and prompted on (dev)."""


def stage_main(fn: Callable[[], None]) -> Callable[[], None]:
    """Run a stage; a SynthdeidError prints its message (file, line, fix) and exits with 1."""

    @functools.wraps(fn)
    def run() -> None:
        try:
            fn()
        except SynthdeidError as e:
            print(f"error: {e}", file=sys.stderr)
            sys.exit(1)

    return run

