"""The Spanish tokenizer and sentence splitter: the shared ones with Spanish abbreviations
("Dra.", "p.ej.", "c/"), ordinals kept with their number ("2º") and "¿"/"¡" opening a sentence."""

from __future__ import annotations

from synthdeid.toolkit import SentenceSplitter, Tokenizer

from .data import ABBREVIATIONS, SENTENCE_FINAL_ABBREVIATIONS

TOKENIZER = Tokenizer(ABBREVIATIONS, tlds=("es", "com", "org", "net", "eu", "info", "io", "cat"), number_suffix="[ºª°]")
tokenize = TOKENIZER.tokenize
split_sentences = SentenceSplitter(TOKENIZER.is_abbreviation, SENTENCE_FINAL_ABBREVIATIONS).split_sentences
