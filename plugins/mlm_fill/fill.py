"""Generation by masking and refilling real (pseudonymized) notes with a masked LM.

Every word of every PHI span is masked, plus ``mask_ratio`` of the other words; each masked word
gets one mask per subword token the original word had (so a refill keeps the original's length in
tokens, not in characters). Masks are refilled by the decoder's ``choose(logits, rng)`` (greedy =
argmax, temperature/top_k/nucleus = sampling): ``simultaneous`` fills all masks of a window from one
forward pass, ``iterative`` fills one mask per forward pass, the most confident first. Notes longer
than a window are processed window by window (each fills its central block, with context on both
sides and the earlier blocks' refills visible), never truncated.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

import torch

from synthdeid import Document, InputError, SynthdeidError
from synthdeid.api import Decoder, GenerationSettings, TokenChooser
from synthdeid.toolkit import count_tokens
from synthdeid.toolkit import encode_inline as encode

from .config import MLMFillConfig
from .model import Vocab, logit_fn
from .notes import Piece, plan_masks, rebuild, split_pieces

Choose = Callable[[torch.Tensor, torch.Generator], torch.Tensor]
CHUNK = 512
"""Masks whose logits are computed and chosen at once."""


def windows(length: int, size: int) -> list[tuple[int, int, int, int]]:
    """``(block_start, block_end, window_start, window_end)`` covering ``0..length``: blocks tile the
    sequence; each window holds its block plus up to ``size // 4`` tokens of context per side."""
    if length <= size:
        return [(0, length, 0, length)]
    ctx = size // 4
    block = size - 2 * ctx
    out = []
    for b0 in range(0, length, block):
        b1 = min(b0 + block, length)
        w0 = max(0, min(b0 - ctx, length - size))
        out.append((b0, b1, w0, w0 + size))
    return out


@dataclass
class Job:
    """One note being refilled: its token ids and the masks still to fill."""

    ids: torch.Tensor
    todo: torch.Tensor
    blocks: list[tuple[int, int, int, int]] = field(default_factory=list)
    k: int = 0

    def advance(self) -> None:
        while self.k < len(self.blocks) and not self.todo[self.blocks[self.k][0] : self.blocks[self.k][1]].any():
            self.k += 1

    @property
    def done(self) -> bool:
        return self.k >= len(self.blocks)


def refill(
    model: Any, vocab: Vocab, jobs: Sequence[Job], choose: Choose, rng: torch.Generator, mode: str, window: int
) -> None:
    """Fill every job's masks in place, the jobs batched together (one row per job per pass)."""
    first = torch.tensor([vocab.cls_id] if vocab.cls_id is not None else [], dtype=torch.long)
    last = torch.tensor([vocab.sep_id] if vocab.sep_id is not None else [], dtype=torch.long)
    size, lead = window - len(first) - len(last), len(first)
    for job in jobs:
        job.blocks = windows(len(job.ids), size)
        job.advance()
    active = [j for j in jobs if not j.done]
    banned = vocab.banned
    while active:
        seqs, rows, cols, owner = [], [], [], []
        for r, job in enumerate(active):
            b0, b1, w0, w1 = job.blocks[job.k]
            seqs.append(torch.cat([first, job.ids[w0:w1], last]))
            for p in (job.todo[b0:b1].nonzero().squeeze(1) + b0).tolist():
                rows.append(r)
                cols.append(p - w0 + lead)
                owner.append(p)
        width = max(len(s) for s in seqs)
        input_ids = torch.full((len(seqs), width), vocab.pad_id, dtype=torch.long)
        attention = torch.zeros((len(seqs), width), dtype=torch.long)
        for r, s in enumerate(seqs):
            input_ids[r, : len(s)] = s
            attention[r, : len(s)] = 1
        logits_at = logit_fn(model, input_ids, attention)
        rows_t, cols_t = torch.tensor(rows), torch.tensor(cols)

        def allowed(sel: torch.Tensor) -> torch.Tensor:
            return logits_at(rows_t[sel], cols_t[sel]).masked_fill(banned, float("-inf"))  # noqa: B023 - called in this iteration only

        if mode == "simultaneous":  # in chunks of CHUNK masks: bounded memory for large vocabularies
            for a in range(0, len(rows), CHUNK):
                sel = torch.arange(a, min(a + CHUNK, len(rows)))
                for i, t in zip(sel.tolist(), choose(allowed(sel), rng).tolist()):
                    active[rows[i]].ids[owner[i]] = t
                    active[rows[i]].todo[owner[i]] = False
        else:
            confidence = torch.cat(
                [
                    torch.log_softmax(allowed(torch.arange(a, min(a + CHUNK, len(rows)))), dim=-1).amax(dim=-1)
                    for a in range(0, len(rows), CHUNK)
                ]
            )
            best = torch.tensor(
                [int((rows_t == r).nonzero().squeeze(1)[confidence[rows_t == r].argmax()]) for r in range(len(active))]
            )
            for r, (i, t) in enumerate(zip(best.tolist(), choose(allowed(best), rng).tolist())):
                active[r].ids[owner[i]] = t
                active[r].todo[owner[i]] = False
        for job in active:
            job.advance()
        active = [j for j in active if not j.done]


