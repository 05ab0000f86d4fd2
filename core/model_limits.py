"""Sizes and labels a model folder may hold, checked before any weight is allocated.

A model folder is data (``synthdeid.model_files``), and its settings say how much memory loading
takes: ``hidden_size: 1000000000000`` in a ``tagger.json`` or ``config.json`` would have torch
try to allocate terabytes (or build layers for hours). Each size must be a whole number within
``LIMITS`` (far above any model synthdeid trains or a workplace runs on a CPU), and the network the
settings describe may not hold more weights than its safetensors file stores (``fits``: counted
on torch's ``meta`` device, which allocates nothing). Tag lists must be BIO tags with ``O``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from synthdeid.errors import InputError

if TYPE_CHECKING:
    import torch

LIMITS = {"width": 65_536, "layers": 256, "vocab": 4_194_304, "positions": 1_048_576}
"""The largest size of each kind a model folder may give: widths (embedding, hidden, filter
sizes, a LoRA rank), layers, vocabulary entries, positions."""
HF_KEYS = {
    **dict.fromkeys(
        ("hidden_size", "intermediate_size", "embedding_size", "num_attention_heads", "n_embd", "n_head", "n_inner"),
        "width",
    ),
    **dict.fromkeys(("num_hidden_layers", "n_layer", "num_layers"), "layers"),
    **dict.fromkeys(("vocab_size", "type_vocab_size", "num_labels"), "vocab"),
    **dict.fromkeys(("max_position_embeddings", "n_positions", "n_ctx"), "positions"),
}
"""The sizes of a transformers ``config.json`` that decide its memory, by kind."""


def check_sizes(values: Mapping[str, Any], kinds: Mapping[str, str], path: Path, fix: str) -> None:
    """Refuse a size in ``values`` (named in ``kinds``, by kind) that is not a whole number from 0
    to its kind's limit; a missing or null one is left to the loader."""
    for key, kind in kinds.items():
        value = values.get(key)
        if value is None:
            continue
        limit = LIMITS[kind]
        if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= limit:
            raise InputError(
                f"sets {key} to {value!r}; a model this version loads takes a whole number from 0 to {limit:,}",
                path=path,
                fix=fix,
            )


def fits(build: Callable[[], torch.nn.Module], stored: int, described: Path, fix: str, names: str) -> None:
    """Refuse the settings in ``described`` when the network ``build`` makes from them holds more
    weights than ``stored``, the count its weights files ``names`` hold (``model_files.stored_weights``);
    built on the ``meta`` device: no memory."""
    import torch

    with torch.device("meta"):
        needed = sum(p.numel() for p in build().parameters())  # tied weights once, as stored
    if needed > stored:
        raise InputError(
            f"describes a network of {needed:,} weights, but {names} stores {stored:,}: not built",
            path=described,
            fix=fix,
        )


def bio_tags(tags: Sequence[Any], path: Path, fix: str) -> None:
    """Refuse a tag list that is no BIO tag set: ``O`` once, then ``B-X`` and ``I-X`` tags, none
    twice (a tagger without ``O`` would tag every word as PHI, or fail)."""
    problem = None
    seen = [t for t in tags if isinstance(t, str)]
    doubled = sorted({t for t in seen if seen.count(t) > 1})
    odd = [t for t in tags if not isinstance(t, str) or (t != "O" and (t[:2] not in ("B-", "I-") or len(t) < 3))]
    if "O" not in tags:
        problem = "has no 'O' tag (outside any PHI)"
    elif doubled:
        problem = f"lists the tag(s) {', '.join(map(repr, doubled))} more than once"
    elif odd:
        problem = f"holds tags that are not BIO tags (O, B-LABEL, I-LABEL): {', '.join(map(repr, odd[:5]))}"
    if problem:
        raise InputError(f"{problem}: the tagger's labels cannot be decoded", path=path, fix=fix)
