"""Filling the ``<unk>`` a word-level LM wrote with ordinary words, so a synthetic note has rare
ordinary words as real notes do.

A word-level LM learns the words it saw at least ``min_count`` times; the rarer ones are its
``<unk>``. An LM that never writes ``<unk>`` writes only frequent words outside the PHI spans,
and a synthetic note's rare words are then nearly all fresh surrogates: a tagger trained on it
learns "unseen word = PHI" (``synthdeid.corpus.rare_words`` measures it). With
``generate.unknown_words: fill`` the LM writes ``<unk>`` at the rate it learned, and postprocess
puts an ordinary word in each place:

- the word comes from the language pack's ``ordinary_words`` (a public frequency list), never a
  word of the training notes (so never a training PHI string, never a training singleton), drawn
  uniformly with a seed per note;
- its shape is drawn from the shapes of the training notes' own rare tokens outside PHI (the
  tokens the LM saw as ``<unk>``): lower-case, capitalised (most of German's nouns) or upper-case
  words take a word in that case; a number-like token (``37,5``) gets random digits in its shape;
  punctuation is kept as it was.

An ``<unk>`` inside a PHI span is filled the same way; a label with fresh surrogates then replaces
the span's text, so only a label without them keeps the word (counted apart).
"""

from __future__ import annotations

import random
import re
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from synthdeid.api import LanguagePack, Tokenize
from synthdeid.corpus.rare_words import SMALL_CORPUS_TOKENS
from synthdeid.corpus.records import Document, Span
from synthdeid.errors import SynthdeidError
from synthdeid.phi.seeds import derive_seed

UNKNOWN = "<unk>"
_UNKNOWN = re.compile(r"(?<!\S)<unk>(?!\S)")
LOWER, TITLE, UPPER = "lower", "title", "upper"


def token_shape(token: str) -> str:
    """What a filled token copies of a rare training token: ``lower``/``title``/``upper`` for one
    with letters; else the token with each digit as ``d`` (``37,5`` -> ``dd,d``)."""
    letters = [c for c in token if c.isalpha()]
    if letters:
        if len(letters) > 1 and all(c.isupper() for c in letters):
            return UPPER
        return TITLE if letters[0].isupper() else LOWER
    return re.sub(r"\d", "d", token)


def _digits(shape: str, rng: random.Random) -> str:
    out = []
    for i, c in enumerate(shape):
        if c == "d":
            lead = i == 0 or shape[i - 1] != "d"
            follows = i + 1 < len(shape) and shape[i + 1] == "d"
            out.append(str(rng.randint(1 if lead and follows else 0, 9)))
        else:
            out.append(c)
    return "".join(out)


def rare_shapes(notes: Sequence[Document], tokenize: Tokenize, min_count: int) -> tuple[str, ...]:
    """The shapes (``token_shape``) of the tokens of ``notes`` outside PHI that a word-level LM
    with threshold ``min_count`` reads as ``<unk>`` (seen fewer times; at least: seen once), one
    per occurrence, so a draw follows their distribution."""
    counts: Counter[str] = Counter()
    outside: list[str] = []
    for d in notes:
        spans = [(s.start, s.end) for s in d.spans]
        for a, b in tokenize(d.text):
            token = d.text[a:b]
            counts[token] += 1
            if not any(s <= a < e for s, e in spans):
                outside.append(token)
    return tuple(token_shape(t) for t in outside if counts[t] < max(2, min_count))


@dataclass(frozen=True)
class Filled:
    """What the filling of a corpus did (postprocess's ``unknown_words`` metrics)."""

    notes: int = 0
    unknown: int = 0
    """``<unk>`` tokens filled."""
    inside_phi: int = 0
    """Of those, inside a PHI span."""
    by_shape: dict[str, int] = field(default_factory=dict)

    def as_dict(self) -> dict[str, object]:
        return {
            "notes_with_unknown": self.notes,
            "filled": self.unknown,
            "inside_phi": self.inside_phi,
            "by_shape": dict(sorted(self.by_shape.items())),
        }