class MLMFillModel:
    """A trained ``mlm_fill`` generator: source notes plus the masked LM that refills them.

    It has ``generate_corpus`` (the contract of ``synthdeid.generation.generate.generate_corpus``), which the
    sampling decoders accept; the decoders' ``choose`` picks each refill token."""

    name = "mlm_fill"

    def __init__(self, model: Any, tokenizer: Any, notes: Sequence[Document], cfg: MLMFillConfig, window: int) -> None:
        if not notes:
            raise InputError(
                "the mlm_fill model has no source notes to refill",
                fix="retrain it: generators.mlm_fill needs non-empty training notes",
            )
        self.model = model.eval()
        # not ``vocab``: to AutoregressiveLM that name means a list of token strings
        self.codec = Vocab(tokenizer, model.config.vocab_size)
        self.notes = list(notes)
        self.cfg = cfg
        self.window = window
        self._pieces: dict[int, tuple[list[Piece], list[list[int]]]] = {}
        if not any(count_tokens(encode(d)) for d in self.notes):
            raise InputError(
                "no source note has a countable word: generation could never reach its target",
                fix="check the training notes (generate.count_tokens skips <...> tokens)",
            )

    def _tokens(self, idx: int) -> tuple[list[Piece], list[list[int]]]:
        if idx not in self._pieces:
            pieces = split_pieces(self.notes[idx])
            self._pieces[idx] = (pieces, self.codec.encode_pieces(self.notes[idx], pieces))
        return self._pieces[idx]

    def fill(self, items: Sequence[tuple[int, int]], choose: Choose, rng: torch.Generator, seed: int) -> list[Document]:
        """Refill source notes: ``items`` are (stream number, note index); the stream number seeds
        which words are masked. Returns the new Documents, PHI spans annotated."""
        jobs, layouts = [], []
        for number, idx in items:
            pieces, toks = self._tokens(idx)
            masked = plan_masks(pieces, self.cfg.mask_ratio, random.Random(seed * 1_000_003 + number))
            ids: list[int] = []
            ranges: dict[int, tuple[int, int]] = {}
            for i, (m, t) in enumerate(zip(masked, toks)):
                if m:
                    ranges[i] = (len(ids), len(ids) + max(1, len(t)))
                    ids += [self.codec.mask_id] * max(1, len(t))
                else:
                    ids += t
            todo = torch.zeros(len(ids), dtype=torch.bool)
            for a, b in ranges.values():
                todo[a:b] = True
            jobs.append(Job(torch.tensor(ids, dtype=torch.long), todo))
            layouts.append((idx, pieces, ranges))
        with torch.inference_mode():
            refill(self.model, self.codec, jobs, choose, rng, self.cfg.fill, self.window)
        out = []
        for job, (idx, pieces, ranges) in zip(jobs, layouts):
            fills = {i: self.codec.fill_surface(job.ids[a:b].tolist()) for i, (a, b) in ranges.items()}
            out.append(rebuild(self.notes[idx], pieces, fills))
        return out

    def generate_corpus(
        self,
        decoder: Decoder,
        prompts: Sequence[str],
        settings: GenerationSettings,
        target_tokens: int,
        seed: int,
        progress: Callable[[int], None] | None = None,
    ) -> list[tuple[str, str]]:
        """(source note id, refilled inline-tag text) pairs until ``target_tokens`` tokens
        (``count_tokens``). ``prompts`` are not used: the source notes are the prompts. Notes are
        taken in a seeded order (shuffled, then again); batches are seeded by their index."""
        decoder.check(self)
        if not isinstance(decoder, TokenChooser):
            raise SynthdeidError(
                f"decoder {decoder.name!r} cannot drive mlm_fill: it has no "
                "choose(logits, rng); use greedy, temperature, top_k or nucleus"
            )
        choose = decoder.choose
        torch.set_num_threads(self.cfg.threads)
        stream = _note_stream(len(self.notes), seed)
        pairs: list[tuple[str, str]] = []
        total = 0
        batch_no = 0
        while total < target_tokens:
            items = [next(stream) for _ in range(settings.batch_size)]
            rng = torch.Generator().manual_seed(seed * 1_000_003 + batch_no)
            for (_, idx), doc in zip(items, self.fill(items, choose, rng, seed)):
                text = encode(doc)
                pairs.append((self.notes[idx].id, text))
                total += count_tokens(text)
                if progress:
                    progress(count_tokens(text))
            batch_no += 1  # the last batch is kept whole, as in synthdeid.generation.generate
        return pairs


def _note_stream(n: int, seed: int) -> Iterator[tuple[int, int]]:
    """(stream number, note index) forever: the notes shuffled, then shuffled again."""
    rnd = random.Random(seed)
    number = 0
    while True:
        order = list(range(n))
        rnd.shuffle(order)
        for idx in order:
            yield number, idx
            number += 1
