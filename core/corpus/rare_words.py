"""How much of a corpus's rare vocabulary is PHI: the share of the occurrences of rarely seen
words that lie inside a PHI span.

A tagger learns what an unknown word is from the rare words of its training notes (the torch
tagger reads training singletons as unknown, ``word_unk_rate``). In real notes most rare words are
ordinary (on 50 MEDDOCAN notes 14% of the singletons are PHI); in a synthetic corpus whose
generator writes only words it saw twice, nearly every rare word is a fresh surrogate (99%), and
the tagger learns "unseen word = PHI". This module measures that share so that a synthetic corpus
can be compared with its real training notes.

A word is a ``\\w+`` run, keyed as the torch tagger's vocabulary keys it (lower-cased, digits as
0); it is inside PHI when its first character lies in a span. "Rare" is seen at most ``k`` times;
to compare corpora of different sizes, ``k`` scales with the corpus (``scaled_k``): a word seen
once in the real notes is as rare as one seen twice in a synthetic corpus twice their size.
"""

from __future__ import annotations

import bisect
import re
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from synthdeid.corpus.records import Document

WORD = re.compile(r"\w+")
SMALL_CORPUS_TOKENS = 50_000
"""Training notes of fewer tokens are a small corpus, whose rare words a synthetic corpus must
mimic: ``generate.unknown_words: auto`` fills ``<unk>`` and ``utility.calibrate_unknown_words:
auto`` calibrates the synthetic taggers' unknown words below it. Set between two measurements
(docs/utility.md): on 45 MEDDOCAN notes (21k tokens) filling lifted the synthetic-only tagger
from 0.92x to 0.995x of the real one, calibrating alone to 1.003x; on 450 (231k tokens) filling
lowered it from 0.947x to 0.921x and calibrating to 0.937x (3 seeds each, the same language
model). The demo (95k tokens) does neither (filling forced, it lost 0.017 F1)."""
_DIGIT = re.compile(r"\d")


def word_key(word: str) -> str:
    """A word as the torch tagger's vocabulary keys it: lower-cased, every digit 0."""
    return _DIGIT.sub("0", word.lower())


def _words(doc: Document) -> Iterable[tuple[str, bool]]:
    """(key, inside PHI) of every word of ``doc``."""
    starts = [s.start for s in doc.spans]
    for m in WORD.finditer(doc.text):
        i = bisect.bisect_right(starts, m.start()) - 1
        yield word_key(m.group()), i >= 0 and m.start() < doc.spans[i].end


@dataclass(frozen=True)
class RareWordShare:
    """Occurrences of the words seen at most ``k`` times in a corpus, and how many lie in PHI."""

    k: int
    words: int
    """Word occurrences in the corpus."""
    rare: int
    """Occurrences of words seen at most ``k`` times."""
    rare_in_phi: int

    @property
    def share(self) -> float:
        """The share of the rare occurrences inside PHI (0 when there are none)."""
        return self.rare_in_phi / self.rare if self.rare else 0.0

    def as_dict(self) -> dict[str, float | int]:
        return {
            "k": self.k,
            "words": self.words,
            "rare": self.rare,
            "rare_in_phi": self.rare_in_phi,
            "phi_share": round(self.share, 4),
        }


def rare_word_share(docs: Sequence[Document], k: int = 1) -> RareWordShare:
    """The PHI share of the words of ``docs`` seen at most ``k`` times (``k=1``: singletons)."""
    if k < 1:
        raise ValueError(f"k must be at least 1, got {k}")
    seen = [w for d in docs for w in _words(d)]
    counts = Counter(key for key, _ in seen)
    rare = [inside for key, inside in seen if counts[key] <= k]
    return RareWordShare(k=k, words=len(seen), rare=len(rare), rare_in_phi=sum(rare))


def word_count(docs: Iterable[Document]) -> int:
    """Word occurrences (``\\w+`` runs) in ``docs``."""
    return sum(len(WORD.findall(d.text)) for d in docs)


def scaled_k(words: int, reference_words: int) -> int:
    """The ``k`` of a corpus of ``words`` words that is as rare as a singleton of a corpus of
    ``reference_words`` words: their ratio, rounded, at least 1."""
    return max(1, round(words / reference_words)) if reference_words > 0 else 1


def compare_rare_words(real: Sequence[Document], synthetic: Sequence[Document]) -> dict[str, object]:
    """The rare-word PHI share of a synthetic corpus beside its real training notes': singletons
    in both, and the synthetic corpus's words seen at most ``k`` times with ``k`` scaled by its
    size (``scaled_k``); ``gap_points`` is the scaled share minus the real singletons' share, in
    percentage points (0: the tagger sees PHI among rare words as often as in real notes)."""
    reference = rare_word_share(real, 1)
    k = scaled_k(word_count(synthetic), reference.words)
    scaled = rare_word_share(synthetic, k)
    return {
        "real": reference.as_dict(),
        "synthetic_singletons": rare_word_share(synthetic, 1).as_dict(),
        "synthetic_scaled": scaled.as_dict(),
        "gap_points": round(100 * (scaled.share - reference.share), 1),
    }
