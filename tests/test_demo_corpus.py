"""The embedded demo corpus: deterministic, valid gold spans, realistic size, tag mix and variety.

Thresholds were measured on n=2000 for seeds 0-4 and set with a margin (see each test):
distinct lines ~0.74, distinct sentences of >= 5 tokens ~0.89, most frequent masked line
template ~0.8% of all lines, ~185k whitespace tokens, Name ~53% of the spans.
"""

from __future__ import annotations

import random
import re
from collections import Counter

import pytest

from synthdeid import CANONICAL_TAGS, Document, TagSet
from synthdeid.sources.demo import (
    bsn_valid,
    generate_demo_corpus,
    generate_demo_corpus_with_types,
)
from synthdeid.sources.demo.builder import TextBuilder
from synthdeid.sources.demo.typos import add_typos

N = 2000


@pytest.fixture(scope="module")
def typed() -> list[tuple[str, Document]]:
    return generate_demo_corpus_with_types(N, 0)


@pytest.fixture(scope="module")
def docs(typed: list[tuple[str, Document]]) -> list[Document]:
    return [d for _, d in typed]


@pytest.fixture(scope="module")
def counts(docs: list[Document]) -> Counter:
    return Counter(s.label for d in docs for s in d.spans)


def _masked_lines(docs: list[Document]) -> list[str]:
    """Lines with PHI replaced by its label and digits by 0: the line's template."""
    out = []
    for d in docs:
        parts, pos = [], 0
        for s in d.spans:
            parts += [d.text[pos : s.start], "@" + s.label]
            pos = s.end
        parts.append(d.text[pos:])
        out += [re.sub(r"\d+", "0", line.strip()) for line in "".join(parts).split("\n") if line.strip()]
    return out


# -- determinism and API ---------------------------------------------------------------------
def test_same_seed_gives_identical_corpus(docs: list[Document]) -> None:
    again = generate_demo_corpus(N, 0)
    assert [d.to_dict() for d in again] == [d.to_dict() for d in docs]


def test_different_seeds_differ(docs: list[Document]) -> None:
    other = generate_demo_corpus(50, 1)
    assert [d.text for d in other] != [d.text for d in docs[:50]]


def test_global_random_state_is_untouched() -> None:
    random.seed(123)
    expected = random.random()
    random.seed(123)
    generate_demo_corpus(20, 5)
    assert random.random() == expected


def test_ids_and_count(docs: list[Document]) -> None:
    assert len(docs) == N
    assert docs[0].id == "demo-00001" and docs[-1].id == f"demo-{N:05d}"
    assert len({d.id for d in docs}) == N
    assert generate_demo_corpus(0, 0) == []


def test_small_corpus_is_deterministic() -> None:
    assert [d.text for d in generate_demo_corpus(7, 3)] == [d.text for d in generate_demo_corpus(7, 3)]


# -- spans -----------------------------------------------------------------------------------
def test_spans_are_valid_and_canonical(docs: list[Document]) -> None:
    tagset = TagSet()
    for d in docs:
        d.validate(tagset)  # offsets inside the text, no overlaps, known labels
        for s in d.spans:
            assert s.label in CANONICAL_TAGS
            surface = d.text[s.start : s.end]
            assert surface == surface.strip() and surface, (d.id, surface)
            assert "\n" not in surface, (d.id, surface)
            assert surface[0] not in ",;:)" and surface[-1] not in ",;:(", (d.id, surface)


def test_titles_are_outside_name_spans(docs: list[Document]) -> None:
    titles = ("mw.", "mw ", "dhr.", "dhr ", "mevr.", "mevrouw ", "meneer ", "dr.")
    for d in docs:
        for s in d.spans:
            if s.label == "Name":
                assert not d.text[s.start : s.end].lower().startswith(titles), (d.id, d.surface(s))


def test_all_tags_occur_at_least_ten_times(counts: Counter) -> None:
    missing = {t: counts.get(t, 0) for t in CANONICAL_TAGS if counts.get(t, 0) < 10}
    assert not missing


