"""The English tokenizer and sentence splitter: the shared ones with English clinical abbreviations
("Dr.", "approx.", "s/p", "y/o"; dotted ones such as "p.o." and "b.i.d." are whole tokens anyway).

No sentence ends after an abbreviation that comes before what it qualifies ("Dr.", "No.", "Jan.",
"e.g.") or inside a number ("2.5 mg"); one that comes after it ("b.i.d.", "mg.", "p.m.", "etc.")
ends a sentence only before a capitalised word or a number."""

from __future__ import annotations

from synthdeid.toolkit import SentenceSplitter, Tokenizer

from .data import ABBREVIATIONS, SENTENCE_FINAL_ABBREVIATIONS

# no "us" (a word) among the bare-domain endings
TOKENIZER = Tokenizer(ABBREVIATIONS, tlds=("com", "org", "net", "edu", "gov", "info", "io", "biz"))
tokenize = TOKENIZER.tokenize
is_abbreviation = TOKENIZER.is_abbreviation
split_sentences = SentenceSplitter(is_abbreviation, SENTENCE_FINAL_ABBREVIATIONS).split_sentences
