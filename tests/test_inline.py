import string

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from synthdeid import Document, InputError, Span
from synthdeid.corpus.formats.conll import default_tokenize
from synthdeid.corpus.inline import EOD, PAR, decode, encode, special_tokens

LABELS = ["Name", "Date", "Care_Institute", "Phone_fax"]


def test_paper_format():
    d = Document.create("a", "Dhr. Jan Jansen\nbelde.", [Span(5, 15, "Name")])
    assert encode(d) == "Dhr. <NameSTART> Jan Jansen <NameEND> <PAR> belde. <EOD>"
    assert encode(d, tokenize=default_tokenize) == "Dhr . <NameSTART> Jan Jansen <NameEND> <PAR> belde . <EOD>"


@st.composite
def documents(draw):
    alphabet = string.ascii_letters + " .,-\n\t" + "éëü"
    text = draw(st.text(alphabet=alphabet, min_size=1, max_size=60).filter(lambda t: t.strip()))
    cuts = sorted(draw(st.sets(st.integers(0, len(text)), max_size=8)))
    spans = []
    for a, b in zip(cuts[::2], cuts[1::2]):
        if a < b:
            spans.append(Span(a, b, draw(st.sampled_from(LABELS))))
    return Document.create("h", text, spans)


@settings(max_examples=300, deadline=None)
@given(documents())
def test_lossless_round_trip(doc):
    decoded = decode(encode(doc), doc.id, trim=False)
    assert decoded.document == doc
    assert decoded.ended
    assert decoded.count("well_formed") == len(doc.spans)
    assert all(decoded.count(k) == 0 for k in ("unclosed", "unopened", "nested", "crossing", "empty"))


@settings(max_examples=300, deadline=None)
@given(documents())
def test_tokenized_round_trip_keeps_every_span_and_its_words(doc):
    line = encode(doc, tokenize=default_tokenize)
    assert "\n" not in line and line.endswith(EOD)
    decoded = decode(line, doc.id)

    def tokenized(piece):
        lines = piece.split("\n")
        return "\n".join(" ".join(line[x:y] for x, y in default_tokenize(line)) for line in lines).strip()

    words = [tokenized(doc.surface(s)) for s in doc.spans]
    got = [decoded.document.surface(s) for s in decoded.document.spans]
    # spans holding only whitespace or nothing tokenizable come back as empty tags, counted
    assert got == [w for w in words if w]
    assert decoded.count("empty") == sum(1 for w in words if not w)
    assert [s.label for s in decoded.document.spans] == [s.label for s, w in zip(doc.spans, words) if w]


def test_malformed_tags_are_counted_and_removed_words_kept():
    text = (
        "Mw. <NameSTART> de Vries <NameEND> kwam <DateSTART> gisteren <NameSTART> x <DateEND> y "
        "<NameEND> en <AgeSTART> <AgeEND> <NameSTART> Piet <PAR> ok <FooSTART> z <FooEND> <NameEND> "
        "<DateEND> los <PhoneSTART> 06 <EOD> after the end"
    )
    r = decode(text, "g", labels=["Name", "Date", "Age", "Phone"])
    doc = r.document
    assert doc.text == "Mw. de Vries kwam gisteren x y en  Piet\nok z los 06"
    assert [(doc.surface(s), s.label) for s in doc.spans] == [("de Vries", "Name"), ("Piet\nok z", "Name")]
    assert r.counts["Date"] == dict(r.counts["Date"], crossing=1, unopened=1, well_formed=0)
    assert r.counts["Name"]["crossing"] == 1 and r.counts["Name"]["well_formed"] == 2
    assert r.counts["Age"]["empty"] == 1
    assert r.counts["Foo"]["unknown"] == 2
    assert r.counts["Phone"]["unclosed"] == 1
    assert r.ended


def test_nested_outer_tag_is_dropped_inner_kept():
    r = decode("<Care_InstituteSTART> Zorgcentrum <NameSTART> De Linde <NameEND> <Care_InstituteEND>", "n")
    assert [(r.document.surface(s), s.label) for s in r.document.spans] == [("De Linde", "Name")]
    assert r.counts["Care_Institute"]["nested"] == 1
    assert r.document.text == "Zorgcentrum De Linde"


def test_no_document_is_dropped_even_if_all_tags_are_bad():
    r = decode("<NameEND> <PAR> <DateSTART>", "x")
    assert r.document.id == "x" and r.document.text == "\n" and not r.document.spans
    assert not r.ended


def test_reserved_tokens_in_text_are_rejected():
    with pytest.raises(InputError, match="reserved token '<PAR>'"):
        encode(Document.create("a", "zie <PAR> hier"))


def test_unencodable_label():
    with pytest.raises(InputError, match="cannot be written as an inline tag"):
        encode(Document.create("a", "Jan", [Span(0, 3, "NAME-X")]))


def test_special_tokens():
    assert special_tokens(["Name"]) == [PAR, EOD, "<NameSTART>", "<NameEND>"]
