"""The ``mlm_fill`` generator (Belkadi et al. 2024, "Generating synthetic free-text medical records
with low re-identification risk using masked language modeling").

Instead of writing notes left to right, it takes the pseudonymized training notes, masks every PHI
word and a share (``mask_ratio``) of the other words, and refills the masks with a masked LM trained
on those notes. The PHI spans stay annotated by construction: their positions are known.

``train`` trains (or fine-tunes, with ``pretrained``) the masked LM and stores the source notes;
``load`` returns an ``MLMFillModel`` whose ``generate_corpus`` has the contract of
``synthdeid.generate.generate_corpus``; the sampling decoders' ``choose`` picks the refills.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from synthdeid import InputError, hookimpl
from synthdeid.config import from_mapping
from synthdeid.formats.jsonl import read_jsonl
from synthdeid.lm import TrainingData

from .config import MLMFillConfig
from .fill import MLMFillModel
from .model import load_model, load_tokenizer
from .train import CONFIG, NOTES, train_mlm

__all__ = ["MLMFillConfig", "MLMFillGenerator", "MLMFillModel"]


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
            raise InputError("no trained mlm_fill model here", path=out,
                             fix="run the train_lm stage for mlm_fill first (it writes mlm_fill.json)")
        saved = json.loads((out / CONFIG).read_text(encoding="utf-8"))
        model = load_model(out / "model")
        tokenizer = load_tokenizer(out / "tokenizer")
        notes = list(read_jsonl(out / NOTES))
        return MLMFillModel(model, tokenizer, notes, self.config, int(saved["window"]))


def create(config: dict[str, Any]) -> MLMFillGenerator:
    """The factory registered as ``mlm_fill``."""
    return MLMFillGenerator(from_mapping(MLMFillConfig, config, "generator 'mlm_fill'"))


@hookimpl
def register_generators(register: Any) -> None:
    register("mlm_fill", create)
