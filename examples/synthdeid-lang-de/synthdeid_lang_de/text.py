"""The German tokenizer and sentence splitter: synthdeid's shared ones with German abbreviations
("z.B.", "Hr.", "Z.n.") and "14.30h" kept whole; ordinals ("12. März") end no sentence."""

from __future__ import annotations

import re

from synthdeid.toolkit import SentenceSplitter, Tokenizer

from .data import ABBREVIATIONS, SENTENCE_FINAL_ABBREVIATIONS

TOKENIZER = Tokenizer(ABBREVIATIONS, tlds=("de", "com", "org", "net", "eu", "info", "io", "at", "ch"),
                      number_suffix=r"h(?![^\W\d_])")
tokenize = TOKENIZER.tokenize
_ORDINAL = re.compile(r"\d{1,2}\.")


def _no_sentence_end(word: str) -> bool:
    """Abbreviations, initials and ordinals ("am 12. März", "3. Tag") do not end a sentence."""
    return TOKENIZER.is_abbreviation(word) or _ORDINAL.fullmatch(word) is not None


split_sentences = SentenceSplitter(_no_sentence_end, SENTENCE_FINAL_ABBREVIATIONS).split_sentences
