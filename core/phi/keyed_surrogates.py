"""Surrogates for one note of a release: keyed by the run's secret, and never an original.

The language pack never gives a span its own text back, but a surrogate may happen to be another
PHI string of the same note ("Bos" -> "Visser" in a note where Visser is the patient's name), or
hold one ("Smit" in "de Smit"). The output would then show an original. Such a draw is made
again with the next keyed seed; a note for which every draw does it is refused (fail closed)."""

from __future__ import annotations

import re
from collections.abc import Iterable

from synthdeid.api import LanguagePack
from synthdeid.corpus.records import Document
from synthdeid.errors import SurrogateError
from synthdeid.phi.pseudonymize import pseudonymize
from synthdeid.phi.surrogate_key import SurrogateKey

DRAWS = 16
"""Keyed draws tried per note before it is refused."""
_WORDS = re.compile(r"\w+|[^\w\s]")


def keyed_pseudonymize(doc: Document, pack: LanguagePack, key: SurrogateKey, also: Iterable[str] = ()) -> Document:
    """``doc`` with surrogates seeded by ``key`` and the note's id; no surrogate equals or holds
    (as whole words, case-insensitively) a PHI string of the note, nor one of ``also`` (the parts
    and variants of its names, ``name_variants``)."""
    originals = {_words(doc.surface(s)) for s in doc.spans} | {_words(a) for a in also}
    originals.discard(())
    longest = max((len(o) for o in originals), default=0)
    for draw in range(DRAWS):
        out = pseudonymize(doc, pack, key.seed(doc.id if draw == 0 else f"{doc.id}\x00draw {draw}"))
        if not any(_holds(_words(out.surface(s)), originals, longest) for s in out.spans):
            return out
    raise SurrogateError(
        f"document {doc.id!r}: each of {DRAWS} keyed draws gave a surrogate that is (or holds) another PHI "
        "string of the note; the language pack's lists may be too small"
    )


def _words(text: str) -> tuple[str, ...]:
    return tuple(w.casefold() for w in _WORDS.findall(text))


def _holds(words: tuple[str, ...], originals: set[tuple[str, ...]], longest: int) -> bool:
    """Whether a run of ``words`` is one of ``originals`` (runs up to ``longest`` words: linear)."""
    return any(
        words[i : i + n] in originals for i in range(len(words)) for n in range(1, min(longest, len(words) - i) + 1)
    )
