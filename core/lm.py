"""What generator plugins provide: training on inline-tag text, and a trained model that the
shared decoding loop (``synthdeid.generate``) drives one token at a time.

A generator plugin's factory (``register_generators``) takes its config mapping and returns a
``Generator``. ``Generator.train`` writes a model directory (checkpoints, vocabulary, the resolved
config); ``Generator.load`` reads it back as an ``AutoregressiveLM`` (LSTM, GPT-2, causal LMs) or
any object with its own ``generate_corpus`` method (masked-LM refill), which the generate stage
calls instead of the shared loop.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

from .errors import InputError

if TYPE_CHECKING:
    import torch


def uses_tags(spec: Mapping[str, Any], name: str) -> bool:
    """Whether the generator ``generators.NAME`` (its params ``spec``) learns the inline PHI tags
    (``tags: true``, the default) or plain text (``tags: false``: the machine-annotation route,
    where a tagger annotates the generated notes afterwards)."""
    tags = spec.get("tags", True)
    if not isinstance(tags, bool):
        raise InputError(f"generators.{name}.tags must be true or false, not {tags!r}", path="params.yaml",
                         fix="true: the generator learns the inline PHI tags; false: untagged text "
                         "(annotate its corpus with a machine_annotated entry)")
    return tags


@dataclass(frozen=True)
class TrainingData:
    """The language-model text: one note per line, inline tags, ``<PAR>``, ending in ``<EOD>``."""

    train: list[str]
    dev: list[str]
    special_tokens: list[str]
    """Tag tokens, ``<PAR>`` and ``<EOD>``: a tokenizer must keep each of them whole."""
    seed: int = 0
    pretokenized: bool = True
    """True when tokens are separated by single spaces (the ``inline`` stage's default)."""
    extra: dict[str, Any] = field(default_factory=dict)
    """``train_ids`` / ``dev_ids``: the document id of each line."""


class Generator(Protocol):
    """A kind of language model, configured from params."""

    name: str

    def train(self, data: TrainingData, out_dir: Path) -> dict[str, Any]:
        """Train (resuming from a checkpoint in ``out_dir`` when one is there); returns metrics
        such as validation loss and perplexity, which the stage writes to its metrics JSON."""
        ...

    def load(self, out_dir: Path) -> Any:
        """The trained model in ``out_dir``: an ``AutoregressiveLM``, or an object with
        ``generate_corpus(decoder, prompts, settings, target_tokens, seed, progress=None)``
        returning (source, inline text) pairs like ``synthdeid.generate.generate_corpus``."""
        ...


@runtime_checkable
class AutoregressiveLM(Protocol):
    """A trained left-to-right model, driven step by step by the shared decoding loop.

    ``State`` is whatever the model needs between steps (LSTM hidden state, transformer KV
    cache, attention mask); it has one row per sequence in the batch.
    """

    vocab: list[str]
    """Token strings by id. Every special token (tags, ``<PAR>``, ``<EOD>``) is one id whose string
    is exactly the token, so decoders can find and mask them."""
    eod_id: int

    def encode(self, text: str) -> list[int]:
        """Token ids of a prompt (inline-tag text)."""
        ...

    def decode(self, ids: list[int]) -> str:
        """Inline-tag text for generated ids (special tokens separated by spaces)."""
        ...

    def start(self, prompts: list[list[int]]) -> tuple[Any, torch.Tensor]:
        """Run the prompts (of different lengths) as a batch; returns the state and the
        next-token logits ``[batch, vocab]`` (float32)."""
        ...

    def step(self, state: Any, tokens: torch.Tensor) -> tuple[Any, torch.Tensor]:
        """Feed one chosen token per row ``[batch]``; returns the new state and next logits."""
        ...

    def select(self, state: Any, rows: torch.Tensor) -> Any:
        """The state restricted to (or reordered by) ``rows``: for dropping finished sequences
        and for beam search."""
        ...
