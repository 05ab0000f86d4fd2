"""``bench/privacy.py --scale paper`` smoke run on a small real side: every metric runs in its own
process, the planted copies are found, and sharding the synthetic notes over two forked workers
gives the same best matches as one process."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def run(tmp_path: Path, workers: int) -> dict:
    out = tmp_path / f"r{workers}.json"
    subprocess.run(
        [
            sys.executable,
            str(ROOT / "bench" / "privacy.py"),
            "--scale",
            "paper",
            "--real-tokens",
            "60000",
            "--synthetic-tokens",
            "12000",
            "--workers",
            str(workers),
            "--json",
            str(out),
        ],
        capture_output=True,
        text=True,
        check=True,
        cwd=tmp_path,
    )
    return json.loads(out.read_text())


def test_paper_scale_bench_smoke(tmp_path: Path) -> None:
    one, two = run(tmp_path, 1), run(tmp_path, 2)
    sizes = two["sizes"]
    assert sizes["real_tokens"] >= 60000 and sizes["synthetic_tokens"] >= 12000
    whole_copies = (sizes["synthetic_notes"] + 49) // 50  # every 50th synthetic note is a real note
    assert two["leakage"]["result"]["exact_duplicates"] == whole_copies
    assert two["rouge3"]["result"]["copies_found"] >= whole_copies and two["rouge3"]["result"]["recall_max"] == 1.0
    assert two["leakage"]["result"]["longest_run_max"] > 10
    assert 0 < two["ngram_recall"]["result"]["n3"]["recall"] < 1
    for step in ("rouge3", "rouge5", "bm25"):
        assert one[step]["result"]["best"] == two[step]["result"]["best"]
    assert all(two[s]["seconds"] > 0 and two[s]["peak_mb"] > 0 for s in ("rouge3", "bm25", "leakage"))
