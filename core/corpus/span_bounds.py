"""What a synthetic corpus's spans may be: only labels the real training notes have spans of, and
no longer, in the language pack's tokens, than the longest training span of their label plus
``SPAN_MARGIN``.

A generator that opens a tag it never saw used, or a span that runs on, teaches every tagger
trained on the corpus nonsense: on MEDDOCAN one 500-character URL_IP span (a label with no training
spans, filled with random letters) made the lstm_temp tagger predict giant spans of prose.
Generation masks such tags (``synthdeid.generation.tagmask``); ``postprocess`` and
``machine_annotate`` reject, counted by reason, every note that still breaks a bound (a backend
without the mask, a tagger that annotates a long run)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from synthdeid.api import Tokenize
from synthdeid.corpus.records import Document

UNKNOWN_WORD = "<unk>"
"""How a word-level generator writes a word outside its vocabulary: one word (a pack's tokenizer
would split it into ``<``, ``unk`` and ``>``)."""

SPAN_MARGIN = 2
"""Tokens a synthetic span may exceed its label's longest training span by; generation's span limit
(``generate.max_span_tokens: auto``) allows as much in the model's tokens (a subword tokenizer may
split the same words differently in context)."""


@dataclass(frozen=True)
class SpanBounds:
    """label -> tokens of its longest span in the training notes."""

    longest: Mapping[str, int]
    margin: int = SPAN_MARGIN

    @classmethod
    def of(cls, training: Iterable[Document], tokenize: Tokenize) -> "SpanBounds":
        longest: dict[str, int] = {}
        for doc in training:
            for span in doc.spans:
                n = _tokens(doc.text[span.start:span.end], tokenize)
                longest[span.label] = max(longest.get(span.label, 0), n)
        return cls(longest)

    def violation(self, doc: Document, tokenize: Tokenize) -> str | None:
        """Why ``doc`` breaks the bounds (a counted rejection reason), or ``None``."""
        for span in doc.spans:
            if span.label not in self.longest:
                return f"a {span.label} span, a label the training notes have no spans of"
            if _tokens(doc.text[span.start:span.end], tokenize) > self.longest[span.label] + self.margin:
                return (f"a {span.label} span longer than the training notes' longest "
                        f"({self.longest[span.label]} tokens, +{self.margin})")
        return None

    def as_dict(self) -> dict[str, object]:
        return {"longest_training_span_tokens": dict(sorted(self.longest.items())), "margin_tokens": self.margin}


def _tokens(text: str, tokenize: Tokenize) -> int:
    return len(tokenize(text.replace(UNKNOWN_WORD, "x")))
