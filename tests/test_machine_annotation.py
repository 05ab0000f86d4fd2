"""The machine-annotation route (Vakili et al.): tag stripping for an untagged generator, generation
from a model without tag tokens (tag-safe masking on), and annotating its notes with a tagger
trained on gold spans. Tiny models built here."""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest
import torch
from toy_notes import toy_docs

from synthdeid import Document, InputError, Span, SynthdeidError
from synthdeid.api import GenerationSettings, TrainingData
from synthdeid.corpus.accounting import Counts
from synthdeid.corpus.formats.conll import default_tokenize
from synthdeid.corpus.inline import EOD, PAR, decode, encode, special_tokens, strip_tags
from synthdeid.corpus.stats import write_phi_distribution
from synthdeid.generation.generate import generate_corpus
from synthdeid.generation.lm import uses_tags
from synthdeid.generation.tagmask import TagMask
from synthdeid.generation.toy_lm import BigramLM
from synthdeid.phi.machine_annotate import annotation_stats, machine_annotate
from synthdeid.plugins import registry
from synthdeid.plugins.flair_tagger import create

TAG = re.compile(r"<[A-Za-z][A-Za-z0-9_]*?(?:START|END)>")


def untagged(doc: Document) -> Document:
    return Document.create(doc.id, doc.text, [])


# ---- stripping the tags -------------------------------------------------------------------------


def test_strip_tags_equals_encoding_without_spans() -> None:
    docs = toy_docs(30, seed=5)
    assert sum(bool(d.spans) for d in docs) > 20
    for doc in docs:
        for tokenize in (None, default_tokenize):
            stripped = strip_tags(encode(doc, tokenize))
            assert stripped == encode(untagged(doc), tokenize)
            assert not TAG.search(stripped) and stripped.endswith(EOD)
        # the lossless form decodes back to the note without spans
        assert decode(strip_tags(encode(doc)), doc.id, trim=False).document == untagged(doc)


def test_strip_tags_keeps_par_eod_and_words_of_any_label() -> None:
    text = "<NameSTART> Jan <NameEND> <PAR> op <MyTagSTART> 3 mei <PAR> 2020 <MyTagEND> . <EOD>"
    assert strip_tags(text) == f"Jan {PAR} op 3 mei {PAR} 2020 . {EOD}"
    assert strip_tags("geen tags <PAR> hier") == "geen tags <PAR> hier"
    assert strip_tags("Dhr. <NameSTART> Jan") == "Dhr. Jan"  # a prompt cut inside a tag


def test_uses_tags_defaults_to_true_and_checks_the_type() -> None:
    from synthdeid.spec import validate
    from synthdeid.spec.study import GeneratorSection

    assert uses_tags(GeneratorSection(plugin="lstm")) is True
    assert uses_tags(GeneratorSection(plugin="lstm", tags=False)) is False
    with pytest.raises(InputError, match="generators.raw.tags: must be true or false"):
        validate({"generators": {"raw": {"plugin": "lstm", "tags": "no"}}})


# ---- generating without tag tokens --------------------------------------------------------------


def test_tag_mask_without_tag_tokens_only_enforces_the_minimum_length() -> None:
    lm = BigramLM(["a", "b", "c"], labels=())
    mask = TagMask(lm.vocab, lm.eod_id, tag_safe=True)
    assert mask.labels == []
    mask.reset([[3], []])
    logits = torch.zeros(2, len(lm.vocab))
    early = mask.apply(logits, 0, min_tokens=2, max_tokens=5)
    assert (early[:, lm.eod_id] == float("-inf")).all()
    assert torch.equal(mask.apply(logits, 4, min_tokens=2, max_tokens=5), logits)
    mask.update(torch.tensor([lm.eod_id, 3]))
    mask.select(torch.tensor([1]))


@pytest.mark.parametrize(
    "decoder,config", [("nucleus", {"top_p": 0.95}), ("greedy", {}), ("temperature", {}), ("beam", {"num_beams": 2})]
)
def test_decoders_drive_a_model_without_tag_tokens(decoder: str, config: dict[str, Any]) -> None:
    lines = [strip_tags(encode(d, default_tokenize)) for d in toy_docs(40)]
    lm = BigramLM.fit(lines, labels=())
    assert not any(TAG.fullmatch(t) for t in lm.vocab)
    prompts = [" ".join(line.split()[:3]) for line in lines[:6]]
    settings = GenerationSettings(min_tokens=4, max_tokens=15, batch_size=3, tag_safe=True)
    notes = generate_corpus(lm, registry("decoder").create(decoder, config), prompts, settings, 60, seed=0)
    assert notes
    for prompt, text in notes:
        assert text.startswith(prompt) and not TAG.search(text)
        assert decode(text, "n").document.spans == ()


