"""Tag-safe decoding: logit masks that keep inline tags well-formed while a model generates.

With the mask on, an END tag can only close the open START of the same type, no START opens
inside another, a tag cannot close right after it opened (no empty spans), no ``<PAR>`` falls
inside a tag (a span of only a line break would be empty), a note cannot end with a tag open, and
a tag still open when the token budget runs out is closed in time. The minimum length (no
``<EOD>`` before ``min_tokens``) applies with or without it.

Inside an open span, what the model gives the tokens that cannot come next (``<PAR>``, ``<EOD>``,
another START or END) goes to the span's own END: a model that wants to break the line, end the
note or start another span is saying the span is over. Masking those tokens away instead would
push the probability onto words, and a span the model failed to close would run on to the end of
the budget (Libbi et al.'s run-on spans; in the demo, most notes ran to ``max_tokens`` inside one
span). ``span_limits`` (label -> model tokens) closes a span that reaches its label's limit.
``start_bias`` (label -> log-factor, ``synthdeid.generation.tag_distribution``) shifts how often each label's
span is opened. ``span_labels`` (the labels the training notes have spans of) bans every other
label's START tag, with or without ``tag_safe``: a model whose vocabulary holds a tag it never saw
used must not open it (on MEDDOCAN, temperature sampling opened a URL_IP span, a label with no
training spans, and ran it for 500 characters of prose: one such span taught the tagger giant spans).
"""

from __future__ import annotations

import re
from collections.abc import Collection, Mapping, Sequence

import torch

from synthdeid.api import GenerationSettings

_TAG = re.compile(r"^<([A-Za-z][A-Za-z0-9_]*?)(START|END)>$")
NEG_INF = float("-inf")


