"""``HFCausalLM``: any transformers causal LM plus tokenizer as a synthdeid ``AutoregressiveLM``.

Prompts of different lengths run as one left-padded batch (attention mask and explicit position
ids, so each row computes what it would compute alone); ``step`` feeds one token per row through
the KV cache (``past_key_values``); ``select`` indexes the cache for finished rows and beams.
States are values: ``step`` and ``select`` never change the state they are given.

Two things keep long batched generation cheap: the cache appends into preallocated storage
(``GrowingLayer``) instead of concatenating (``torch.cat`` copied the whole cache at every step),
and ``select`` of a subset of the rows in order (rows that finished) keeps the cache as it is until
fewer than ``compact_at`` of its rows are still used: the finished rows are fed ``<EOD>`` and their
outputs dropped, instead of the cache being copied every time a note ends.
"""

from __future__ import annotations

import copy
import functools
import inspect
from dataclasses import dataclass, replace
from typing import Any, cast

import torch

from synthdeid import SynthdeidError
from synthdeid.generation.hf_lm.tokenizer import InlineCodec


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
    rows: torch.Tensor | None = None
    """The cache rows that are the state's rows, in order (None: all of them). Cache, mask,
    ``pos`` and ``last`` keep one row per cache row; the others belong to notes that finished."""


class _Storage:
    """Key and value tensors with room to grow along the sequence axis; ``tip`` is the key view
    of the one cache layer that may append to it in place."""

    def __init__(self, keys: torch.Tensor, values: torch.Tensor) -> None:
        self.keys, self.values = keys, values
        self.tip: torch.Tensor | None = None


@functools.cache
def _growing_layer() -> Any:
    """The ``GrowingLayer`` class (transformers is imported on first use)."""
    from transformers.cache_utils import DynamicLayer

    class GrowingLayer(DynamicLayer):
        """A ``DynamicLayer`` that appends into preallocated storage, doubled when full.

        Forked caches (``fork_cache``) share the storage. A layer writes in place only when its
        keys are the storage's ``tip`` (nothing was appended after them); otherwise, and after
        anything replaced its tensors (``reorder_cache``, ``crop``), it copies them into new
        storage first. So stepping one state twice, or two forks of it, never changes what
        another state sees."""

        _storage: _Storage | None = None

        def update(
            self, key_states: torch.Tensor, value_states: torch.Tensor, cache_kwargs: dict[str, Any] | None = None
        ) -> tuple[torch.Tensor, torch.Tensor]:
            if not self.is_initialized:
                self.lazy_initialization(key_states)
            length = self.get_seq_length()
            new = length + key_states.shape[-2]
            store = self._storage
            if store is None or store.tip is not self.keys or new > store.keys.shape[-2]:
                room = max(2 * new, 64)
                b, h, _, d = key_states.shape
                store = _Storage(
                    key_states.new_empty(b, h, room, d), value_states.new_empty(b, h, room, value_states.shape[-1])
                )
                if length:  # initialized: keys and values are tensors
                    store.keys[..., :length, :] = cast(torch.Tensor, self.keys)
                    store.values[..., :length, :] = cast(torch.Tensor, self.values)
                self._storage = store
            store.keys[..., length:new, :] = key_states
            store.values[..., length:new, :] = value_states
            self.keys, self.values = store.keys[..., :new, :], store.values[..., :new, :]
            store.tip = self.keys
            return self.keys, self.values

    return GrowingLayer


