"""What a language pack provides: tokenizer, sentence splitter, surrogates and tag mapping."""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Protocol

Offsets = list[tuple[int, int]]


class DocumentSurrogates(Protocol):
    """Surrogates for the PHI of one document, consistent within it.

    ``surrogate(original, label)`` returns a realistic replacement of the same kind; the same
    original (and its variants, e.g. "J. Jansen" / "Jan Jansen") always gets the same
    replacement within the document; the replacement never equals the original; a label the
    pack cannot handle raises ``SurrogateError`` (fail closed, never pass PHI through).
    """

    def surrogate(self, original: str, label: str) -> str: ...


@dataclass(frozen=True)
class LanguagePack:
    """One language's text tools. Offsets are character ranges ``(start, end)`` into the text."""

    code: str
    name: str
    tokenize: Callable[[str], Offsets]
    split_sentences: Callable[[str], Offsets]
    surrogates: Callable[[str, int], DocumentSurrogates]
    """``surrogates(doc_id, seed)``: a fresh, seeded surrogate source for one document."""
    tag_map: Mapping[str, str] = field(default_factory=dict)
    """Labels of this language's annotators or corpora mapped onto the canonical tags."""
    canary_template: str | None = None
    """The model canaries' sentence in this language (``synthdeid.canaries``): single-space separated
    tokens as the pack tokenizes them, inline tags, ``{}`` slots for the secret, ending in ``<EOD>``.
    None: the built-in (Dutch) sentence."""

    def tokens(self, text: str) -> list[str]:
        return [text[a:b] for a, b in self.tokenize(text)]


def derive_seed(seed: int, *parts: object) -> int:
    """A stable 63-bit seed from a base seed and e.g. a document id (independent of order)."""
    h = hashlib.sha256(repr((int(seed), *map(str, parts))).encode("utf-8")).digest()
    return int.from_bytes(h[:8], "big") >> 1