def test_tag_distribution_follows_table_1(counts: Counter) -> None:
    total = sum(counts.values())
    ranked = [t for t, _ in counts.most_common()]
    assert ranked[0] == "Name"
    assert 0.45 <= counts["Name"] / total <= 0.75
    assert set(ranked[1:3]) == {"Date", "Initials"}
    for tag in ("Date", "Initials"):
        assert 0.08 <= counts[tag] / total <= 0.22, tag
    for tag in ("Address", "Care_Institute", "Organization_Company"):
        assert 0.015 <= counts[tag] / total <= 0.06, tag
    for tag in set(CANONICAL_TAGS) - {"Name", "Date", "Initials", "Address", "Care_Institute", "Organization_Company"}:
        assert counts[tag] / total < 0.03, tag


def test_bsn_spans_pass_the_11_proef(docs: list[Document]) -> None:
    bsns = [re.sub(r"\D", "", d.surface(s)) for d in docs for s in d.spans if s.label == "SSN"]
    assert bsns and all(bsn_valid(b) for b in bsns)
    assert bsn_valid("111222333") and not bsn_valid("123456789")


def test_some_notes_have_no_phi(docs: list[Document]) -> None:
    empty = sum(1 for d in docs if not d.spans)
    assert 0.01 * N <= empty <= 0.3 * N


# -- text ------------------------------------------------------------------------------------
def test_no_angle_brackets(docs: list[Document]) -> None:
    assert not any("<" in d.text or ">" in d.text for d in docs)


def test_corpus_size(docs: list[Document]) -> None:
    lengths = [len(d.text.split()) for d in docs]
    assert 150_000 <= sum(lengths) <= 260_000
    assert min(lengths) <= 12 and max(lengths) >= 250  # short messages up to long intake forms


def test_document_types(typed: list[tuple[str, Document]]) -> None:
    kinds = Counter(k for k, _ in typed)
    assert len(kinds) >= 10
    assert max(kinds.values()) / N < 0.3


def test_variety(docs: list[Document]) -> None:
    """Measured (seeds 0-4): ~74% of lines distinct, ~89% of sentences of >= 5 tokens distinct,
    the most common masked line (a form label such as "Afspraken:") ~0.8% of lines. The limits
    leave a margin but fail if a template starts to dominate or notes start repeating."""
    lines = [line.strip() for d in docs for line in d.text.split("\n") if line.strip()]
    assert len(set(lines)) / len(lines) >= 0.6
    sentences = [s.strip() for d in docs for s in re.split(r"(?<=[.!?])\s+|\n", d.text) if len(s.split()) >= 5]
    assert len(set(sentences)) / len(sentences) >= 0.8
    masked = Counter(_masked_lines(docs))
    assert masked.most_common(1)[0][1] / sum(masked.values()) < 0.02
    assert len({d.text for d in docs}) == N
    vocabulary = {t.lower() for d in docs for t in d.text.split()}
    assert len(vocabulary) >= 8000


def test_writing_styles(docs: list[Document]) -> None:
    texts = [d.text for d in docs]
    assert sum(t[:1].islower() for t in texts) >= 20  # sloppy lower-case messages
    assert sum("\n\n" in t for t in texts) >= 200  # multi-paragraph notes
    assert sum(bool(re.search(r"^(- |\* |\d+[.)] |• )", t, re.M)) for t in texts) >= 100  # lists
    for abbreviation in ("mw.", "dhr.", "cl.", "i.v.m.", "z.n.", "evt."):
        assert any(abbreviation in t for t in texts), abbreviation


# -- building blocks -------------------------------------------------------------------------
def test_builder_offsets_survive_lowercase_and_typos() -> None:
    rng = random.Random(0)
    b = TextBuilder(rng)
    b.render("[Mw.|Mw.] ", {}).phi("Anna de Vries", "Name").text(" heeft vandaag heerlijk geslapen, ")
    b.phi("12-03-2019", "Date").text(".")
    doc = b.build("x", lower=True, lower_phi=False, typo_rate=0.5)
    assert [doc.surface(s) for s in doc.spans] == ["Anna de Vries", "12-03-2019"]
    assert doc.text.startswith("mw. ")


def test_typos_keep_short_words_and_first_letters() -> None:
    rng = random.Random(1)
    text = "De cliënt heeft goed gegeten en gedronken vandaag"
    out = add_typos(text, rng, 1.0)
    assert out != text
    assert [w[0] for w in out.split()] == [w[0] for w in text.split()]
    assert add_typos(text, rng, 0.0) == text