def new_cache(model: Any) -> Any:
    """An empty ``DynamicCache`` for ``model`` whose full-attention layers are ``GrowingLayer``s
    (sliding-window layers stay as they are); None when transformers cannot build one, and the
    model then makes its own."""
    try:
        from transformers.cache_utils import DynamicCache, DynamicLayer

        cache = DynamicCache(config=model.config)
    except (ImportError, AttributeError, TypeError, ValueError):  # older transformers, unusual config
        return None
    growing = _growing_layer()
    cache.layers = [growing() if type(layer) is DynamicLayer else layer for layer in cache.layers]
    if getattr(cache, "layer_class_to_replicate", None) is DynamicLayer:
        cache.layer_class_to_replicate = growing
    return cache


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
    ``torch.inference_mode``). ``max_length``: positions the model has (default: its config's);
    ``compact_at``: ``select`` copies the cache once fewer than this share of its rows are used."""

    def __init__(self, model: Any, codec: InlineCodec, max_length: int | None = None, compact_at: float = 0.75) -> None:
        self.model = model.eval()
        self.compact_at = compact_at
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
        attention = getattr(model.config, "_attn_implementation", None)
        self._mask_dtype = next(model.parameters()).dtype if attention in ("sdpa", "eager") else None

    def encode(self, text: str) -> list[int]:
        return self.codec.encode(text)

    def decode(self, ids: list[int]) -> str:
        return self.codec.decode(ids)

    def _logits(
        self, out: Any, pos: torch.Tensor, last: torch.Tensor, rows: torch.Tensor | None = None
    ) -> torch.Tensor:
        """Next-token logits of ``rows`` of the batch (all when None); ``pos`` and ``last`` are
        already those of ``rows``."""
        logits = out.logits[:, -1, :] if rows is None else out.logits[rows.to(self.device), -1, :]
        logits = logits.float().cpu()
        if logits.is_inference():  # a copy made outside inference mode: decoders may change it in place
            logits = logits.clone()
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
        for rows, allowed in (
            ((room == 1).nonzero().squeeze(1), self._closing),
            ((room <= 0).nonzero().squeeze(1), self._closing[-1:]),
        ):
            if rows.numel():
                keep = logits[rows[:, None], allowed[None, :]].clone()
                logits[rows] = inf
                logits[rows[:, None], allowed[None, :]] = keep.clamp(min=-1e4)

    def _forward(self, ids: torch.Tensor, mask: torch.Tensor, pos_ids: torch.Tensor, cache: Any) -> Any:
        kwargs = {"logits_to_keep": 1} if self._keep_arg else {}
        if ids.shape[1] == 1 and self._mask_dtype is not None:
            # one new token per row: the padding mask is the whole attention mask. Passed ready-made
            # (additive, [rows, 1, 1, length]) it skips transformers' per-step mask construction,
            # a quarter of a demo GPT-2 step
            dtype = self._mask_dtype
            mask = torch.zeros(mask.shape, dtype=dtype).masked_fill_(mask == 0, torch.finfo(dtype).min)[
                :, None, None, :
            ]
        return self.model(
            input_ids=ids.to(self.device),
            attention_mask=mask.to(self.device),
            position_ids=pos_ids.to(self.device),
            past_key_values=cache,
            use_cache=True,
            **kwargs,
        )

    def start(self, prompts: list[list[int]]) -> tuple[State, torch.Tensor]:
        rows = [list(p) if p else [self.codec.start_id] for p in prompts]
        width = max(len(p) for p in rows)
        if self.max_length is not None and width > self.max_length:
            raise SynthdeidError(
                f"a prompt has {width} tokens, more than the model's {self.max_length} positions; "
                "use shorter prompts (inline.prompt_tokens)"
            )
        ids = torch.full((len(rows), width), self.eod_id, dtype=torch.long)
        mask = torch.zeros((len(rows), width), dtype=torch.long)
        for r, p in enumerate(rows):
            ids[r, width - len(p) :] = torch.tensor(p, dtype=torch.long)
            mask[r, width - len(p) :] = 1
        pos_ids = (mask.cumsum(-1) - 1).clamp(min=0)
        with torch.inference_mode():
            out = self._forward(ids, mask, pos_ids, new_cache(self.model))
        pos = mask.sum(-1)
        last = ids[:, -1]
        return State(out.past_key_values, mask, pos, last), self._logits(out, pos - 1, last)

    def step(self, state: State, tokens: torch.Tensor) -> tuple[State, torch.Tensor]:
        tokens = tokens.to(torch.long).view(-1).cpu()
        fed, pos, rows = tokens, state.pos, state.rows
        if rows is not None:  # the cache rows of finished notes get <EOD>; their outputs are dropped
            fed = torch.full_like(pos, self.eod_id)
            fed[rows] = tokens
        mask = torch.cat([state.mask, torch.ones_like(fed).view(-1, 1)], dim=1)
        # a finished row would run past the last position: its output is never used
        pos_ids = pos if self.max_length is None or rows is None else pos.clamp(max=self.max_length - 1)
        with torch.inference_mode():
            out = self._forward(fed.view(-1, 1), mask, pos_ids.view(-1, 1), fork_cache(state.cache))
        new = State(out.past_key_values, mask, pos + 1, fed, rows)
        if rows is None:
            return new, self._logits(out, pos, fed)
        return new, self._logits(out, pos[rows], tokens, rows)

    def select(self, state: State, rows: torch.Tensor) -> State:
        rows = rows.to(torch.long).cpu()
        if state.rows is not None:
            rows = state.rows[rows]
        n = state.mask.shape[0]
        in_order = rows.numel() == 0 or bool((rows[1:] > rows[:-1]).all())
        if in_order and rows.numel() == n:
            return replace(state, rows=None)
        if in_order and rows.numel() >= self.compact_at * n:
            return replace(state, rows=rows)
        return State(
            index_cache(state.cache, rows.to(self.device)), state.mask[rows], state.pos[rows], state.last[rows]
        )


def _accepts(model: Any, arg: str) -> bool:
    inner = model.get_base_model() if hasattr(model, "get_base_model") else model  # peft wrapper
    try:
        return arg in inspect.signature(inner.forward).parameters
    except (TypeError, ValueError):
        return False
