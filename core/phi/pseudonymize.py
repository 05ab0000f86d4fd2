"""Replace every PHI span of a document by a surrogate from a language pack."""

from __future__ import annotations

from collections.abc import Callable, Collection

from synthdeid.api import KeepsTypeWords, LanguagePack
from synthdeid.corpus.records import Document, Span
from synthdeid.errors import SurrogateError
from synthdeid.phi.head_words import NONE, HeadWords
from synthdeid.phi.seeds import derive_seed


def substitute(doc: Document, replace: Callable[[Span, str], str | None]) -> Document:
    """``doc`` with each span's text replaced by ``replace(span, text)`` (``None`` keeps the text),
    the spans' offsets shifted to the new text and everything between the spans untouched."""
    pieces: list[str] = []
    spans: list[Span] = []
    pos = 0
    length = 0
    for span in doc.spans:
        before = doc.text[pos : span.start]
        pieces.append(before)
        length += len(before)
        original = doc.text[span.start : span.end]
        new = replace(span, original)
        new = original if new is None else new
        spans.append(Span(length, length + len(new), span.label))
        pieces.append(new)
        length += len(new)
        pos = span.end
    pieces.append(doc.text[pos:])
    return Document.create(doc.id, "".join(pieces), spans)


def pseudonymize(
    doc: Document, pack: LanguagePack, seed: int, labels: Collection[str] | None = None, heads: HeadWords = NONE
) -> Document:
    """The document with each span's text replaced by a surrogate and offsets shifted; with
    ``labels``, only the spans of those labels (the others keep their text).

    A label kept as it is (``tags.keep_unmapped``) gets the surrogate of the canonical tag the
    pack's ``tag_map`` maps it onto (the Spanish pack knows MEDDOCAN's labels); the span keeps
    its label. With ``heads``, a span keeps its generic head words (``Apotheek`` of ``Apotheek
    Dorpskade``) and only the rest is drawn; a span of head words only keeps its text. Fails
    closed: a span without an acceptable surrogate raises ``SurrogateError`` naming the document
    and span; no other PHI passes through unchanged.
    """
    source = pack.surrogates(doc.id, derive_seed(seed, doc.id))

    def replace(span: Span, original: str) -> str | None:
        if labels is not None and span.label not in labels:
            return None
        if heads.is_generic(span.label, original):
            return None
        kind = pack.tag_map.get(span.label, span.label)
        try:
            keep = heads.words(span.label)
            if keep and isinstance(source, KeepsTypeWords) and source.keeps_type_words(kind):
                new = source.surrogate(original, kind, keep=keep)  # the pack keeps them with its own type words
            else:
                new = heads.surrogate(span.label, original, lambda text: source.surrogate(text, kind))
        except SurrogateError as e:
            raise SurrogateError(f"document {doc.id!r}, span {span.start}-{span.end} {span.label}: {e}") from None
        if not new or new.strip() != new or new == original:
            raise SurrogateError(
                f"document {doc.id!r}, span {span.start}-{span.end} {span.label}: the language pack "
                f"{pack.code!r} returned an unusable surrogate {new!r} (empty, padded or equal to the original)"
            )
        return new

    return substitute(doc, replace)
