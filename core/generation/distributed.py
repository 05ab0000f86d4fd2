"""Data-parallel training across processes started by ``torchrun`` (one per GPU, or several CPU
processes with the gloo backend).

A stage launched as ``torchrun --nproc_per_node N -m synthdeid.stages.train_lm NAME`` runs in N
processes; ``torchrun`` sets ``RANK``, ``WORLD_SIZE`` and ``LOCAL_RANK``. Every process builds the
same model from the same seed; each optimizer step, each process computes the gradient of its
share of the batch (``shard``) scaled so that the shares add up to the full batch's mean loss, and
``sum_gradients`` adds them across processes. Every process therefore takes the same step as one
process would on the whole batch, and only the main process (rank 0) writes files. Without
``torchrun`` (``WORLD_SIZE`` unset or 1) every function here is a no-op.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any, TypeVar

T = TypeVar("T")

DEVICE_HELP = "auto (this process's GPU when CUDA is available, else the CPU), cpu, cuda or cuda:N"


def valid_device(setting: str) -> bool:
    """Whether ``setting`` is a device setting a model plugin accepts (``DEVICE_HELP``)."""
    return isinstance(setting, str) and (
        setting in ("auto", "cpu", "cuda") or (setting.startswith("cuda:") and setting[5:].isdigit())
    )


def torch_device(setting: str) -> Any:
    """The ``torch.device`` of a plugin's ``device`` setting. ``auto`` and ``cuda`` mean this
    process's GPU (under torchrun, the one ``init`` chose from ``LOCAL_RANK``); a CUDA setting on
    a machine without CUDA is an error that says so."""
    import torch

    from synthdeid.errors import SynthdeidError

    if setting == "cpu" or (setting == "auto" and not torch.cuda.is_available()):
        return torch.device("cpu")
    if not torch.cuda.is_available():
        raise SynthdeidError(
            f"device {setting!r}: this machine has no CUDA GPU (torch.cuda.is_available() is "
            "false); set device: auto or cpu"
        )
    return torch.device(setting) if setting.startswith("cuda:") else torch.device("cuda", torch.cuda.current_device())


def world_size() -> int:
    """How many processes train together (``WORLD_SIZE`` under ``torchrun``; 1 otherwise)."""
    return int(os.environ.get("WORLD_SIZE", "1"))


def rank() -> int:
    return int(os.environ.get("RANK", "0"))


def is_main() -> bool:
    """Whether this process writes outputs (always, without torchrun)."""
    return rank() == 0


def init() -> None:
    """Join the process group of a torchrun launch (nccl on CUDA, gloo otherwise); each process
    uses the GPU of its ``LOCAL_RANK``."""
    if world_size() <= 1:
        return
    import torch
    import torch.distributed as dist

    if dist.is_initialized():
        return
    if torch.cuda.is_available():
        torch.cuda.set_device(int(os.environ.get("LOCAL_RANK", "0")))
    dist.init_process_group("nccl" if torch.cuda.is_available() else "gloo")


def shard(items: Sequence[T]) -> list[T]:
    """This process's share of a batch: every ``world_size()``-th item from its rank."""
    return list(items[rank() :: world_size()])


def all_sum(value: float) -> float:
    """``value`` summed over the processes."""
    if world_size() <= 1:
        return value
    import torch
    import torch.distributed as dist

    t = torch.tensor([float(value)], dtype=torch.float64, device=_device())
    dist.all_reduce(t)
    return float(t.item())


def sum_gradients(params: Iterable[Any]) -> None:
    """Add every trainable parameter's gradient across the processes (a process whose share was
    empty contributes zeros)."""
    if world_size() <= 1:
        return
    import torch
    import torch.distributed as dist

    for p in params:
        if p.requires_grad:
            if p.grad is None:
                p.grad = torch.zeros_like(p)
            dist.all_reduce(p.grad)


def broadcast(obj: T) -> T:
    """The main process's ``obj`` on every process (e.g. the checkpoint it resumes from)."""
    if world_size() <= 1:
        return obj
    import torch.distributed as dist

    box = [obj if is_main() else None]
    dist.broadcast_object_list(box, src=0, device=_device())
    return box[0]  # type: ignore[return-value]


def _device() -> Any:
    import torch
    import torch.distributed as dist

    return torch.device("cuda", torch.cuda.current_device()) if dist.get_backend() == "nccl" else torch.device("cpu")


def output_dir(path: Path) -> Path:
    """Where this process writes a stage's model: ``path`` for the main process, a fresh
    temporary folder for the others (their weights are the same; only one copy is kept)."""
    if is_main():
        return path
    import tempfile

    return Path(tempfile.mkdtemp(prefix=f"synthdeid-rank{rank()}-"))