@dataclass(frozen=True)
class UnknownFiller:
    """Fills ``<unk>`` tokens with ``words`` in the case or digit shape of one of ``shapes``."""

    words: tuple[str, ...]
    shapes: tuple[str, ...]
    seed: int

    @classmethod
    def of(
        cls,
        ordinary: Sequence[str],
        lm_notes: Sequence[Document],
        tokenize: Tokenize,
        min_count: int,
        seed: int,
        also_exclude: Iterable[Document] = (),
    ) -> UnknownFiller:
        """The filler of a corpus whose LM learned from ``lm_notes`` (the pseudonymized training
        notes) with the ``<unk>`` threshold ``min_count``: the ``ordinary`` words that are no word
        of those notes nor of ``also_exclude`` (the real training notes, with their PHI), and the
        shapes of the LM notes' tokens seen fewer than ``min_count`` times outside PHI."""
        seen = {w.lower() for d in (*lm_notes, *also_exclude) for w in re.findall(r"\w+", d.text)}
        words = tuple(w for w in ordinary if w.lower() not in seen)
        if not words:
            raise SynthdeidError(
                "the language pack's ordinary words are all words of the training notes: there is nothing "
                "to fill the LM's <unk> with; set generate.unknown_words: never"
            )
        return cls(words, rare_shapes(lm_notes, tokenize, min_count) or (LOWER,), seed)

    def _token(self, rng: random.Random) -> tuple[str, str]:
        shape = rng.choice(self.shapes)
        if shape in (LOWER, TITLE, UPPER):
            word = rng.choice(self.words)
            return {LOWER: word, TITLE: word[:1].upper() + word[1:], UPPER: word.upper()}[shape], shape
        if "d" in shape:
            return _digits(shape, rng), "number"
        return shape, "other"

    def fill(self, doc: Document) -> tuple[Document, Counter[str], int]:
        """``doc`` with each ``<unk>`` filled (spans shifted), the fills by shape and how many lay in a span."""
        hits = list(_UNKNOWN.finditer(doc.text))
        if not hits:
            return doc, Counter(), 0
        rng = random.Random(derive_seed(self.seed, "unknown", doc.id))
        pieces, shift, pos = [], [], 0
        shapes: Counter[str] = Counter()
        grown = 0
        for m in hits:
            token, shape = self._token(rng)
            shapes[shape] += 1
            pieces += [doc.text[pos : m.start()], token]
            grown += len(token) - len(UNKNOWN)
            shift.append((m.end(), grown))
            pos = m.end()
        pieces.append(doc.text[pos:])

        def moved(offset: int) -> int:
            return offset + next((g for end, g in reversed(shift) if end <= offset), 0)

        inside = sum(1 for m in hits for s in doc.spans if s.start <= m.start() < s.end)
        spans = [Span(moved(s.start), moved(s.end), s.label) for s in doc.spans]
        return Document.create(doc.id, "".join(pieces), spans), shapes, inside


def has_unknown(text: str) -> bool:
    """Whether ``text`` holds an ``<unk>`` token."""
    return _UNKNOWN.search(text) is not None


def writes_unknown(setting: str, pack: LanguagePack, corpus: str, training_tokens: int, dp: bool = False) -> bool:
    """Whether corpus ``corpus``'s word-level LM writes ``<unk>`` (``generate.unknown_words``:
    ``fill``, ``never`` or ``auto``: fill when ``pack`` has ordinary words to fill it with and the
    training notes hold fewer than ``SMALL_CORPUS_TOKENS`` tokens, ``training_tokens``). A ``dp``
    generator's corpus never fills: the filler reads the training notes (their words, the shapes of
    their rare tokens) outside the DP guarantee; ``fill`` is refused for it."""
    if setting == "never":
        return False
    if dp:
        if setting == "fill":
            raise SynthdeidError(
                f"corpora.{corpus}: unknown_words is fill, but its generator trains with DP: filling reads the "
                "training notes' words and rare-token shapes outside the DP guarantee; set unknown_words: never "
                "(or auto) for this corpus"
            )
        return False
    if pack.ordinary_words is None:
        if setting == "fill":
            raise SynthdeidError(
                f"corpora.{corpus}: unknown_words is fill, but the language pack {pack.code!r} has no ordinary "
                "words to fill <unk> with (LanguagePack.ordinary_words); set generate.unknown_words: auto or "
                "never, or give the pack a word list (synthdeid.toolkit.public_words)"
            )
        return False
    return setting == "fill" or training_tokens < SMALL_CORPUS_TOKENS
