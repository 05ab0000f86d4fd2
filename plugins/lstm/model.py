"""The network: embedding, a stacked LSTM and a (tied) softmax output layer."""

from __future__ import annotations

import torch
from torch import nn

from synthdeid.toolkit import dropout

from .config import LSTMConfig

Hidden = tuple[torch.Tensor, torch.Tensor]


class LSTMLanguageModel(nn.Module):
    """Word-level LSTM LM as in PyTorch's word_language_model example (Melamud & Shivade 2019)."""

    def __init__(self, vocab_size: int, config: LSTMConfig) -> None:
        super().__init__()
        self.layers = config.layers
        self.hidden_size = config.hidden_size
        self.dropout = config.dropout
        self.encoder = nn.Embedding(vocab_size, config.embedding_size)
        # an UnrolledLSTM in its place for DP training (per_sample.make_unrolled)
        self.rnn: nn.Module = nn.LSTM(
            config.embedding_size,
            config.hidden_size,
            config.layers,
            dropout=config.dropout if config.layers > 1 else 0.0,
        )
        self.decoder = nn.Linear(config.hidden_size, vocab_size)
        if config.tied:
            self.decoder.weight = self.encoder.weight
        nn.init.uniform_(self.encoder.weight, -0.1, 0.1)
        nn.init.zeros_(self.decoder.bias)
        if not config.tied:
            nn.init.uniform_(self.decoder.weight, -0.1, 0.1)

    def drop(self, x: torch.Tensor) -> torch.Tensor:
        """Dropout while training (``synthdeid.dropout``: a ``torch.rand`` mask, cheaper on a CPU)."""
        return dropout(x, self.dropout, self.training)

    def init_hidden(self, batch: int) -> Hidden:
        """A fresh (zero) state for ``batch`` sequences: ``[layers, batch, hidden]`` each."""
        w = self.encoder.weight
        shape = (self.layers, batch, self.hidden_size)
        return w.new_zeros(shape), w.new_zeros(shape)

    def forward(self, tokens: torch.Tensor, hidden: Hidden) -> tuple[torch.Tensor, Hidden]:
        """``tokens [time, batch]`` -> logits ``[time, batch, vocab]`` and the last state."""
        out, hidden = self.rnn(self.drop(self.encoder(tokens)), hidden)
        return self.decoder(self.drop(out)), hidden

    def n_parameters(self) -> int:
        """Trainable parameters, tied weights counted once."""
        return sum(p.numel() for p in self.parameters())
