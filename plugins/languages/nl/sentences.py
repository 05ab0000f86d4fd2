"""The Dutch sentence splitter: the shared splitter with Dutch abbreviations and initials."""

from __future__ import annotations

from synthdeid.toolkit import SentenceSplitter

from .data import SENTENCE_FINAL_ABBREVIATIONS
from .tokenizer import is_abbreviation

split_sentences = SentenceSplitter(is_abbreviation, SENTENCE_FINAL_ABBREVIATIONS).split_sentences
