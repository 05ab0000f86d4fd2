"""The ``mlm_fill`` generator: train the masked LM, and load it with its source notes."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from synthdeid import InputError
from synthdeid.api import TrainingData
from synthdeid.toolkit import read_jsonl

from .config import MLMFillConfig
from .fill import MLMFillModel
from .model import load_model, load_tokenizer
from .train import CONFIG, NOTES, train_mlm


class MLMFillGenerator:
    """Masked-LM refill of real (pseudonymized) notes."""

    name = "mlm_fill"

    def __init__(self, config: MLMFillConfig) -> None:
        self.config = config

    def train(self, data: TrainingData, out_dir: Path) -> dict[str, Any]:
        """Train the masked LM (resuming from ``out_dir``'s checkpoint); returns the metrics."""
        return train_mlm(self.config, data, Path(out_dir))

    def load(self, out_dir: Path) -> MLMFillModel:
        """The trained model; generation settings (``mask_ratio``, ``fill``, ``threads``) come from
        this generator's config, so changing them needs no retraining."""
        out = Path(out_dir)
        if not (out / CONFIG).exists():
            raise InputError(
                "no trained mlm_fill model here",
                path=out,
                fix="run the train_lm stage for mlm_fill first (it writes mlm_fill.json)",
            )
        saved = json.loads((out / CONFIG).read_text(encoding="utf-8"))
        model = load_model(out / "model")
        tokenizer = load_tokenizer(out / "tokenizer")
        notes = list(read_jsonl(out / NOTES))
        return MLMFillModel(model, tokenizer, notes, self.config, int(saved["window"]))
