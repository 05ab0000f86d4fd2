"""Loading never unpickles what a shared DVC remote could have replaced: every checkpoint we
write is read with ``torch.load(weights_only=True)`` (or is safetensors), and DVC neither
phones home nor checks for updates."""

from __future__ import annotations

import configparser
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CALL = re.compile(r"torch\.load\(([^()]*(?:\([^()]*\)[^()]*)*)\)")


def test_every_torch_load_is_weights_only() -> None:
    calls = []
    for folder in ("core", "plugins", "stages", "bench"):
        for path in (ROOT / folder).rglob("*.py"):
            for m in CALL.finditer(path.read_text(encoding="utf-8")):
                calls.append((path.relative_to(ROOT), m.group(1)))
    assert len(calls) >= 4  # the LSTM, mlm_fill, hf_lm and DP checkpoints
    assert [(str(p), args) for p, args in calls if "weights_only=True" not in args] == []


def test_dvc_config_turns_off_analytics_and_update_checks() -> None:
    config = configparser.ConfigParser()
    config.read(ROOT / ".dvc" / "config")
    assert config["core"]["analytics"] == "false"
    assert config["core"]["check_update"] == "false"
