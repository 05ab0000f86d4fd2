"""The ``beam`` decoder: batched beam search, as for the GPT-beam corpus of Libbi et al. (2021,
section 3.3.3: 5 beams, no repeated bigrams, notes without PHI tags excluded).

All prompts of a batch are searched at once: the rows are prompts x beams (``batch_size *
num_beams`` rows), the model state and the tag mask are reordered together with the model's
``select``, and a prompt's rows leave the batch once it is done. Scoring follows transformers'
``BeamSearchScorer`` with ``early_stopping=False``: a hypothesis scores ``sum of log-probs /
length ** length_penalty`` (length = generated tokens, ``<EOD>`` included), and a prompt is done
when it has ``num_beams`` finished hypotheses none worse than its best open beam scored at the
current length. Beams still open when ``max_tokens`` is reached are finished as they are.
Deterministic: the ``rng`` argument is not used.

``require_phi`` is not applied here: the decoder still returns one note per prompt, and the
postprocess stage reads ``decoder.require_phi`` to drop (and count) the notes without PHI tags.

torch and the tag mask are imported where the search runs, not at module level: registering the
decoder must not load torch (every stage and CLI call registers the built-in plugins).
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any, ClassVar

from pydantic import model_validator

from synthdeid import SynthdeidError, hookimpl
from synthdeid.api import AutoregressiveLM, BeamSpec, RegisterDecoder
from synthdeid.toolkit import Settings, setting

if TYPE_CHECKING:
    import torch

    from synthdeid.api import GenerationSettings
    from synthdeid.toolkit import TagMask

NEG_INF = -math.inf
"""The log-probability of an impossible token (as ``synthdeid.generation.tagmask.NEG_INF``, which masks them)."""


def repeated_ngram_bans(seqs: torch.Tensor, n: int) -> tuple[torch.Tensor, torch.Tensor]:
    """(rows, tokens): each token would complete an n-gram already in its row (rows may repeat).

    ``seqs`` is ``[rows, length]`` (prompt and generated ids), left-padded with -1."""
    import torch

    length = seqs.shape[1]
    if n < 1 or length < n:
        return torch.empty(0, dtype=torch.long), torch.empty(0, dtype=torch.long)
    nxt = seqs[:, n - 1 :]  # the token after each (n-1)-gram
    if n == 1:
        hit = nxt >= 0
    else:
        prev = seqs.unfold(1, n - 1, 1)[:, : length - n + 1]
        tail = seqs[:, length - n + 1 :]
        hit = (prev == tail[:, None, :]).all(-1) & (nxt >= 0) & (tail >= 0).all(-1, keepdim=True)
    rows, cols = hit.nonzero(as_tuple=True)
    return rows, nxt[rows, cols]


def ban_tokens(logp: torch.Tensor, rows: torch.Tensor, tokens: torch.Tensor) -> None:
    """Set ``logp[rows, tokens]`` to -inf in place, except in rows it would leave without any token
    (the tag mask's forced choices win over the n-gram ban)."""
    import torch

    if not rows.numel():
        return
    rows, tokens = rows.to(logp.device), tokens.to(logp.device)
    best = logp.amax(-1)
    old = logp[rows, tokens]
    logp[rows, tokens] = NEG_INF
    risky = rows[(old == best[rows]) & (old > NEG_INF)].unique()  # rows that lost their best token
    if risky.numel():
        dead = risky[logp[risky].amax(-1) == NEG_INF]
        undo = torch.isin(rows, dead)
        logp[rows[undo], tokens[undo]] = old[undo]


class _Finished:
    """The ``k`` best finished hypotheses of one prompt, best first (ties: first found)."""

    def __init__(self, k: int) -> None:
        self.k = k
        self.items: list[tuple[float, list[int]]] = []

    def add(self, score: float, ids: list[int]) -> None:
        if len(self.items) < self.k or score > self.items[-1][0]:
            self.items.append((score, ids))
            self.items.sort(key=lambda item: -item[0])
            del self.items[self.k :]

    def done(self, best_open: float) -> bool:
        return len(self.items) >= self.k and self.items[-1][0] >= best_open


class BeamSearch(Settings):
    """Beam search settings (``generate.decoders.beam`` in params.yaml); the settings are the decoder
    (the factory returns the settings the study spec built)."""

    num_beams: int = setting(5, ge=1, description="hypotheses kept at each step")
    no_repeat_ngram_size: int = setting(
        2, ge=0, description="ban a token that would repeat an n-gram of the beam's text (0: off)"
    )
    """Ban a token that would repeat an n-gram of the beam's text (prompt included); 0 = off."""
    length_penalty: float = setting(
        1.0, lt=math.inf, description="exponent of the length that divides a hypothesis' summed log-probabilities"
    )
    """Exponent of the length that divides a hypothesis' summed log-probabilities (finite)."""
    prefer_phi: bool = setting(
        False, description="return the finished beam with the most PHI tags (ties: the best score)"
    )
    """Return the finished beam that generated the most PHI START tags (ties: the best score)."""
    require_phi: bool = setting(False, description="postprocess drops and counts notes without PHI tags")
    """For the postprocess stage: drop and count notes without PHI tags (not applied here)."""
    name: ClassVar[str] = "beam"

    @model_validator(mode="after")
    def _finite(self) -> BeamSearch:
        if self.length_penalty == NEG_INF:  # lt=math.inf alone lets -inf through
            raise ValueError(f"setting 'length_penalty' must be finite, got {self.length_penalty!r}; give a number")
        return self

    def spec(self) -> BeamSpec:
        return BeamSpec(self.num_beams, float(self.length_penalty), self.no_repeat_ngram_size, self.prefer_phi)

    def check(self, model: Any) -> None:
        if not isinstance(model, AutoregressiveLM):
            raise SynthdeidError(
                f"decoder 'beam' cannot drive {type(model).__name__}: beam search reorders the model "
                "state with select(), which only autoregressive generators (lstm, gpt2, causal_lm) "
                "provide; use a sampling decoder (nucleus, temperature, top_k, greedy) with this generator"
            )

    def generate(
        self, model: AutoregressiveLM, prompts: list[list[int]], settings: GenerationSettings, rng: torch.Generator
    ) -> list[list[int]]:
        """The best finished hypothesis of each prompt (generated ids, ``<EOD>`` kept if produced)."""
        import torch

        from synthdeid.toolkit import TagMask

        self.check(model)
        if not prompts:
            return []
        k = self.num_beams
        rows = torch.arange(len(prompts)).repeat_interleave(k)
        state, logits = model.start([list(p) for p in prompts])
        state, logits = model.select(state, rows.to(logits.device)), logits[rows.to(logits.device)]
        mask = TagMask.for_settings(model.vocab, model.eod_id, settings)
        mask.reset([prompts[i] for i in rows.tolist()])
        width = max(len(p) for p in prompts)
        history = torch.tensor([[-1] * (width - len(p)) + list(p) for p in prompts], dtype=torch.long)
        history = history.reshape(len(prompts), width)
        owner = rows  # prompt of each row
        gen = torch.empty(len(rows), 0, dtype=torch.long)
        scores = torch.full((len(prompts), k), NEG_INF)
        scores[:, 0] = 0.0  # the k copies of a prompt start as one beam
        finished = [_Finished(k) for _ in prompts]
        active = list(range(len(prompts)))  # prompts still searched, in row-block order
        for n in range(settings.max_tokens):
            logp = torch.log_softmax(mask.apply(logits.float(), n, settings.min_tokens, settings.max_tokens), -1)
            dead = logp[:, 0].isnan()  # a row whose every token is -inf
            if dead.any():
                logp[dead] = NEG_INF
            if self.no_repeat_ngram_size:
                ban_tokens(logp, *repeated_ngram_bans(torch.cat([history[owner], gen], 1), self.no_repeat_ngram_size))
            parents: list[int] = []
            tokens: list[int] = []
            new_scores: list[float] = []
            still: list[int] = []
            for j, (p, cands) in enumerate(zip(active, _candidates(logp, scores))):
                beams = self._advance(
                    finished[p], cands, j * k, gen, n, model.eod_id, n == settings.max_tokens - 1, scores[j]
                )
                if beams:
                    for row, tok, val in beams:
                        parents.append(row)
                        tokens.append(tok)
                        new_scores.append(val)
                    still.append(p)
            if not still:
                break
            pick = torch.tensor(parents, dtype=torch.long)
            chosen = torch.tensor(tokens, dtype=torch.long)
            state = model.select(state, pick.to(logits.device))
            mask.select(pick)
            mask.update(chosen)
            gen = torch.cat([gen[pick], chosen[:, None]], 1)
            owner = owner[pick]
            scores = torch.tensor(new_scores).reshape(len(still), k)
            active = still
            state, logits = model.step(state, chosen.to(logits.device))
        return [self._best(f, mask) for f in finished]

    def _advance(
        self,
        finished: _Finished,
        cands: list[tuple[float, int, int]],
        first_row: int,
        gen: torch.Tensor,
        n: int,
        eod: int,
        last: bool,
        scores: torch.Tensor,
    ) -> list[tuple[int, int, float]]:
        """One prompt's step, as transformers' ``BeamSearchScorer.process``: ``<EOD>`` candidates
        among the ``k`` best finish, the ``k`` best others are the new beams (row, token, score);
        returns no beams when the prompt is done."""
        k, lp = self.num_beams, float(self.length_penalty)
        beams: list[tuple[int, int, float]] = []
        for rank, (val, beam, tok) in enumerate(cands):
            if val == NEG_INF or len(beams) == k:
                break
            if tok != eod:
                beams.append((first_row + beam, tok, val))
            elif rank < k:
                finished.add(val / (n + 1) ** lp, gen[first_row + beam].tolist() + [tok])
        if last:
            for row, tok, val in beams:
                finished.add(val / (n + 1) ** lp, gen[row].tolist() + [tok])
        if not finished.items and (last or not beams):
            # every beam met only impossible (-inf) tokens: keep the beams as they are
            for b, score in enumerate(scores.tolist()):
                if score > NEG_INF:
                    finished.add(score / max(n, 1) ** lp, gen[first_row + b].tolist())
        if last or not beams or finished.done(beams[0][2] / (n + 1) ** lp):
            return []
        return beams + [(first_row, eod, NEG_INF)] * (k - len(beams))  # dead fillers, never chosen

    def _best(self, finished: _Finished, mask: TagMask) -> list[int]:
        if not finished.items:
            return []
        if not self.prefer_phi:
            return finished.items[0][1]
        starts = set(mask.start_ids.tolist())
        return max(finished.items, key=lambda item: (sum(t in starts for t in item[1]), item[0]))[1]


def _candidates(logp: torch.Tensor, scores: torch.Tensor) -> list[list[tuple[float, int, int]]]:
    """Per prompt, its ``2 * k`` best continuations (score, beam, token), best first."""
    prompts, k = scores.shape
    per_row = min(2 * k, logp.shape[1])
    row_val, row_tok = logp.topk(per_row, dim=-1)  # the best of a prompt are among each row's best
    total = (scores.to(row_val.device).reshape(-1, 1) + row_val).reshape(prompts, k * per_row)
    val, idx = total.topk(min(2 * k, k * per_row), dim=-1)
    tok = row_tok.reshape(prompts, k * per_row).gather(1, idx)
    return [list(zip(v, i, t)) for v, i, t in zip(val.tolist(), (idx // per_row).tolist(), tok.tolist())]


@hookimpl
def register_decoders(register: RegisterDecoder) -> None:
    register("beam", _itself, config=BeamSearch)


def _itself(settings: BeamSearch) -> BeamSearch:
    """The beam decoder's factory: its settings are the decoder."""
    return settings
