"""Vocabulary adaptation of a pretrained GPT-2 (Libbi et al. 2021, section 3.3.2 and Appendix A):
a BPE trained on the corpus replaces the original vocabulary; embeddings of tokens the two
vocabularies share are copied, new tokens start at the mean of the original embeddings, and
the output head stays tied to the input embeddings."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import torch


def transfer_embeddings(
    model: Any, old_tokenizer: Any, new_tokenizer: Any, aliases: Mapping[str, str] | None = None
) -> dict[str, int]:
    """Resize ``model`` to ``new_tokenizer`` and initialise its embedding rows in place.

    ``aliases`` maps a new token to an old one whose embedding it inherits (``<EOD>`` takes over
    GPT-2's ``<|endoftext|>``). Returns the number of copied and of mean-initialised rows."""
    old_vocab: dict[str, int] = old_tokenizer.get_vocab()
    new_vocab: dict[str, int] = new_tokenizer.get_vocab()
    old = model.get_input_embeddings().weight.detach().clone()
    mean = old.mean(dim=0)
    model.resize_token_embeddings(len(new_tokenizer), mean_resizing=False)
    pairs = []
    for tok, new_id in new_vocab.items():
        old_id = old_vocab.get((aliases or {}).get(tok, tok))
        if old_id is not None and old_id < old.shape[0] and new_id < len(new_tokenizer):
            pairs.append((new_id, old_id))
    weight = model.get_input_embeddings().weight
    with torch.no_grad():
        weight.copy_(mean.expand_as(weight))
        if pairs:
            new_ids = torch.tensor([p[0] for p in pairs])
            old_ids = torch.tensor([p[1] for p in pairs])
            weight[new_ids] = old[old_ids]
    model.config.tie_word_embeddings = True
    model.tie_weights()
    return {"copied": len(pairs), "mean_initialised": weight.shape[0] - len(pairs)}
