"""What a synthetic corpus's spans may be: only labels the real training notes have spans of, and
no longer, in the language pack's tokens, than the longest training span of their label plus
``SPAN_MARGIN``.

A generator that opens a tag it never saw used, or a span that runs on, teaches every tagger
trained on the corpus nonsense: on MEDDOCAN one 500-character URL_IP span (a label with no training
spans, filled with random letters) made the lstm_temp tagger predict giant spans of prose.
Generation masks such tags (``synthdeid.generation.tagmask``); ``postprocess`` and
``machine_annotate`` remove every span that still breaks a bound (a backend without the mask, a
run-on span of a weakly trained model, a tagger that annotates a long run) together with its text,
counted by reason, and reject a note only when nothing is left of it."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

from synthdeid.corpus.records import Document, Span

if TYPE_CHECKING:
    from synthdeid.corpus.tokens import Tokenize

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
    def of(cls, training: Iterable[Document], tokenize: Tokenize) -> SpanBounds:
        longest: dict[str, int] = {}
        for doc in training:
            for span in doc.spans:
                n = _tokens(doc.text[span.start : span.end], tokenize)
                longest[span.label] = max(longest.get(span.label, 0), n)
        return cls(longest)

    def why_outside(self, doc: Document, span: Span, tokenize: Tokenize) -> str | None:
        """Why ``span`` of ``doc`` is outside the bounds (a counted reason), or ``None``."""
        if span.label not in self.longest:
            return f"a {span.label} span, a label the training notes have no spans of"
        if _tokens(doc.text[span.start : span.end], tokenize) > self.longest[span.label] + self.margin:
            return (
                f"a {span.label} span longer than the training notes' longest "
                f"({self.longest[span.label]} tokens, +{self.margin})"
            )
        return None

    def trim(self, doc: Document, tokenize: Tokenize) -> tuple[Document | None, list[str]]:
        """``doc`` without its spans outside the bounds, each removed with its text (a tagger must
        learn it neither as PHI nor as plain words: it is a run-on or a label nobody wrote), and
        the reason for each; ``None`` when nothing but whitespace is left."""
        cuts, reasons = [], []
        for span in doc.spans:
            if why := self.why_outside(doc, span, tokenize):
                cuts.append(span)
                reasons.append(why)
        if not cuts:
            return doc, []
        text, spans, pos = "", [], 0
        for piece_end, cut in [*((c.start, c) for c in cuts), (len(doc.text), None)]:
            piece = doc.text[pos:piece_end]
            kept = piece.strip()
            if kept:
                offset = len(text) + (1 if text else 0) - (len(piece) - len(piece.lstrip())) - pos
                text = f"{text} {kept}" if text else kept
                spans += [
                    Span(sp.start + offset, sp.end + offset, sp.label)
                    for sp in doc.spans
                    if pos <= sp.start and sp.end <= piece_end and sp not in cuts
                ]
            pos = cut.end if cut is not None else pos
        return (Document.create(doc.id, text, spans) if text else None), reasons

    def as_dict(self) -> dict[str, object]:
        return {"longest_training_span_tokens": dict(sorted(self.longest.items())), "margin_tokens": self.margin}


def _tokens(text: str, tokenize: Tokenize) -> int:
    return len(tokenize(text.replace(UNKNOWN_WORD, "x")))