class TagMask:
    """Per-row tag state for a batch; ``rows`` are reordered with ``select`` like the model state."""

    def __init__(
        self,
        vocab: Sequence[str],
        eod_id: int,
        tag_safe: bool = True,
        span_limits: Mapping[str, int] | None = None,
        start_bias: Mapping[str, float] | None = None,
        span_labels: Collection[str] | None = None,
    ) -> None:
        self.eod_id = eod_id
        self.tag_safe = tag_safe
        self.par_id = next((i for i, tok in enumerate(vocab) if tok == "<PAR>"), None)
        starts: dict[str, int] = {}
        ends: dict[str, int] = {}
        for i, tok in enumerate(vocab):
            m = _TAG.match(tok)
            if m:
                (starts if m.group(2) == "START" else ends)[m.group(1)] = i
        self.labels = sorted(set(starts) & set(ends))
        self.start_ids = torch.tensor([starts[label] for label in self.labels], dtype=torch.long)
        self.end_ids = torch.tensor([ends[label] for label in self.labels], dtype=torch.long)
        self._label_of_start = {starts[lab]: k for k, lab in enumerate(self.labels)}
        self._label_of_end = {ends[lab]: k for k, lab in enumerate(self.labels)}
        limits = span_limits or {}
        bias = start_bias or {}
        # log-factors added to the START tags where a span may open (generate.tag_distribution)
        self.start_bias = torch.tensor([float(bias.get(label, 0.0)) for label in self.labels])
        # START tags of labels without training spans: never opened (None: every label may open)
        self.banned_starts = torch.tensor(
            [starts[label] for label in sorted(starts) if span_labels is not None and label not in span_labels],
            dtype=torch.long,
        )
        self.limits = torch.tensor([max(1, int(limits.get(label, 1 << 30))) for label in self.labels], dtype=torch.long)
        # tokens that cannot follow inside a span: their probability goes to the span's END
        breakers = [eod_id, *self.start_ids.tolist(), *self.end_ids.tolist()]
        self.breakers = torch.tensor(breakers + ([self.par_id] if self.par_id is not None else []), dtype=torch.long)
        self.open = torch.empty(0, dtype=torch.long)  # label index of the open tag, -1 for none
        self.just_opened = torch.empty(0, dtype=torch.bool)
        self.span_len = torch.empty(0, dtype=torch.long)  # tokens inside the open span so far

    @classmethod
    def for_settings(cls, vocab: Sequence[str], eod_id: int, settings: GenerationSettings) -> TagMask:
        """The mask of a decoder that honours ``settings`` (tag safety, span limits and labels, START offsets)."""
        return cls(
            vocab,
            eod_id,
            settings.tag_safe,
            dict(settings.span_limits),
            dict(settings.start_bias),
            settings.span_labels,
        )

    def reset(self, prompts: Sequence[Sequence[int]]) -> None:
        """Start the rows from their prompts (a prompt may leave a tag open, or end in one)."""
        opened, fresh, lengths = [], [], []
        for ids in prompts:
            cur, length = -1, 0
            for t in ids:
                if t in self._label_of_start:
                    cur, length = self._label_of_start[t], 0
                elif t in self._label_of_end and self._label_of_end[t] == cur:
                    cur, length = -1, 0
                elif cur >= 0:
                    length += 1
            opened.append(cur)
            lengths.append(length)
            fresh.append(bool(ids) and cur >= 0 and ids[-1] in self._label_of_start)
        self.open = torch.tensor(opened, dtype=torch.long)
        self.just_opened = torch.tensor(fresh, dtype=torch.bool)
        self.span_len = torch.tensor(lengths, dtype=torch.long)

    def apply(self, logits: torch.Tensor, n_generated: int, min_tokens: int, max_tokens: int) -> torch.Tensor:
        """Masked copy of ``logits`` [rows, vocab] before choosing token ``n_generated`` (0-based)."""
        logits = logits.clone()
        if n_generated < min_tokens:
            logits[:, self.eod_id] = NEG_INF
        if self.banned_starts.numel():
            logits[:, self.banned_starts] = NEG_INF
        if self.labels and bool(self.start_bias.any()):
            closed = (self.open < 0).nonzero().squeeze(1)
            logits[closed[:, None], self.start_ids[None, :]] += self.start_bias[None, :]
        if not self.tag_safe or not self.labels:
            return logits
        is_open = self.open >= 0
        left = max_tokens - n_generated  # tokens still allowed, this one included
        closed_rows = (~is_open).nonzero().squeeze(1)
        open_rows = is_open.nonzero().squeeze(1)
        if closed_rows.numel():
            logits[closed_rows[:, None], self.end_ids[None, :]] = NEG_INF
            if left <= 2:  # a tag opened now could not get a word and its END in time
                logits[closed_rows[:, None], self.start_ids[None, :]] = NEG_INF
        if open_rows.numel():
            closing = torch.logsumexp(logits[open_rows[:, None], self.breakers[None, :]], dim=1)
            logits[open_rows[:, None], self.start_ids[None, :]] = NEG_INF
            logits[open_rows, self.eod_id] = NEG_INF
            if self.par_id is not None:
                logits[open_rows, self.par_id] = NEG_INF
            labels = self.open[open_rows]
            own_end = self.end_ids[labels]
            logits[open_rows[:, None], self.end_ids[None, :]] = NEG_INF
            closing[self.just_opened[open_rows]] = NEG_INF  # no empty span
            logits[open_rows, own_end] = closing
            close_now = (self.span_len[open_rows] >= self.limits[labels]) | (left <= 1)  # limit or budget end
            if close_now.any():
                rows = open_rows[close_now]
                forced = torch.full_like(logits[rows], NEG_INF)
                forced[torch.arange(len(rows)), own_end[close_now]] = 0.0
                logits[rows] = forced
        return logits

    def update(self, tokens: torch.Tensor) -> None:
        """Record the tokens just chosen, one per row."""
        if not self.tag_safe and not self.labels:
            return
        new_open = self.open.clone()
        just = torch.zeros_like(self.just_opened)
        length = self.span_len.clone()
        for row, t in enumerate(tokens.tolist()):
            if t in self._label_of_start:
                new_open[row] = self._label_of_start[t]
                just[row] = True
                length[row] = 0
            elif t in self._label_of_end and self._label_of_end[t] == int(self.open[row]):
                new_open[row] = -1
                length[row] = 0
            elif int(self.open[row]) >= 0:
                length[row] += 1
        self.open, self.just_opened, self.span_len = new_open, just, length

    def select(self, rows: torch.Tensor) -> None:
        self.open = self.open[rows]
        self.just_opened = self.just_opened[rows]
        self.span_len = self.span_len[rows]
