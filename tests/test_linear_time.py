"""A 1 MB note without spaces or sentence ends goes through every pack's tokenizer and sentence
splitter, ``synthdeid deidentify`` and ``synthdeid convert`` in seconds (#41: the tokenizer's
e-mail alternative and the splitter's boundary rescanned ahead from every position, hours for
1 MB). Each run is a subprocess under a generous hang guard; nothing else is timed."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from adversarial_notes import note
from toy_notes import toy_docs

from synthdeid import Document, Span
from synthdeid.corpus_io import read_documents, write_documents
from synthdeid.plugin_system.manager import registry
from synthdeid.plugins.torch_tagger import create

pytestmark = pytest.mark.slow  # runs 1 MB notes through every pack in subprocesses (`make test-fast` leaves it out)

MB = 1_000_000
GUARD = 240
"""Seconds a subprocess may take: minutes where a linear run takes seconds, hours where it is not."""
TESTS = Path(__file__).resolve().parent
PACKS = ("nl", "en", "es", "sv")

CHECK_PACK = """
import importlib, sys
sys.path.insert(0, {tests!r})
from adversarial_notes import SHAPES, note
pack = importlib.import_module("synthdeid.plugins.languages.{code}")
for shape in SHAPES:
    text = note(shape, {length})
    tokens = pack.tokenize(text)
    assert sum(b - a for a, b in tokens) == len(text) - text.count(" "), shape  # every character once
    sentences = pack.split_sentences(text)
    assert sentences[0][0] == 0 and sentences[-1][1] == len(text.rstrip()), shape
print("ok")
"""


def run(args: list[str], cwd: Path | None = None) -> str:
    """stdout of ``args`` run under the hang guard (a hang fails the test by ``TimeoutExpired``)."""
    done = subprocess.run(args, cwd=cwd, capture_output=True, text=True, timeout=GUARD)
    assert done.returncode == 0, done.stderr[-3000:]
    return done.stdout


@pytest.mark.parametrize("code", PACKS)
def test_tokenize_and_split_sentences_of_1mb_adversarial_notes(code: str) -> None:
    assert run([sys.executable, "-c", CHECK_PACK.format(tests=str(TESTS), code=code, length=MB)]).strip() == "ok"


@pytest.fixture(scope="module")
def tiny_tagger(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("linear_tagger")
    fast = {"threads": 1, "batch_size": 8, "hidden_size": 16, "embedding_size": 16, "char_filters": 8}
    tokenize = registry("language").create("nl").tokenize
    create({**fast, "max_epochs": 1}).train(toy_docs(10, seed=0), toy_docs(3, seed=1), out, tokenize)
    return out


def test_deidentify_1mb_notes_end_to_end(tiny_tagger: Path, tmp_path: Path) -> None:
    notes = tmp_path / "notes"
    notes.mkdir()
    shapes = ("mixture", "letter-dash", "words")  # the last: 1 MB of words, no sentence end
    for shape in shapes:
        (notes / f"{shape}.txt").write_text(note(shape, MB), encoding="utf-8")
    out = tmp_path / "out.jsonl"
    cli = [sys.executable, "-m", "synthdeid.cli", "deidentify", str(notes), str(out)]
    run([*cli, "--model", str(tiny_tagger), "--language", "nl", "--mode", "surrogate", "--keep-ids"])
    written = {d.id: d for d in read_documents(out)}
    assert set(written) == set(shapes)


def test_convert_1mb_note_to_conll(tmp_path: Path) -> None:
    src = tmp_path / "big.jsonl"
    text = note("mixture", MB)
    write_documents([Document.create("big", text, [Span(0, 5, "Name")])], src)
    run([sys.executable, "-m", "synthdeid.cli", "convert", str(src), str(tmp_path / "big.conll")])
    [doc] = read_documents(tmp_path / "big.conll")
    assert doc.id == "big" and len(doc.spans) == 1
