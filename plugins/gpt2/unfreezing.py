"""Gradual unfreezing with discriminative learning rates (Libbi et al. 2021, Table A1; fastai's
``fit_one_cycle`` per stage).

GPT-2 is split into layer groups: the decoder blocks in equal consecutive groups (bottom
first), then the top group of vocabulary and position embeddings and the final LayerNorm (the
tied output head). Stage ``k`` trains the top ``k + 1`` groups; a group ``d`` groups below the
top learns at ``lr / lr_decay**d``.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from synthdeid.toolkit import LMStage as Stage

_BLOCK = re.compile(r"(?:^|\.)h\.(\d+)\.")


def layer_groups(model: Any, n_groups: int) -> list[list[str]]:
    """Parameter names per layer group, bottom group first; the last is the top group."""
    n_layer = model.config.n_layer
    blocks = n_groups - 1
    groups: list[list[str]] = [[] for _ in range(n_groups)]
    for name, _ in model.named_parameters():
        m = _BLOCK.search(name)
        groups[int(m.group(1)) * blocks // n_layer if m else blocks].append(name)
    return groups


def unfreezing_stages(model: Any, epochs: Sequence[int], lrs: Sequence[float], lr_decay: float) -> list[Stage]:
    """One stage per entry of ``epochs``/``lrs``, each unfreezing one more group from the top."""
    groups = layer_groups(model, len(epochs))
    top = len(groups) - 1
    stages = []
    for k, (n_epochs, lr) in enumerate(zip(epochs, lrs)):
        trained = [(tuple(groups[g]), lr / lr_decay ** (top - g)) for g in range(top - k, top + 1) if groups[g]]
        stages.append(Stage(int(n_epochs), tuple(trained)))
    return stages
