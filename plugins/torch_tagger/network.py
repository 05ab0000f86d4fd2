"""The network: word + word-shape embeddings and a character CNN, a BiLSTM over the window, a
linear layer to tag scores and a CRF on top; and padded batches of encoded windows."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import torch
from torch import nn

from synthdeid.toolkit import dropout

from .config import TorchTaggerConfig
from .crf import CRF

Encoded = tuple[list[int], list[int], list[list[int]]]  # word ids, shape ids, character ids per word


@dataclass
class Batch:
    words: torch.Tensor  # batch x time
    shapes: torch.Tensor  # batch x time
    chars: torch.Tensor  # distinct words x characters (row 0: padding, all zeros)
    char_rows: torch.Tensor  # batch x time: each word's row of ``chars``
    lengths: torch.Tensor  # batch
    tags: torch.Tensor | None = None  # batch x time


def make_batch(items: Sequence[Encoded], tags: Sequence[Sequence[int]] | None = None) -> Batch:
    """Zero-padded tensors of encoded windows (zero is every table's padding index). Characters are
    kept once per distinct word of the batch: the character CNN reads each distinct word once."""
    n, steps = len(items), max(len(w) for w, _, _ in items)
    words = torch.zeros(n, steps, dtype=torch.long)
    shapes = torch.zeros(n, steps, dtype=torch.long)
    char_rows = torch.zeros(n, steps, dtype=torch.long)
    distinct: dict[tuple[int, ...], int] = {(): 0}
    for i, (w, s, cs) in enumerate(items):
        words[i, : len(w)] = torch.tensor(w)
        shapes[i, : len(s)] = torch.tensor(s)
        char_rows[i, : len(cs)] = torch.tensor([distinct.setdefault(tuple(c), len(distinct)) for c in cs])
    width = max(1, max(len(c) for c in distinct))
    chars = torch.zeros(len(distinct), width, dtype=torch.long)
    for c, index in distinct.items():
        if c:
            chars[index, : len(c)] = torch.tensor(c)
    gold = None
    if tags is not None:
        gold = torch.zeros(n, steps, dtype=torch.long)
        for i, row in enumerate(tags):
            gold[i, : len(row)] = torch.tensor(row)
    return Batch(words, shapes, chars, char_rows, torch.tensor([len(w) for w, _, _ in items]), gold)


class BiLSTMCRF(nn.Module):
    def __init__(self, n_words: int, n_shapes: int, n_chars: int, tags: Sequence[str], cfg: TorchTaggerConfig) -> None:
        super().__init__()
        self.word = nn.Embedding(n_words, cfg.embedding_size, padding_idx=0)
        self.shape = nn.Embedding(n_shapes, cfg.shape_dim, padding_idx=0) if cfg.shape_dim else None
        self.char = nn.Embedding(n_chars, cfg.char_dim, padding_idx=0) if cfg.uses_chars else None
        self.conv = (
            nn.Conv1d(cfg.char_dim, cfg.char_filters, cfg.char_width, padding=cfg.char_width // 2)
            if cfg.uses_chars
            else None
        )
        size = cfg.embedding_size + cfg.shape_dim + (cfg.char_filters if cfg.uses_chars else 0)
        self.lstm = nn.LSTM(
            size,
            cfg.hidden_size,
            num_layers=cfg.layers,
            bidirectional=True,
            batch_first=True,
            dropout=cfg.dropout if cfg.layers > 1 else 0.0,
        )
        self.dropout = cfg.dropout
        self.out = nn.Linear(2 * cfg.hidden_size, len(tags))
        self.crf = CRF(tags)

    def _chars(self, batch: Batch) -> torch.Tensor:
        """Max-pooled character CNN features of every word (batch x time x filters): computed once
        per distinct word of the batch, zeros for padding."""
        assert self.char is not None and self.conv is not None
        real = batch.chars[1:]  # distinct words x characters
        emb = self.char(real).transpose(1, 2)
        feats = torch.relu(self.conv(emb)).masked_fill((real == 0).unsqueeze(1), 0.0).max(dim=2).values
        table = torch.cat([feats.new_zeros(1, feats.size(1)), feats])
        # an embedding lookup, not ``table[char_rows]``: the backward of advanced indexing sums
        # repeated rows in a thread-dependent order on a CPU, so two runs would differ in the last bits
        return nn.functional.embedding(batch.char_rows, table)

    def emissions(self, batch: Batch, words: torch.Tensor | None = None) -> torch.Tensor:
        """Tag scores (batch x time x tags); ``words`` replaces the batch's word ids (unknown-word
        replacement while training)."""
        parts = [self.word(batch.words if words is None else words)]
        if self.shape is not None:
            parts.append(self.shape(batch.shapes))
        if self.char is not None:
            parts.append(self._chars(batch))
        x = dropout(torch.cat(parts, dim=2), self.dropout, self.training)
        return self.out(dropout(self._bilstm(x, batch.lengths), self.dropout, self.training))

    def _bilstm(self, x: torch.Tensor, lengths: torch.Tensor) -> torch.Tensor:
        """``self.lstm`` over a padded batch, each direction on its own, the backward one over each
        window reversed within its length: what the LSTM gives a packed sequence, without packing.
        (A packed sequence's backward pass zero-fills the whole batch's gate gradients at every
        time step, which made a batch cost the square of its window length.) The forward direction
        reads a window's words before its padding, so its outputs there are the packed ones."""
        lstm = self.lstm
        steps = x.size(1)
        t = torch.arange(steps).unsqueeze(0)
        ends = lengths.unsqueeze(1)
        index = torch.where(t < ends, ends - 1 - t, t).unsqueeze(2)  # batch x time x 1: reversed in its length

        def reverse(y: torch.Tensor) -> torch.Tensor:
            return y.gather(1, index.expand(-1, -1, y.size(2)))

        out = x
        zeros = x.new_zeros(1, x.size(0), lstm.hidden_size)
        for layer in range(lstm.num_layers):

            def weights(suffix: str, layer: int = layer) -> list[torch.Tensor]:
                return [
                    getattr(lstm, f"{w}_l{layer}{suffix}") for w in ("weight_ih", "weight_hh", "bias_ih", "bias_hh")
                ]

            run = lambda y, w: torch.lstm(y, (zeros, zeros), w, True, 1, 0.0, self.training, False, True)[0]  # noqa: E731
            out = torch.cat([run(out, weights("")), reverse(run(reverse(out), weights("_reverse")))], dim=2)
            if layer < lstm.num_layers - 1:
                out = dropout(out, lstm.dropout, self.training)
        return out
