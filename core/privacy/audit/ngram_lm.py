"""An n-gram language model with add-k (Laplace) smoothing: the cheap attack model of a data-only
membership inference (Meeus et al. 2025, "The Canary's Echo"), fitted on the synthetic text alone.

Each note is padded with ``n - 1`` start and ``n - 1`` end symbols, as ``nltk.lm`` does, and
P(w | context) = (c(context, w) + k) / (c(context) + k |V|), where V is every symbol seen in
training (pads included) plus one for unknown words. With k = 1 it equals ``nltk.lm.Laplace``
(tested against it)."""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable, Sequence

START, END = "<s>", "</s>"


class LaplaceNgramLM:
    """Counts of every n-gram and its context in ``notes`` (token lists)."""

    def __init__(self, notes: Iterable[Sequence[str]], n: int = 2, k: float = 1.0) -> None:
        if not isinstance(n, int) or n < 1:
            raise ValueError(f"n must be a whole number >= 1, not {n!r}")
        if not k > 0:
            raise ValueError(f"k must be above 0, not {k!r}")
        self.n, self.k = n, float(k)
        self.grams: Counter[tuple[str, ...]] = Counter()
        self.contexts: Counter[tuple[str, ...]] = Counter()
        vocab: set[str] = set()
        for note in notes:
            padded = [START] * (n - 1) + list(note) + [END] * (n - 1)
            vocab.update(padded)
            for i in range(n - 1, len(padded)):
                gram = tuple(padded[i - n + 1 : i + 1])
                self.grams[gram] += 1
                self.contexts[gram[:-1]] += 1
        self.vocab = frozenset(vocab)
        self.vocab_size = len(vocab) + 1  # and the unknown word

    def _known(self, token: str) -> str:
        return token if token in self.vocab else "<UNK>"

    def logprob(self, word: str, context: Sequence[str]) -> float:
        """Natural log of P(word | the last n - 1 tokens of ``context``), unknown words mapped to one
        symbol; a context shorter than n - 1 is padded with start symbols."""
        ctx = ([START] * (self.n - 1) + [self._known(t) for t in context])[len(context) :]
        gram = (*ctx, self._known(word))
        return math.log((self.grams[gram] + self.k) / (self.contexts[tuple(ctx)] + self.k * self.vocab_size))

    def mean_logprob(self, tokens: Sequence[str], start: int = 0) -> float:
        """Mean log-probability of ``tokens[start:]``, each given the tokens before it (the note's
        start padded as in training)."""
        if not 0 <= start < len(tokens):
            raise ValueError(f"start {start} is outside the {len(tokens)} tokens")
        return sum(self.logprob(tokens[i], tokens[:i]) for i in range(start, len(tokens))) / (len(tokens) - start)
