"""The ``lstm`` generator: a word-level LSTM language model trained from scratch on inline-tag
text (Libbi et al. 2021, section 3.3.1; Melamud & Shivade 2019). Settings: ``LSTMConfig``
(``preset: paper`` for the paper's configuration).

The model code (``sampler``, ``train``: torch) is imported when a generator trains or loads, not
when the plugin registers."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from synthdeid import hookimpl
from synthdeid.api import RegisterGenerator, TrainingData
from synthdeid.toolkit import lazy_exports

from .config import LSTMConfig
from .vocab import UNK, Vocab

if TYPE_CHECKING:
    from .sampler import LSTMSampler

__getattr__ = lazy_exports(
    __name__, {"LSTMSampler": ".sampler", "load": ".sampler", "next_lr": ".train", "train_lstm": ".train"}
)

__all__ = ["UNK", "LSTMConfig", "LSTMGenerator", "LSTMSampler", "Vocab", "next_lr"]


@dataclass(frozen=True)
class LSTMGenerator:
    """Trains an LSTM in a model directory and loads it back as an ``AutoregressiveLM``."""

    config: LSTMConfig
    name: str = "lstm"

    def train(self, data: TrainingData, out_dir: Path) -> dict[str, Any]:
        """Train, resuming from ``out_dir/checkpoint.pt`` when there is one; returns the metrics."""
        from .train import train_lstm

        return train_lstm(self.config, data, Path(out_dir))

    def load(self, out_dir: Path) -> LSTMSampler:
        """The best model in ``out_dir`` (with this config's thread count)."""
        from .sampler import load

        return load(Path(out_dir), threads=self.config.threads)

    def anonymize_vocab(self, model_dir: Path, tokens: set[str], seed: int) -> int:
        """Replace ``tokens`` in the trained vocabulary by random ``<unk_N>`` strings (``VocabAnonymizer``)."""
        from .anonymize import replace_tokens

        return replace_tokens(Path(model_dir), tokens, seed)


def create(config: LSTMConfig) -> LSTMGenerator:
    """The factory registered as ``lstm``: its settings built (and checked) by the registry or the study spec."""
    return LSTMGenerator(config)


@hookimpl
def register_generators(register: RegisterGenerator) -> None:
    register("lstm", create, config=LSTMConfig)  # checked without importing torch
