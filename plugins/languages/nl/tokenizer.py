"""The Dutch tokenizer: the shared regex tokenizer with Dutch abbreviations, Dutch bare-domain TLDs
("de" and "nu" are Dutch words), times like "14.30u" and "'s"/"'t" as words."""

from __future__ import annotations

from synthdeid.toolkit import Tokenizer

from .data import ABBREVIATIONS

TOKENIZER = Tokenizer(
    ABBREVIATIONS,
    tlds=("nl", "com", "org", "net", "eu", "info", "io"),
    number_suffix=r"u(?![^\W\d_])",
    extra_words=r"['’][st](?![^\W\d_])",
)
tokenize = TOKENIZER.tokenize
is_abbreviation = TOKENIZER.is_abbreviation