def test_untagged_lstm_learns_no_tag_tokens_and_generates_plain_notes(tmp_path: Path) -> None:
    docs = toy_docs(80, seed=2)
    lines = [strip_tags(encode(d, default_tokenize)) for d in docs]
    data = TrainingData(lines[:70], lines[70:], special_tokens([]))
    gen = registry("generator").create(
        "lstm",
        {
            "layers": 1,
            "embedding_size": 16,
            "hidden_size": 16,
            "batch_size": 8,
            "seq_len": 10,
            "min_count": 1,
            "max_epochs": 1,
            "threads": 1,
        },
    )
    gen.train(data, tmp_path)
    lm = gen.load(tmp_path)
    assert PAR in lm.vocab and EOD in lm.vocab and not any(TAG.fullmatch(t) for t in lm.vocab)
    prompts = [strip_tags(" ".join(encode(d, default_tokenize).split()[:3])) for d in docs[70:]]
    settings = GenerationSettings(min_tokens=3, max_tokens=12, batch_size=4, tag_safe=True)
    notes = generate_corpus(lm, registry("decoder").create("nucleus", {}), prompts, settings, 40, seed=0)
    assert notes and not any(TAG.search(text) for _, text in notes)


# ---- machine annotation -------------------------------------------------------------------------


@pytest.fixture(scope="module")
def gold_tagger(tmp_path_factory: pytest.TempPathFactory) -> Any:
    """A tiny flair tagger trained on gold toy notes, loaded back from its folder."""
    out = tmp_path_factory.mktemp("gold")
    tagger = create({"threads": 1, "batch_size": 8, "hidden_size": 64, "max_epochs": 8})
    tagger.train(toy_docs(40, seed=0), toy_docs(10, seed=1), out, default_tokenize)
    return tagger.load(out, default_tokenize)


def test_machine_annotate_annotates_every_note_and_counts_the_empty_one(gold_tagger: Any) -> None:
    gold = toy_docs(20, seed=3)
    raw = [untagged(d) for d in gold] + [Document.create("empty", "  ", [], allow_empty=True)]
    counts = Counts("machine_annotate@test")
    out = machine_annotate(raw, gold_tagger, counts)
    summary = counts.as_dict()
    assert summary["documents_in"] == 21 and summary["documents_out"] == 20
    assert summary["rejected_reasons"] == {"empty note": 1}
    assert [d.id for d in out] == [d.id for d in gold] and [d.text for d in out] == [d.text for d in gold]
    found = {(d.id, s) for d in out for s in d.spans}
    truth = {(d.id, s) for d in gold for s in d.spans}
    assert len(found & truth) / len(truth) > 0.6  # the tiny tagger recovers most gold spans
    stats = annotation_stats(raw, out)
    assert stats["spans"] == len(found) and set(stats["spans_per_tag"]) <= {"Name", "Date"}
    assert stats["input_spans_replaced"] == 0


class FixedTagger:
    """A TrainedTagger stand-in that returns given spans per document id."""

    def __init__(self, spans: dict[str, list[Span]], drop_last: bool = False) -> None:
        self.spans, self.drop_last = spans, drop_last

    def predict(self, docs: Sequence[Document]) -> list[list[Span]]:
        out = [self.spans.get(d.id, []) for d in docs]
        return out[:-1] if self.drop_last else out


def test_require_phi_drops_and_counts_notes_without_phi_and_input_spans_are_replaced() -> None:
    docs = [Document.create("a", "Jan belde.", [Span(4, 9, "Date")]), Document.create("b", "Goed geslapen.")]
    counts = Counts("t")
    out = machine_annotate(docs, FixedTagger({"a": [Span(0, 3, "Name")]}), counts, require_phi=True)
    assert [d.spans for d in out] == [(Span(0, 3, "Name"),)]
    assert counts.as_dict()["rejected_reasons"] == {"no PHI found (require_phi)": 1}
    assert annotation_stats(docs, out)["input_spans_replaced"] == 1


def test_bad_tagger_output_is_an_error_naming_the_note() -> None:
    docs = [Document.create("a", "Jan belde.")]
    with pytest.raises(InputError, match="document 'a'.*invalid span"):
        machine_annotate(docs, FixedTagger({"a": [Span(0, 30, "Name")]}), Counts("t"), source="x.jsonl")
    with pytest.raises(SynthdeidError, match="predicted 0 of 1 notes of x.jsonl"):
        machine_annotate(docs, FixedTagger({}, drop_last=True), Counts("t"), source="x.jsonl")


