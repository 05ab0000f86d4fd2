"""The linear-time tokenizer and sentence splitter (#41) give exactly the tokens and sentences of
the single-regex ones they replace, kept here as the reference: on the demo corpus (plain and
inline-tagged), the toy notes, and hypothesis-generated texts, for every built-in pack."""

from __future__ import annotations

import importlib
import re
from collections.abc import Callable, Iterable
from types import ModuleType
from unittest import mock

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from toy_notes import toy_docs

from synthdeid.corpus.inline import encode
from synthdeid.language_kit import sentences
from synthdeid.sources.demo import generate_demo_corpus

# --- the reference: the tokenizer's pattern before #41, scanned from every position ---------------
TAG = r"<(?:[A-Za-z_]+(?:START|END)|PAR|EOD)>"
EMAIL = r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+"
LATIN1_UPPER = "À-ÖØ-Þ"
LATIN1 = "À-ÖØ-öø-ÿ"
WORD = r"[^\W\d_][^\W_]*(?:['’][^\W\d_]+)*"
OLD_BOUNDARY = re.compile(r"[.!?]+[\"'”’»)\]]*(\s+)")


def old_pattern(
    abbreviations: Iterable[str], tlds: Iterable[str], number_suffix: str = "", extra_words: str = ""
) -> re.Pattern[str]:
    """``Tokenizer.__init__``'s pattern as it was before #41."""
    url = (
        r"(?:(?:https?|ftp)://|www\.)[^\s<>\"']*[^\s<>\"'.,;:!?)\]]"
        rf"|(?<![\w.@-])[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.(?:{'|'.join(tlds)})\b"
        r"(?:/[^\s<>\"']*[^\s<>\"'.,;:!?)\]])?"
    )
    known = "|".join(re.escape(a) for a in sorted(set(abbreviations), key=len, reverse=True) if a)
    abbreviation = (
        rf"(?<![\w.])(?:[A-Za-z{LATIN1}]\.){{2,}}"
        + (rf"|(?<![\w.])(?i:{known})" if known else "")
        + rf"|(?<![\w.])[A-Z{LATIN1_UPPER}]\.(?!\d)"
    )
    number = r"(?:(?<!\w)\+(?=\d))?\d+(?:[.,:/-]\d+)*" + (f"(?:{number_suffix})?" if number_suffix else "")
    word = WORD + (f"|{extra_words}" if extra_words else "")
    return re.compile("|".join(f"(?:{p})" for p in (TAG, url, EMAIL, abbreviation, number, word, r"\.{2,}", r"\S")))


SETTINGS: dict[str, tuple[tuple[str, ...], str, str]] = {
    "nl": (("nl", "com", "org", "net", "eu", "info", "io"), r"u(?![^\W\d_])", r"['’][st](?![^\W\d_])"),
    "en": (("com", "org", "net", "edu", "gov", "info", "io", "biz"), "", ""),
    "es": (("es", "com", "org", "net", "eu", "info", "io", "cat"), "[ºª°]", ""),
    "sv": (("se", "com", "org", "net", "eu", "info", "io"), "", ""),
}
"""Each built-in pack's tokenizer settings: top-level domains, number suffix, extra words."""
PACKS = tuple(SETTINGS)


def pack_module(code: str) -> ModuleType:
    return importlib.import_module(f"synthdeid.plugins.languages.{code}")


def reference(code: str) -> tuple[Callable[[str], list[tuple[int, int]]], Callable[[str], list[tuple[int, int]]]]:
    """The pack's old ``tokenize`` and ``split_sentences``."""
    tlds, suffix, extra = SETTINGS[code]
    abbreviations = importlib.import_module(f"synthdeid.plugins.languages.{code}.data").ABBREVIATIONS
    pattern = old_pattern(abbreviations, tlds, suffix, extra)
    split = pack_module(code).split_sentences

    def old_split(text: str) -> list[tuple[int, int]]:
        with mock.patch.object(sentences, "_BOUNDARY", OLD_BOUNDARY):
            return split(text)

    return (lambda text: [m.span() for m in pattern.finditer(text)]), old_split


REFERENCES = {code: reference(code) for code in PACKS}


def check(code: str, text: str) -> None:
    old_tokenize, old_split = REFERENCES[code]
    pack = pack_module(code)
    assert pack.tokenize(text) == old_tokenize(text), text
    assert pack.split_sentences(text) == old_split(text), text


@pytest.fixture(scope="module")
def corpus_texts() -> list[str]:
    demo = generate_demo_corpus(60, 0)
    toys = toy_docs(20, seed=3)
    return [d.text for d in demo + toys] + [encode(d) for d in demo[:20]]


@pytest.mark.parametrize("code", PACKS)
def test_pack_settings_are_the_references(code: str) -> None:
    """The reference is built with the pack's own settings (update SETTINGS when a pack's change)."""
    tlds, suffix, extra = SETTINGS[code]
    abbreviations = importlib.import_module(f"synthdeid.plugins.languages.{code}.data").ABBREVIATIONS
    tokenizer = importlib.import_module(f"synthdeid.plugins.languages.{code}.{'tokenizer' if code == 'nl' else 'text'}")
    assert tokenizer.TOKENIZER.pattern.pattern == old_pattern(abbreviations, tlds, suffix, extra).pattern


@pytest.mark.parametrize("code", PACKS)
def test_same_tokens_and_sentences_on_the_demo_corpus(code: str, corpus_texts: list[str]) -> None:
    for text in corpus_texts:
        check(code, text)


PIECES = (
    "a", "A", "x", "é", "Ø", "1", "12", "_", ".", "..", ",", ":", "/", "-", "+", "@", "'", "’", "<", ">", "!",
    "?", ")", "]", '"', "»", "º", "u", " ", "  ", "\n", "\t", "www.", "http://", "ftp://", ".nl", ".com", ".se",
    ".es", "umcg", "<PAR>", "<EOD>", "<NameSTART>", "<NameEND>", "dhr.", "Dr.", "Dra.", "J.", "J.P.", "t.ex.",
    "e.g.", "p.o.", "'s", "'t", "etc.", "2º", "14.30u", "06-1234", "a@b.nl", "x.y+z@", "Jansen",
)  # fmt: skip
"""Fragments of the constructs the tokenizer keeps whole, glued in any order."""

texts = st.one_of(
    st.lists(st.sampled_from(PIECES), max_size=30).map("".join),
    st.lists(st.one_of(st.sampled_from(PIECES), st.characters()), max_size=30).map("".join),
    st.text(max_size=40),
)


@pytest.mark.parametrize("code", PACKS)
@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(text=texts)
def test_same_tokens_and_sentences_on_generated_texts(code: str, text: str) -> None:
    check(code, text)
