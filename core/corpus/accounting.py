"""Stage accounting: every stage reports in = out + rejected, with a reason for each rejection."""

from __future__ import annotations

import json
import os
from collections import Counter
from pathlib import Path
from typing import Any

from synthdeid.errors import SynthdeidError


class Counts:
    """Documents into a stage, out of it, and rejected (by reason)."""

    def __init__(self, stage: str) -> None:
        self.stage = stage
        self.n_in = 0
        self.n_out = 0
        self.rejected: Counter[str] = Counter()
        self.extra: dict[str, Any] = {}

    def took(self, n: int = 1) -> None:
        self.n_in += n

    def kept(self, n: int = 1) -> None:
        self.n_out += n

    def reject(self, reason: str, n: int = 1) -> None:
        self.rejected[reason] += n

    def as_dict(self) -> dict[str, Any]:
        n_rej = sum(self.rejected.values())
        if self.n_in != self.n_out + n_rej:
            raise SynthdeidError(
                f"stage {self.stage}: {self.n_in} documents in but {self.n_out} out and {n_rej} "
                "rejected; a document went missing (this is a bug in the stage)"
            )
        return {
            "documents_in": self.n_in,
            "documents_out": self.n_out,
            "documents_rejected": n_rej,
            "rejected_reasons": dict(sorted(self.rejected.items())),
            **self.extra,
        }

    def write(self, path: str | Path) -> dict[str, Any]:
        data = self.as_dict()
        write_json(data, path)
        return data


def write_json(data: Any, path: str | Path) -> None:
    """Byte-stable JSON (sorted keys, trailing newline), creating the folder; written to a
    temporary file and renamed, so an interrupted write never leaves half a file."""
    p = Path(path)
    p.parent.mkdir(parents=True, exist_ok=True)
    tmp = p.with_name(f".{p.name}.tmp")
    tmp.write_text(json.dumps(data, indent=2, sort_keys=True, ensure_ascii=False) + "\n", encoding="utf-8")
    os.replace(tmp, p)


def read_json(path: str | Path) -> Any:
    """The JSON a stage wrote to ``path``; a missing file names the path and the fix."""
    try:
        return json.loads(Path(path).read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise SynthdeidError(f"{path} is missing: run `dvc repro` to make it (an earlier stage writes it)") from None


_TIMING = ("_per_s", "seconds", "_time", "per_second")


def split_timing(metrics: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    """Metrics without wall-clock figures (those vary run to run and would break byte-identical
    outputs), and the wall-clock figures alone, for the log."""
    timing = {k: v for k, v in metrics.items() if any(k.endswith(t) for t in _TIMING)}
    return {k: v for k, v in metrics.items() if k not in timing}, timing
