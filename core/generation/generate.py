"""The shared generation loop: prompts in, inline-tag notes out, batched, seeded, until a target
corpus size; plus the step-by-step sampling loop that the sampling decoders use."""

from __future__ import annotations

import functools
import random
import re
from collections.abc import Callable, Iterator, Sequence
from typing import Any

import torch

from synthdeid import paths
from synthdeid.api import AutoregressiveLM, CorpusGenerator, Decoder, GenerationSettings
from synthdeid.corpus.span_bounds import SPAN_MARGIN
from synthdeid.errors import InputError
from synthdeid.generation.tagmask import TagMask

Choose = Callable[[torch.Tensor, torch.Generator], torch.Tensor]
"""Pick one token per row from masked logits ``[rows, vocab]``."""


def sample_loop(
    model: AutoregressiveLM,
    prompts: Sequence[Sequence[int]],
    settings: GenerationSettings,
    choose: Choose,
    rng: torch.Generator,
) -> list[list[int]]:
    """Token-by-token generation for a batch: finished rows (``<EOD>``) leave the batch."""
    out: list[list[int]] = [[] for _ in prompts]
    if not prompts:
        return out
    mask = TagMask.for_settings(model.vocab, model.eod_id, settings)
    mask.reset(prompts)
    state, logits = model.start([list(p) for p in prompts])
    alive = torch.arange(len(prompts))
    for n in range(settings.max_tokens):
        tokens = choose(mask.apply(logits.float(), n, settings.min_tokens, settings.max_tokens), rng)
        for row, tok in zip(alive.tolist(), tokens.tolist()):
            out[row].append(tok)
        mask.update(tokens)
        if n == settings.max_tokens - 1:
            break
        keep = (tokens != model.eod_id).nonzero().squeeze(1)
        if keep.numel() == 0:
            break
        if keep.numel() < alive.numel():
            state = model.select(state, keep)
            mask.select(keep)
            alive, tokens = alive[keep], tokens[keep]
        state, logits = model.step(state, tokens)
    return out


def corpus_prompts(prompts: Sequence[str], seed: int) -> Iterator[tuple[int, str]]:
    """An endless seeded stream of (note number, prompt): the prompts shuffled, then again."""
    if not prompts:
        raise InputError(
            "there are no prompts to generate from",
            path=paths.PROMPTS,
            fix="the dev split is empty: give prepare.split a non-zero dev share",
        )
    rnd = random.Random(seed)
    n = 0
    while True:
        order = list(prompts)
        rnd.shuffle(order)
        for p in order:
            yield n, p
            n += 1


_SPAN = re.compile(r"<([A-Za-z][A-Za-z0-9_]*?)START> (.*?) <\1END>")
# SPAN_MARGIN: model tokens a generated span may exceed its label's longest training span by (a
# subword tokenizer may split the same words differently in context); postprocess allows as much


def span_limits(model: AutoregressiveLM, lines: Sequence[str], setting: Any) -> tuple[tuple[str, int], ...]:
    """``generate.max_span_tokens`` as (label, limit) pairs: ``auto`` gives each label its longest
    span in ``lines`` (the inline training text) in the model's tokens plus ``SPAN_MARGIN``; a
    number gives every label that limit; null gives none."""
    if setting is None:
        return ()
    if setting != "auto":
        if isinstance(setting, bool) or not isinstance(setting, int) or setting < 1:
            raise InputError(
                f"generate.max_span_tokens must be auto, a positive integer or null, not {setting!r}",
                path="params.yaml",
                fix="auto: each label's longest training span (plus 2 tokens)",
            )
        return tuple((label, setting) for label in sorted({m.group(1) for line in lines for m in _SPAN.finditer(line)}))
    longest: dict[str, int] = {}
    seen: set[tuple[str, str]] = set()
    for line in lines:
        for m in _SPAN.finditer(line):
            if (m.group(1), m.group(2)) not in seen:
                seen.add((m.group(1), m.group(2)))
                longest[m.group(1)] = max(longest.get(m.group(1), 0), len(model.encode(m.group(2))))
    return tuple((label, n + SPAN_MARGIN) for label, n in sorted(longest.items()))


def span_labels(lines: Sequence[str]) -> tuple[str, ...]:
    """The labels the inline training text ``lines`` has spans of: the only START tags a model may
    open (``GenerationSettings.span_labels``)."""
    return tuple(sorted({m.group(1) for line in lines for m in _SPAN.finditer(line)}))


_MARKUP = re.compile(r"^(?:<PAR>|<EOD>|<[A-Za-z][A-Za-z0-9_]*?(?:START|END)>)$")


def count_tokens(text: str) -> int:
    """Corpus size unit: whitespace tokens of the inline text; tags, ``<PAR>`` and ``<EOD>``
    are markup, not tokens (``<unk>`` is a token)."""
    return sum(1 for t in text.split() if not _MARKUP.match(t))


def generate_corpus(
    model: Any,
    decoder: Decoder,
    prompts: Sequence[str],
    settings: GenerationSettings,
    target_tokens: int,
    seed: int,
    progress: Callable[[int], None] | None = None,
) -> list[tuple[str, str]]:
    """(prompt, generated inline text) pairs until ``target_tokens`` tokens are generated.

    Batches are seeded by their index, so the same params give the same corpus."""
    decoder.check(model)
    stream = corpus_prompts(prompts, seed)
    notes: list[tuple[str, str]] = []
    total = 0
    batch_no = 0
    while total < target_tokens:
        batch = [next(stream)[1] for _ in range(settings.batch_size)]
        rng = torch.Generator().manual_seed(seed * 1_000_003 + batch_no)
        ids = [model.encode(p) for p in batch]
        for prompt, gen in zip(batch, decoder.generate(model, ids, settings, rng)):
            text = (prompt + " " + model.decode(gen)).strip()
            notes.append((prompt, text))
            total += count_tokens(text)
            if progress:
                progress(count_tokens(text))
        batch_no += 1  # the last batch is kept whole: no generated note is thrown away
    return notes


def corpus_writer(model: AutoregressiveLM | CorpusGenerator) -> Callable[..., list[tuple[str, str]]]:
    """What writes a loaded generator's corpus: its own ``generate_corpus`` (a ``CorpusGenerator``),
    or the shared loop above for an ``AutoregressiveLM`` (same signature, model bound)."""
    if isinstance(model, CorpusGenerator):
        return model.generate_corpus
    return functools.partial(generate_corpus, model)