def test_a_tagger_that_found_no_phi_anywhere_is_named_as_the_cause() -> None:
    from synthdeid.phi.machine_annotate import require_some_phi

    docs = [Document.create("a", "Jan belde."), Document.create("b", "Goed geslapen.")]
    nothing = machine_annotate(docs, FixedTagger({}), Counts("t"))
    with pytest.raises(
        InputError,
        match=r"machine_annotate@m: the tagger data/taggers/real found no PHI in any of "
        r"the 2 notes: it learned nothing",
    ) as err:
        require_some_phi(docs, nothing, "machine_annotate@m", "the tagger data/taggers/real", "raw.jsonl")
    assert "max_train_tokens" in str(err.value) and "raw.jsonl" in str(err.value)
    found = machine_annotate(docs, FixedTagger({"a": [Span(0, 3, "Name")]}), Counts("t"))
    require_some_phi(docs, found, "machine_annotate@m", "the tagger", "raw.jsonl")  # one span is enough
    require_some_phi([], [], "machine_annotate@m", "the tagger", "raw.jsonl")  # nothing to annotate


def test_phi_distribution_plot_file(tmp_path: Path) -> None:
    real = toy_docs(10, seed=0)
    path = write_phi_distribution(real, [untagged(d) for d in real], ["Name", "Date", "Age"], tmp_path / "p" / "x.csv")
    rows = path.read_text(encoding="utf-8").splitlines()
    assert rows[0] == "tag,real_pct,synthetic_pct,difference_pct" and len(rows) == 4
    assert rows[3] == "Age,0.0,0.0,0.0"


@pytest.mark.parametrize(
    "spec,match",
    [
        ({"corpus": "raw"}, "machine_annotated.m.tagger: missing"),
        ({"corpus": "raw", "tagger": "real", "annotator": "x"}, "machine_annotated.m.annotator: unknown key"),
        ("raw", "machine_annotated.m: must be a mapping"),
        ({"corpus": "raw", "tagger": "real", "require_phi": "yes"}, "require_phi: must be true or false"),
        ({"corpus": "m", "tagger": "real"}, "overwrite its own input corpus"),
    ],
)
def test_machine_annotated_params_are_checked(spec: Any, match: str) -> None:
    from synthdeid.phi.machine_annotate_setup import check_output
    from synthdeid.spec import validate

    with pytest.raises(InputError, match=match):
        check_output(validate({"machine_annotated": {"m": spec}}).machine_annotated["m"], "m")
    good = {"corpus": "raw", "tagger": "real", "require_phi": True}
    checked = validate({"machine_annotated": {"m": good}}).machine_annotated["m"]
    check_output(checked, "m")
    assert checked.model_dump() == {**good, "tagger_share": 1.0}


def test_spans_outside_the_training_bounds_are_removed_with_their_text_counted() -> None:
    """A tagger that annotates a long run, or a label the real training notes have no spans of:
    the span goes with its text, counted by reason; spans within the bounds stay where they were."""
    from synthdeid.corpus.span_bounds import SpanBounds

    def tokenize(text: str) -> list[tuple[int, int]]:
        out, pos = [], 0
        for word in text.split():
            pos = text.index(word, pos)
            out.append((pos, pos + len(word)))
            pos += len(word)
        return out

    real = [Document.create("r", "Jan Jansen belde op 3 mei.", [Span(0, 10, "Name"), Span(20, 25, "Date")])]
    bounds = SpanBounds.of(real, tokenize)
    assert bounds.longest == {"Name": 2, "Date": 2}
    text = "Anna Maria van der Berg belde via www.x.nl gisteren."
    docs = [Document.create("a", text), Document.create("b", text), Document.create("c", "Anna Maria van der Berg")]
    tagger = FixedTagger(
        {"a": [Span(0, 10, "Name")], "b": [Span(0, 23, "Name"), Span(34, 42, "URL_IP")], "c": [Span(0, 23, "Name")]}
    )
    counts = Counts("t")
    out = machine_annotate(docs, tagger, counts, bounds=(bounds, tokenize))
    assert [(d.id, d.text, [d.surface(s) for s in d.spans]) for d in out] == [
        ("a", text, ["Anna Maria"]),
        ("b", "belde via gisteren.", []),
    ]
    result = counts.as_dict()
    assert result["rejected_reasons"] == {"nothing left once its spans outside the training bounds were removed": 1}
    assert result["spans_dropped"] == {
        "a Name span longer than the training notes' longest (2 tokens, +2)": 2,
        "a URL_IP span, a label the training notes have no spans of": 1,
    }
