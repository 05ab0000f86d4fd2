"""The rare-word PHI share (synthdeid.corpus.rare_words) on crafted corpora."""

from __future__ import annotations

import pytest

from synthdeid.corpus.rare_words import compare_rare_words, rare_word_share, scaled_k, word_key
from synthdeid.corpus.records import Document, Span


def doc(id: str, text: str, *phi: str) -> Document:
    """A document whose spans are the first occurrence of each ``phi`` string (label Name)."""
    spans = []
    for p in phi:
        start = text.index(p)
        spans.append(Span(start, start + len(p), "Name"))
    return Document.create(id, text, spans)


def test_keys_are_the_taggers_lower_cased_digits_as_zero() -> None:
    assert word_key("Jansen") == "jansen"
    assert word_key("06-1234") == "00-0000"
    assert word_key("ÄRZTIN") == "ärztin"


def test_singletons_inside_phi_are_counted_by_their_first_character() -> None:
    docs = [
        doc("a", "de patient Jan Jansen kreeg koorts", "Jan Jansen"),
        doc("b", "de patient kreeg hoofdpijn"),
    ]
    share = rare_word_share(docs, 1)
    # words: de x2, patient x2, kreeg x2 (frequent); jan, jansen, koorts, hoofdpijn (singletons)
    assert (share.words, share.rare, share.rare_in_phi) == (10, 4, 2)
    assert share.share == pytest.approx(0.5)


def test_a_word_seen_twice_is_rare_only_with_k_two() -> None:
    docs = [doc("a", "Smit en Smit", "Smit en Smit"), doc("b", "en koorts")]
    assert rare_word_share(docs, 1).rare == 1  # koorts; en (2) and smit (2) are not singletons
    two = rare_word_share(docs, 2)
    assert (two.rare, two.rare_in_phi) == (5, 3)  # smit x2 and en of a in PHI; en of b, koorts not


def test_case_and_digits_merge_words() -> None:
    docs = [doc("a", "Koorts 38 en koorts 39")]
    # koorts and Koorts are one word; 38 and 39 are one key (00); en is the only singleton
    assert rare_word_share(docs, 1).rare == 1


def test_an_empty_corpus_has_share_zero_and_k_must_be_positive() -> None:
    assert rare_word_share([], 1).share == 0.0
    with pytest.raises(ValueError, match="k must be at least 1"):
        rare_word_share([], 0)


def test_scaled_k_follows_the_size_ratio() -> None:
    assert scaled_k(100, 100) == 1
    assert scaled_k(200_000, 100_000) == 2
    assert scaled_k(50, 100) == 1
    assert scaled_k(10, 0) == 1


def test_a_synthetic_corpus_whose_rare_words_are_all_surrogates_is_far_from_real() -> None:
    real = [
        doc("r1", "pijn in de buik bij Jansen", "Jansen"),
        doc("r2", "misselijk en pijn in de rug"),
    ]
    # real singletons: buik, bij, jansen, misselijk, en, rug -> 1 of 6 in PHI
    synthetic = [doc(f"s{i}", f"pijn in de buik bij Naam{chr(97 + i)}x", f"Naam{chr(97 + i)}x") for i in range(4)]
    report = compare_rare_words(real, synthetic)
    assert report["real"]["phi_share"] == pytest.approx(1 / 6, abs=1e-4)
    # synthetic: 24 words vs 11 real -> k = 2; pijn/in/de/buik/bij seen 4 times; each name once
    assert report["synthetic_scaled"]["k"] == 2
    assert report["synthetic_scaled"]["phi_share"] == 1.0
    assert report["gap_points"] == pytest.approx(83.3, abs=0.1)
