"""``HFCausalLM``: any transformers causal LM plus tokenizer as a synthdeid ``AutoregressiveLM``.

Prompts of different lengths run as one left-padded batch (attention mask and explicit position
ids, so each row computes what it would compute alone); ``step`` feeds one token per row through
the KV cache (``past_key_values``); ``select`` indexes the cache for finished rows and beams.
States are values: ``step`` and ``select`` never change the state they are given.
"""

from __future__ import annotations

import copy
import inspect
from dataclasses import dataclass
from typing import Any

import torch

from synthdeid import SynthdeidError

from .tokenizer import InlineCodec


@dataclass(frozen=True)
class State:
    cache: Any
    """``DynamicCache`` (transformers 4.57) or the legacy tuple of (key, value) per layer."""
    mask: torch.Tensor
    """Attention mask ``[batch, length]`` (0 for left padding)."""
    pos: torch.Tensor
    """Position id of the next token fed, per row."""
    last: torch.Tensor
    """The last token fed, per row."""


def fork_cache(cache: Any) -> Any:
    """A copy of the cache object that shares its tensors: updating the copy (which replaces,
    not mutates, the per-layer tensors) leaves the original intact."""
    if cache is None or isinstance(cache, tuple):
        return cache
    new = copy.copy(cache)
    if hasattr(cache, "layers"):
        new.layers = [copy.copy(layer) for layer in cache.layers]
    return new


def index_cache(cache: Any, rows: torch.Tensor) -> Any:
    """The cache restricted to / reordered by ``rows`` (a new object)."""
    if isinstance(cache, tuple):
        return tuple(tuple(t.index_select(0, rows.to(t.device)) for t in layer) for layer in cache)
    new = fork_cache(cache)
    if hasattr(new, "reorder_cache"):
        new.reorder_cache(rows)
    else:
        new.batch_select_indices(rows)
    return new


def max_positions(config: Any) -> int | None:
    for key in ("n_positions", "max_position_embeddings", "max_sequence_length", "seq_length"):
        value = getattr(config, key, None)
        if isinstance(value, int) and value > 0:
            return value
    return None


class HFCausalLM:
    """A transformers causal LM driven by the shared decoding loop (runs in eval mode under
    ``torch.inference_mode``)."""

    def __init__(self, model: Any, codec: InlineCodec, max_length: int | None = None) -> None:
        self.model = model.eval()
        self.codec = codec
        self.device = next(model.parameters()).device
        width = model.get_output_embeddings().weight.shape[0]
        self.vocab = codec.vocab(width)
        self.eod_id = codec.eod_id
        self.max_length = max_length or max_positions(model.config)
        self._ban = torch.tensor(codec.banned_ids + list(range(len(codec), width)), dtype=torch.long)
        self._opens = torch.tensor(codec.start_tag_ids, dtype=torch.long)
        self._closing = torch.tensor([*codec.end_tag_ids, codec.eod_id], dtype=torch.long)
        self._blank = torch.tensor(codec.blank_ids(), dtype=torch.long)
        self._keep_arg = _accepts(model, "logits_to_keep")

    def encode(self, text: str) -> list[int]:
        return self.codec.encode(text)

    def decode(self, ids: list[int]) -> str:
        return self.codec.decode(ids)

    def _logits(self, out: Any, pos: torch.Tensor, last: torch.Tensor) -> torch.Tensor:
        # a clone made outside inference mode: decoders may change the logits in place
        logits = out.logits[:, -1, :].float().cpu().clone()
        if self._ban.numel():
            logits[:, self._ban] = float("-inf")
        if self._blank.numel() and self._opens.numel():
            # a subword that decodes to white space right after a START tag would leave the span
            # empty; the tag mask counts tokens, not characters
            opened = torch.isin(last.cpu(), self._opens).nonzero().squeeze(1)
            if opened.numel():
                logits[opened[:, None], self._blank[None, :]] = float("-inf")
        if self.max_length is not None:
            self._near_the_end(logits, self.max_length - (pos.cpu() + 1))
        return logits

    def _near_the_end(self, logits: torch.Tensor, room: torch.Tensor) -> None:
        """Wind notes down before the model runs out of positions (``room``: positions left for
        the token being chosen and after): no new tag two tokens before, then only END tags or
        ``<EOD>``, then ``<EOD>``; the tag mask picks the right END."""
        inf = float("-inf")
        rows = (room == 2).nonzero().squeeze(1)
        if rows.numel() and self._opens.numel():
            logits[rows[:, None], self._opens[None, :]] = inf
        for rows, allowed in (((room == 1).nonzero().squeeze(1), self._closing),
                              ((room <= 0).nonzero().squeeze(1), self._closing[-1:])):
            if rows.numel():
                keep = logits[rows[:, None], allowed[None, :]].clone()
                logits[rows] = inf
                logits[rows[:, None], allowed[None, :]] = keep.clamp(min=-1e4)

    def _forward(self, ids: torch.Tensor, mask: torch.Tensor, pos_ids: torch.Tensor, cache: Any) -> Any:
        kwargs = {"logits_to_keep": 1} if self._keep_arg else {}
        return self.model(input_ids=ids.to(self.device), attention_mask=mask.to(self.device),
                          position_ids=pos_ids.to(self.device), past_key_values=cache, use_cache=True, **kwargs)

    def start(self, prompts: list[list[int]]) -> tuple[State, torch.Tensor]:
        rows = [list(p) if p else [self.codec.start_id] for p in prompts]
        width = max(len(p) for p in rows)
        if self.max_length is not None and width > self.max_length:
            raise SynthdeidError(f"a prompt has {width} tokens, more than the model's {self.max_length} positions; "
                                 "use shorter prompts (inline.prompt_tokens)")
        ids = torch.full((len(rows), width), self.eod_id, dtype=torch.long)
        mask = torch.zeros((len(rows), width), dtype=torch.long)
        for r, p in enumerate(rows):
            ids[r, width - len(p):] = torch.tensor(p, dtype=torch.long)
            mask[r, width - len(p):] = 1
        pos_ids = (mask.cumsum(-1) - 1).clamp(min=0)
        with torch.inference_mode():
            out = self._forward(ids, mask, pos_ids, None)
        pos = mask.sum(-1)
        last = ids[:, -1]
        return State(out.past_key_values, mask, pos, last), self._logits(out, pos - 1, last)

    def step(self, state: State, tokens: torch.Tensor) -> tuple[State, torch.Tensor]:
        tokens = tokens.to(torch.long).view(-1, 1)
        mask = torch.cat([state.mask, torch.ones_like(tokens)], dim=1)
        with torch.inference_mode():
            out = self._forward(tokens, mask, state.pos.view(-1, 1), fork_cache(state.cache))
        last = tokens.view(-1).cpu()
        return State(out.past_key_values, mask, state.pos + 1, last), self._logits(out, state.pos, last)

    def select(self, state: State, rows: torch.Tensor) -> State:
        rows = rows.to(torch.long)
        return State(index_cache(state.cache, rows.to(self.device)), state.mask[rows], state.pos[rows],
                     state.last[rows])


def _accepts(model: Any, arg: str) -> bool:
    inner = model.get_base_model() if hasattr(model, "get_base_model") else model  # peft wrapper
    try:
        return arg in inspect.signature(inner.forward).parameters
    except (TypeError, ValueError):
        return False
