"""Progress bars: rich on a terminal, silent in CI and logs."""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from typing import TypeVar

T = TypeVar("T")


def interactive() -> bool:
    """Whether progress bars show: stderr is a terminal and ``CI`` is not set."""
    return sys.stderr.isatty() and not os.environ.get("CI")


def track(items: Iterable[T], description: str, total: int | None = None) -> Iterator[T]:
    """Iterate ``items`` with a rich progress bar when a person is watching."""
    if not interactive():
        yield from items
        return
    from rich.progress import track as rich_track

    yield from rich_track(items, description=description, total=total, transient=True, console=None)


@contextmanager
def counter(description: str, total: int | None) -> Iterator[Callable[[int], None]]:
    """A progress bar advanced by the callable it yields (``advance(n)``); a no-op when no one
    is watching."""
    if not interactive():
        yield lambda n: None
        return
    from rich.progress import Progress

    with Progress(transient=True) as bar:
        task = bar.add_task(description, total=total)
        yield lambda n: bar.advance(task, n)
