"""Mixed precision for training on the CPU: the ``precision`` setting of the torch models.

``fp32`` computes everything in float32. ``bf16`` runs matrix products and recurrent layers in
bfloat16 under ``torch.autocast`` (weights, optimizer, losses and gradients stay float32): on an
AMD EPYC with AVX512-BF16, the demo's tagger trained 1.2x, GPT-2 1.4x and the LSTM 1.6x faster
(docs/benchmarks.md); on a CPU without bfloat16 instructions (AVX512-BF16 or AMX) it is slower.
``auto`` picks ``bf16`` when oneDNN reports such a CPU, else ``fp32``, so the same params train
in float32 on a CPU without them and in bfloat16 on one with them: results then differ by
machine, as float32 results already do across CPUs. The choice is recorded in the model's metrics.
"""

from __future__ import annotations

import contextlib
import functools

PRECISIONS: tuple[str, ...] = ("auto", "fp32", "bf16")


@functools.cache
def cpu_has_bf16() -> bool:
    """Whether oneDNN runs bfloat16 natively on this CPU (AVX512-BF16 or AMX)."""
    import torch

    try:
        return bool(torch.backends.mkldnn.is_available() and torch.ops.mkldnn._is_mkldnn_bf16_supported())
    except (AttributeError, RuntimeError):  # an older or a non-oneDNN build
        return False


def resolve(precision: str) -> str:
    """``auto`` -> ``bf16`` on a CPU with bfloat16 instructions, else ``fp32``; others unchanged."""
    if precision not in PRECISIONS:
        raise ValueError(f"precision must be one of {', '.join(PRECISIONS)}, got {precision!r}")
    if precision == "auto":
        return "bf16" if cpu_has_bf16() else "fp32"
    return precision


def autocast(precision: str) -> contextlib.AbstractContextManager[object]:
    """The block's CPU autocast for a resolved ``precision`` (``fp32``: no autocast)."""
    import torch  # here, not at the top: the plugins' configs import PRECISIONS without torch

    if resolve(precision) == "bf16":
        return torch.autocast("cpu", dtype=torch.bfloat16)
    return contextlib.nullcontext()
