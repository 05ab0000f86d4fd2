"""Keep freed memory in the process: glibc's malloc hands large blocks back to the system and
maps them in again on the next step, and a torch training loop that frees and allocates the same
few megabytes every step pays a page fault for every page of them. Raising the thresholds keeps
those blocks for reuse (the demo's tagger trains about 1.15x faster; ``bench/allocator.py``);
results are unchanged, memory is only reused. Elsewhere than glibc it does nothing."""

from __future__ import annotations

import ctypes

M_TRIM_THRESHOLD = -1
M_MMAP_THRESHOLD = -3
MMAP_THRESHOLD = 32 << 20
"""Blocks up to 32 MiB (glibc's maximum on 64-bit) come from the heap instead of ``mmap``."""
TRIM_THRESHOLD = 1 << 30
"""Up to 1 GiB of free memory at the top of the heap stays with the process."""


def keep_freed_memory() -> bool:
    """Set glibc's mmap and trim thresholds; True when they were set (False off glibc)."""
    try:
        libc = ctypes.CDLL("libc.so.6")
        mallopt = libc.mallopt
    except (OSError, AttributeError):
        return False
    return bool(mallopt(M_MMAP_THRESHOLD, MMAP_THRESHOLD)) and bool(mallopt(M_TRIM_THRESHOLD, TRIM_THRESHOLD))
