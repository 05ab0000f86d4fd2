"""Torch threads for a command that shares its machine.

OpenMP threads that wait spin on their core by default: beside one other CPU-bound job, a
two-thread tagger ran 9x slower instead of about 2x. ``passive_waits()`` (called by the CLI before
torch loads) makes waiting threads sleep; ``use_threads(n)`` sets torch's intra-op threads."""

from __future__ import annotations

import os

WAIT_POLICY = "OMP_WAIT_POLICY"


def passive_waits() -> None:
    """Waiting OpenMP threads sleep instead of spinning (unless the user set a policy). Takes
    effect only before torch is imported: OpenMP reads it once."""
    os.environ.setdefault(WAIT_POLICY, "PASSIVE")


def default_threads() -> int:
    """The cores this process may run on."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not on Linux
        return max(1, os.cpu_count() or 1)


def use_threads(n: int) -> None:
    """Torch's intra-op threads (``--threads``), also a cap on what a loaded tagger's saved
    config asks for; at least one."""
    if n < 1:
        from synthdeid.errors import InputError

        raise InputError(f"--threads {n}: at least one thread is needed", fix="e.g. --threads 2")
    import torch

    from synthdeid.tagging.runtime import limit_threads

    torch.set_num_threads(n)
    limit_threads(n)
