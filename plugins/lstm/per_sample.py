"""Exact per-sample gradients of the LSTM language model, fast enough for DP-SGD on a CPU.

Opacus' ``DPLSTM`` computes per-sample gradients with one outer product per time step and
parameter (``[batch, 4H, in]`` written T times): about 25 s per 16 notes of 350 tokens on the demo
model. Here the LSTM is unrolled with its gate pre-activations kept; after one ordinary backward
pass the gradients of the gates, the layer inputs and the logits give every parameter's
per-sample gradient as one batched matrix product over time (the same sums, in one GEMM).

``UnrolledLSTM`` has ``nn.LSTM``'s parameter names and gate order (i, f, g, o), so the weights
load into the plain model for generation.
"""

from __future__ import annotations

from typing import Any

import torch
import torch.nn.functional as F
from torch import nn

from .model import Hidden, LSTMLanguageModel


class UnrolledLSTM(nn.Module):
    """A (stacked) LSTM run one step at a time in Python, recording for each layer its inputs,
    previous hidden states and gate pre-activations (``record``) for ``per_sample_grads``."""

    def __init__(self, lstm: nn.LSTM) -> None:
        super().__init__()
        self.num_layers, self.hidden_size, self.dropout = lstm.num_layers, lstm.hidden_size, lstm.dropout
        for name, value in lstm.named_parameters():
            self.register_parameter(name, nn.Parameter(value.detach().clone()))
        self.record: list[dict[str, Any]] | None = None

    def forward(self, x: torch.Tensor, hidden: Hidden) -> tuple[torch.Tensor, Hidden]:
        """``x [time, batch, in]`` -> ``[time, batch, hidden]`` and the last ``(h, c)``."""
        hs, cs = [], []
        for k in range(self.num_layers):
            if k and self.dropout and self.training:
                x = F.dropout(x, self.dropout, True)
            w_ih, w_hh = getattr(self, f"weight_ih_l{k}"), getattr(self, f"weight_hh_l{k}")
            b = getattr(self, f"bias_ih_l{k}") + getattr(self, f"bias_hh_l{k}")
            projected = (x @ w_ih.t() + b).unbind(0)  # all steps at once (unbind: one backward copy)
            h, c = hidden[0][k], hidden[1][k]
            outs, gates, prev = [], [], []
            for step in projected:
                g = step + h @ w_hh.t()
                if self.record is not None:
                    g.retain_grad()
                    gates.append(g)
                    prev.append(h)
                i, f, cell, o = g.chunk(4, dim=1)
                c = torch.sigmoid(f) * c + torch.sigmoid(i) * torch.tanh(cell)
                h = torch.sigmoid(o) * torch.tanh(c)
                outs.append(h)
            if self.record is not None:
                self.record.append({"input": x, "gates": gates, "prev": torch.stack(prev)})
            x = torch.stack(outs)
            hs.append(h)
            cs.append(c)
        return x, (torch.stack(hs), torch.stack(cs))


def make_unrolled(model: LSTMLanguageModel) -> None:
    """Swap the model's ``nn.LSTM`` for an ``UnrolledLSTM`` with the same weights."""
    if isinstance(model.rnn, nn.LSTM):
        model.rnn = UnrolledLSTM(model.rnn)


def per_sample_grads(
    model: LSTMLanguageModel, ids: torch.Tensor, mask: torch.Tensor
) -> tuple[torch.Tensor, dict[torch.Tensor, torch.Tensor]]:
    """Each note's mean next-token cross-entropy ``[batch]`` and, per parameter, the gradient of
    each note's own loss ``[batch, *shape]`` (tied weights: the sum over both uses).

    ``ids [time, batch]`` start with ``<EOD>``; ``mask`` marks real (unpadded) positions."""
    rnn = model.rnn
    assert isinstance(rnn, UnrolledLSTM)
    x, y, target_mask = ids[:-1], ids[1:], mask[1:]
    batch = ids.size(1)
    rnn.record = []
    try:
        emb = model.encoder(x)
        emb.retain_grad()
        out, _ = rnn(model.drop(emb), model.init_hidden(batch))
        top = model.drop(out)
        logits = model.decoder(top)
        logits.retain_grad()
        ce = F.cross_entropy(logits.reshape(-1, logits.size(-1)), y.reshape(-1), reduction="none")
        losses = (ce.view_as(target_mask) * target_mask).sum(0) / target_mask.sum(0).clamp(min=1)
        losses.sum().backward()  # a note's loss depends on its own column only
        grads: dict[torch.Tensor, torch.Tensor] = {}

        def add(p: torch.Tensor, g: torch.Tensor) -> None:
            grads[p] = grads[p] + g if p in grads else g

        d_logits = logits.grad  # [T, B, V]
        add(model.decoder.weight, torch.einsum("tbv,tbh->bvh", d_logits, top.detach()))
        add(model.decoder.bias, d_logits.sum(0))
        emb_grad = torch.zeros(batch * model.encoder.num_embeddings, emb.size(-1))
        rows = (torch.arange(batch) * model.encoder.num_embeddings).unsqueeze(0) + x
        emb_grad.index_add_(0, rows.reshape(-1), emb.grad.reshape(-1, emb.size(-1)))
        add(model.encoder.weight, emb_grad.view(batch, model.encoder.num_embeddings, -1))
        for k, rec in enumerate(rnn.record):
            d_gates = torch.stack([g.grad for g in rec["gates"]])  # [T, B, 4H]
            add(getattr(rnn, f"weight_ih_l{k}"), torch.einsum("tbg,tbi->bgi", d_gates, rec["input"].detach()))
            add(getattr(rnn, f"weight_hh_l{k}"), torch.einsum("tbg,tbh->bgh", d_gates, rec["prev"].detach()))
            bias = d_gates.sum(0)
            add(getattr(rnn, f"bias_ih_l{k}"), bias)
            add(getattr(rnn, f"bias_hh_l{k}"), bias.clone())
        return losses.detach(), grads
    finally:
        rnn.record = None
