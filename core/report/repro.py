"""After ``make demo``: did this machine reproduce the committed results byte for byte?

Compares every stage's output hashes in the working ``dvc.lock`` with the committed one
(``git show HEAD:dvc.lock``) and says which stages came out different. On the machine that made
the commit a rerun is byte-identical; another CPU may compute floating-point sums in another
order (its own vector kernels in torch, oneDNN and MKL), so its trained models, and everything
downstream of them, differ in the last digits (README: "What reproduces where").

``python -m synthdeid.report.repro`` prints the summary; it never fails the build.
"""

from __future__ import annotations

import platform
import subprocess
import sys
from pathlib import Path
from typing import Any

import yaml


def output_hashes(lock: dict[str, Any]) -> dict[str, dict[str, str]]:
    """Stage name -> {output path: hash} of a parsed ``dvc.lock``."""
    stages = lock.get("stages") or {}
    return {
        name: {o["path"]: str(o.get("md5") or o.get("hash") or "") for o in stage.get("outs") or []}
        for name, stage in stages.items()
    }


def differing_stages(committed: dict[str, Any], current: dict[str, Any]) -> list[str]:
    """Stages whose outputs (or presence) differ between two parsed lock files, sorted."""
    old, new = output_hashes(committed), output_hashes(current)
    return sorted(name for name in old.keys() | new.keys() if old.get(name) != new.get(name))


def cpu_description() -> str:
    model = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    try:
        import torch

        return f"{model}, torch {torch.__version__} kernels {torch.backends.cpu.get_cpu_capability()}"
    except ImportError:
        return model


def main(lock_path: str = "dvc.lock") -> int:
    try:
        committed_text = subprocess.run(
            ["git", "show", f"HEAD:{lock_path}"], capture_output=True, text=True, check=True
        ).stdout
    except (OSError, subprocess.CalledProcessError):
        print("repro report: no committed dvc.lock to compare with (not a git checkout?)")
        return 0
    committed = yaml.safe_load(committed_text) or {}
    current = yaml.safe_load(Path(lock_path).read_text(encoding="utf-8")) or {}
    differ = differing_stages(committed, current)
    total = len(output_hashes(committed))
    print(f"repro report ({cpu_description()}):")
    if not differ:
        print(f"  all {total} stages' outputs are byte-identical to the committed dvc.lock")
    else:
        print(
            f"  {len(differ)} of {total} stages' outputs differ from the committed dvc.lock: "
            + ", ".join(differ[:12])
            + (" ..." if len(differ) > 12 else "")
        )
        print(
            "  expected on another CPU: floating-point results depend on the machine's vector kernels "
            '(README: "What reproduces where"); `git diff --stat data/metrics` shows which figures moved'
        )
    return 0


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:]))
