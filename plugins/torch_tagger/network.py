"""The network: word + word-shape embeddings and a character CNN, a BiLSTM over the window, a
linear layer to tag scores and a CRF on top; and padded batches of encoded windows."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import torch
from torch import nn
from torch.nn.utils.rnn import pack_padded_sequence, pad_packed_sequence

from .config import TorchTaggerConfig
from .crf import CRF

Encoded = tuple[list[int], list[int], list[list[int]]]  # word ids, shape ids, character ids per word


@dataclass
class Batch:
    words: torch.Tensor  # batch x time
    shapes: torch.Tensor  # batch x time
    chars: torch.Tensor  # batch x time x characters
    lengths: torch.Tensor  # batch
    tags: torch.Tensor | None = None  # batch x time


def make_batch(items: Sequence[Encoded], tags: Sequence[Sequence[int]] | None = None) -> Batch:
    """Zero-padded tensors of encoded windows (zero is every table's padding index)."""
    n, steps = len(items), max(len(w) for w, _, _ in items)
    width = max(1, max((len(c) for _, _, cs in items for c in cs), default=1))
    words = torch.zeros(n, steps, dtype=torch.long)
    shapes = torch.zeros(n, steps, dtype=torch.long)
    chars = torch.zeros(n, steps, width, dtype=torch.long)
    for i, (w, s, cs) in enumerate(items):
        words[i, : len(w)] = torch.tensor(w)
        shapes[i, : len(s)] = torch.tensor(s)
        for t, c in enumerate(cs):
            if c:
                chars[i, t, : len(c)] = torch.tensor(c)
    gold = None
    if tags is not None:
        gold = torch.zeros(n, steps, dtype=torch.long)
        for i, row in enumerate(tags):
            gold[i, : len(row)] = torch.tensor(row)
    return Batch(words, shapes, chars, torch.tensor([len(w) for w, _, _ in items]), gold)


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
        self.drop = nn.Dropout(cfg.dropout)
        self.out = nn.Linear(2 * cfg.hidden_size, len(tags))
        self.crf = CRF(tags)

    def _chars(self, chars: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
        """Max-pooled character CNN features of the real (unpadded) words, zeros elsewhere."""
        assert self.char is not None and self.conv is not None
        real = chars[mask]  # words x characters
        emb = self.char(real).transpose(1, 2)
        feats = torch.relu(self.conv(emb)).masked_fill((real == 0).unsqueeze(1), 0.0).max(dim=2).values
        out = feats.new_zeros(*mask.shape, feats.size(1))
        out[mask] = feats
        return out

    def emissions(self, batch: Batch, words: torch.Tensor | None = None) -> torch.Tensor:
        """Tag scores (batch x time x tags); ``words`` replaces the batch's word ids (unknown-word
        replacement while training)."""
        steps = batch.words.size(1)
        mask = torch.arange(steps).unsqueeze(0) < batch.lengths.unsqueeze(1)
        parts = [self.word(batch.words if words is None else words)]
        if self.shape is not None:
            parts.append(self.shape(batch.shapes))
        if self.char is not None:
            parts.append(self._chars(batch.chars, mask))
        x = self.drop(torch.cat(parts, dim=2))
        packed = pack_padded_sequence(x, batch.lengths, batch_first=True, enforce_sorted=False)
        hidden, _ = pad_packed_sequence(self.lstm(packed)[0], batch_first=True, total_length=steps)
        return self.out(self.drop(hidden))
