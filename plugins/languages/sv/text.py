"""The Swedish tokenizer and sentence splitter: the shared ones with Swedish abbreviations
("t.ex.", "bl.a.", "kl.")."""

from __future__ import annotations

from synthdeid.toolkit import SentenceSplitter, Tokenizer

from .data import ABBREVIATIONS, SENTENCE_FINAL_ABBREVIATIONS

TOKENIZER = Tokenizer(ABBREVIATIONS, tlds=("se", "com", "org", "net", "eu", "info", "io"))
tokenize = TOKENIZER.tokenize
split_sentences = SentenceSplitter(TOKENIZER.is_abbreviation, SENTENCE_FINAL_ABBREVIATIONS).split_sentences
