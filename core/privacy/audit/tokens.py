"""Tokens of the notes an audit compares, and one shared integer vocabulary for them.

Tokens come from a language pack's tokenizer (character offsets over ``Document.text``). By
default they are lowercased, and every line break becomes a ``<PAR>`` token (the paper's paragraph
marker: Libbi et al. computed ROUGE on text in which newlines were ``<PAR>``).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from synthdeid.api import Tokenize
from synthdeid.corpus.records import Document

PAR = "<PAR>"
_LINE_BREAK = re.compile(r"\r\n|\r|\n")


@dataclass(frozen=True)
class TokenizedNote:
    """One note's tokens (normalised as configured) and their character offsets."""

    tokens: list[str]
    offsets: list[tuple[int, int]]


def tokenize_text(
    text: str, tokenize: Tokenize, lowercase: bool = True, paragraph_token: str | None = PAR
) -> TokenizedNote:
    """Tokenize ``text``; lowercase the tokens and add ``paragraph_token`` for each line break
    (``None``: line breaks are not tokens) when so configured."""
    offsets = [(int(a), int(b)) for a, b in tokenize(text)]
    if paragraph_token is not None:
        breaks = [m.span() for m in _LINE_BREAK.finditer(text)]
        if breaks:
            # tokenizers keep whitespace out of tokens; a tokenizer that returns line breaks as
            # tokens itself gets each one once
            offsets = sorted(set(offsets).union(breaks))
    tokens = []
    for a, b in offsets:
        tok = text[a:b]
        if paragraph_token is not None and _LINE_BREAK.fullmatch(tok):
            tok = paragraph_token
        elif lowercase:
            tok = tok.lower()
        tokens.append(tok)
    return TokenizedNote(tokens, offsets)


def tokenize_documents(
    docs: Sequence[Document], tokenize: Tokenize, lowercase: bool = True, paragraph_token: str | None = PAR
) -> list[TokenizedNote]:
    """``tokenize_text`` for every document."""
    return [tokenize_text(d.text, tokenize, lowercase, paragraph_token) for d in docs]


class Vocabulary:
    """Token strings to consecutive integer ids (0, 1, 2, ...), shared by all corpora of an audit."""

    def __init__(self) -> None:
        self.ids: dict[str, int] = {}
        self.tokens: list[str] = []

    def __len__(self) -> int:
        return len(self.tokens)

    def encode(self, tokens: Sequence[str]) -> np.ndarray:
        """The ids of ``tokens`` (new tokens get new ids), as an int64 array."""
        ids = self.ids
        out = np.empty(len(tokens), dtype=np.int64)
        for i, tok in enumerate(tokens):
            j = ids.get(tok)
            if j is None:
                j = ids[tok] = len(self.tokens)
                self.tokens.append(tok)
            out[i] = j
        return out

    def encode_all(self, corpus: Sequence[Sequence[str]]) -> list[np.ndarray]:
        return [self.encode(toks) for toks in corpus]


def phi_token_mask(offsets: Sequence[tuple[int, int]], doc: Document) -> np.ndarray:
    """Whether each token (by its character offsets) overlaps one of ``doc``'s PHI spans."""
    mask = np.zeros(len(offsets), dtype=bool)
    if not doc.spans or not offsets:
        return mask
    off = np.asarray(offsets, dtype=np.int64).reshape(-1, 2)
    starts = np.array([s.start for s in doc.spans], dtype=np.int64)
    ends = np.array([s.end for s in doc.spans], dtype=np.int64)  # sorted too: spans are flat
    # the first span ending after the token's start is the only one it can overlap first
    k = np.searchsorted(ends, off[:, 0], side="right")
    inside = k < len(ends)
    mask[inside] = starts[k[inside]] < off[inside, 1]
    return mask
