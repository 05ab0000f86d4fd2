"""Trains a tiny GPT-2 (``train_stages``) and a tiny BERT tagger (``train_model``) on fixed data and
saves the gradient of one whole batch and the final weights: run alone, or under ``torchrun`` by
tests/test_distributed.py, which compares the two. ``python distributed_worker.py OUT`` writes
OUT/rank{R}-grads.pt, OUT/rank{R}-lm.pt and OUT/rank{R}-tagger.pt."""

from __future__ import annotations

import os
import sys
from pathlib import Path

os.environ.setdefault("HF_HUB_OFFLINE", "1")

import torch
from transformers import (
    BertConfig,
    BertForTokenClassification,
    GPT2Config,
    GPT2LMHeadModel,
)

from synthdeid.generation import distributed
from synthdeid.generation.hf_lm.train_loop import (
    LoopSettings,
    Stage,
    batch_loss,
    train_stages,
)
from synthdeid.plugins.hf_tagger.config import HFTaggerConfig
from synthdeid.plugins.hf_tagger.encoding import Piece
from synthdeid.plugins.hf_tagger.train_loop import _batch_loss, train_model

VOCAB = 50


def lm_blocks() -> list[list[int]]:
    g = torch.Generator().manual_seed(1)
    # 11 blocks of uneven lengths: batches of 4 split 2/2, and a last batch of 3 splits 2/1
    return [torch.randint(0, VOCAB, (int(n),), generator=g).tolist() for n in torch.randint(5, 17, (11,), generator=g)]


def pieces() -> list[Piece]:
    g = torch.Generator().manual_seed(2)
    out = []
    for i in range(9):
        n = int(torch.randint(4, 12, (1,), generator=g))
        ids = torch.randint(5, VOCAB, (n,), generator=g).tolist()
        labels = [-100 if j % 3 == 2 else int(x) % 3 for j, x in enumerate(ids)]
        out.append(Piece(doc=i, words=[], input_ids=ids, first=list(range(n)), labels=labels))
    return out


def gradients(model: torch.nn.Module, loss: torch.Tensor | None) -> dict[str, torch.Tensor]:
    """The gradient of one whole batch: this process's share back-propagated, then summed."""
    model.zero_grad(set_to_none=True)
    if loss is not None:
        loss.backward()
    distributed.sum_gradients(model.parameters())
    grads = {n: p.grad.clone() for n, p in model.named_parameters()}
    model.zero_grad(set_to_none=True)
    return grads


def main(out: Path) -> None:
    torch.set_num_threads(1)
    distributed.init()
    torch.manual_seed(0)
    lm = GPT2LMHeadModel(
        GPT2Config(
            vocab_size=VOCAB,
            n_positions=32,
            n_embd=16,
            n_layer=1,
            n_head=2,
            resid_pdrop=0.0,
            embd_pdrop=0.0,
            attn_pdrop=0.0,
        )
    )
    grads = {"lm": gradients(lm, batch_loss(lm, lm_blocks(), torch.device("cpu"))[0])}  # 11 blocks: 6 + 5
    names = tuple(n for n, _ in lm.named_parameters())
    train_stages(
        lm,
        lm_blocks(),
        lm_blocks()[:2],
        [Stage(2, ((names, 1e-2),))],
        LoopSettings(batch_size=4),
        distributed.output_dir(out / "lm"),
        "fingerprint",
    )
    torch.manual_seed(0)
    tagger = BertForTokenClassification(
        BertConfig(
            vocab_size=VOCAB,
            hidden_size=16,
            num_hidden_layers=1,
            num_attention_heads=2,
            intermediate_size=32,
            num_labels=3,
            hidden_dropout_prob=0.0,
            attention_probs_dropout_prob=0.0,
        )
    )
    grads["tagger"] = gradients(tagger, _batch_loss(tagger, pieces(), list(range(9)), 0))  # 9 windows: 5 + 4
    train_model(tagger, pieces(), 0, HFTaggerConfig(max_epochs=2, batch_size=4, learning_rate=1e-2), None)
    rank = distributed.rank()
    torch.save(lm.state_dict(), out / f"rank{rank}-lm.pt")
    torch.save(tagger.state_dict(), out / f"rank{rank}-tagger.pt")
    torch.save(grads, out / f"rank{rank}-grads.pt")


if __name__ == "__main__":
    main(Path(sys.argv[1]))
