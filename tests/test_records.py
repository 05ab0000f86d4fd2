import pytest

from synthdeid import CANONICAL_TAGS, Document, InputError, Span, TagSet
from synthdeid.corpus.formats.jsonl import record_to_document
from synthdeid.corpus.records import label_counts


def test_create_sorts_and_validates():
    d = Document.create("d1", "Jan Jansen op 12-03", [Span(14, 19, "Date"), Span(0, 10, "Name")])
    assert [s.label for s in d.spans] == ["Name", "Date"]
    assert d.surface(d.spans[0]) == "Jan Jansen"


@pytest.mark.parametrize(
    "span, words",
    [
        (Span(0, 99, "Name"), "outside the text"),
        (Span(-1, 3, "Name"), "outside the text"),
        (Span(3, 3, "Name"), "start >= end"),
        (Span(4, 2, "Name"), "start >= end"),
    ],
)
def test_bad_offsets_name_the_document_and_fix(span, words):
    with pytest.raises(InputError) as e:
        Document.create("note-7", "Jan Jansen", [span])
    assert words in str(e.value)
    assert "note-7" in str(e.value)
    assert "fix:" in str(e.value)


def test_overlapping_spans_are_rejected_with_both_surfaces():
    with pytest.raises(InputError, match="overlap") as e:
        Document.create("n", "Jan Jansen", [Span(0, 10, "Name"), Span(4, 10, "Name")])
    assert "'Jan Jansen'" in str(e.value) and "'Jansen'" in str(e.value)


def test_touching_spans_are_fine():
    d = Document.create("n", "JanJansen", [Span(0, 3, "Name"), Span(3, 9, "Name")])
    assert len(d.spans) == 2


def test_empty_document_is_an_error():
    with pytest.raises(InputError, match="empty"):
        Document.create("n", "  \n ")


def test_labels_are_mapped_or_rejected():
    ts = TagSet(CANONICAL_TAGS, {"persoon": "Name"})
    d = Document.create("n", "Jan", [Span(0, 3, "persoon")], tagset=ts)
    assert d.spans[0].label == "Name"
    with pytest.raises(InputError, match="unknown label 'Alien'") as e:
        Document.create("n", "Jan", [Span(0, 3, "Alien")], tagset=ts)
    assert "tags.mapping" in str(e.value)
    kept = Document.create("n", "Jan", [Span(0, 3, "Alien")], tagset=TagSet(keep_unmapped=True))
    assert kept.spans[0].label == "Alien"


def test_mapping_onto_a_label_outside_the_tag_set_is_an_error():
    with pytest.raises(InputError, match="outside the tag set"):
        TagSet(CANONICAL_TAGS, {"x": "NotATag"})


def test_from_dict_errors():
    with pytest.raises(InputError, match="missing key"):
        record_to_document({"text": "x"})
    with pytest.raises(InputError, match="non-integer"):
        record_to_document({"id": "a", "text": "xyz", "spans": [{"start": "0", "end": 1, "label": "Name"}]})
    with pytest.raises(InputError, match="needs start, end and label"):
        record_to_document({"id": "a", "text": "xyz", "spans": [{"start": 0, "end": 1}]})
    with pytest.raises(InputError, match="JSON object"):
        record_to_document(["a"])


def test_canonical_tags_are_the_16_nut_tags():
    assert len(CANONICAL_TAGS) == 16 and len(set(CANONICAL_TAGS)) == 16
    assert {"Name", "Initials", "Care_Institute", "Phone_fax", "URL_IP", "SSN"} <= set(CANONICAL_TAGS)


def test_label_counts():
    docs = [
        Document.create("a", "Jan 12", [Span(0, 3, "Name"), Span(4, 6, "Age")]),
        Document.create("b", "Piet", [Span(0, 4, "Name")]),
    ]
    assert label_counts(docs) == {"Age": 1, "Name": 2}
