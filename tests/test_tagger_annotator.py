"""The ``tagger`` annotator: a trained tagger directory annotates notes for the annotate stage,
in batches, for any language pack; and the ``vakili`` preset of the transformers tagger."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

os.environ.setdefault("HF_HUB_OFFLINE", "1")

from toy_notes import toy_docs

from synthdeid import Document, Span, SynthdeidError
from synthdeid.phi.annotate import BATCH, annotate_documents
from synthdeid.plugin_system.manager import registry
from synthdeid.plugins.hf_tagger import create
from synthdeid.tagging import words as W


@pytest.fixture(scope="module")
def tagger_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("tagger")
    tokenize = registry("language").create("nl").tokenize
    create({"threads": 1, "batch_size": 8, "max_epochs": 10}).train(
        toy_docs(40, seed=0), toy_docs(10, seed=1), out, tokenize
    )
    return out


def test_annotates_like_the_loaded_tagger(tagger_dir: Path) -> None:
    docs = toy_docs(BATCH + 6, seed=5)  # more than one batch
    annotator = registry("annotator").create("tagger", {"model": str(tagger_dir), "language": "nl"})
    annotated = list(annotate_documents(docs, annotator))
    tokenize = registry("language").create("nl").tokenize
    expected = create({}).load(tagger_dir, tokenize).predict(docs)
    assert [d.id for d in annotated] == [d.id for d in docs]
    assert [list(d.spans) for d in annotated] == [list(s) for s in expected]
    assert annotator.annotate(docs[0].text) == list(expected[0])
    # the toy tagger (entity F1 ~0.98 on its own notes) finds the PHI of unseen toy notes too
    assert W.entity_f1([d.spans for d in docs], [d.spans for d in annotated])["f1"] > 0.7


def test_a_directory_without_a_tagger_is_named(tmp_path: Path) -> None:
    with pytest.raises(SynthdeidError, match=r"holds no trained tagger.*tagger\.json"):
        registry("annotator").create("tagger", {"model": str(tmp_path), "language": "nl"})
    with pytest.raises(SynthdeidError, match="setting .language. field required"):
        registry("annotator").create("tagger", {"model": str(tmp_path)})


class Batched:
    """An annotator with ``annotate_many``: records its batch sizes."""

    def __init__(self) -> None:
        self.calls: list[int] = []

    def annotate(self, text: str) -> list[Span]:  # pragma: no cover - the batched path is used
        raise AssertionError("annotate_many should be used")

    def annotate_many(self, texts: list[str]) -> list[list[Span]]:
        self.calls.append(len(texts))
        return [[Span(0, 3, "Name")] for _ in texts]


def test_batched_annotators_get_every_note_once_in_order() -> None:
    docs = [Document.create(f"d{i}", f"Jan {i}", []) for i in range(2 * BATCH + 1)]
    annotator = Batched()
    out = list(annotate_documents(docs, annotator))
    assert annotator.calls == [BATCH, BATCH, 1]
    assert [d.id for d in out] == [d.id for d in docs] and all(d.spans == (Span(0, 3, "Name"),) for d in out)


def test_a_batched_annotator_that_loses_notes_fails() -> None:
    class Lossy(Batched):
        def annotate_many(self, texts: list[str]) -> list[list[Span]]:
            return [[] for _ in texts[1:]]

    with pytest.raises(SynthdeidError, match="spans for 1 of 2 notes"):
        list(annotate_documents([Document.create(f"d{i}", "x", []) for i in range(2)], Lossy()))


def test_vakili_preset_sets_table_9_and_yields_to_explicit_keys() -> None:
    cfg: Any = create({"preset": "vakili"}).config
    assert (cfg.learning_rate, cfg.weight_decay, cfg.batch_size, cfg.max_epochs, cfg.max_words) == (
        1e-4,
        1e-5,
        16,
        6,
        128,
    )
    assert create({"preset": "vakili", "max_epochs": 2}).config.max_epochs == 2
    with pytest.warns(DeprecationWarning, match="'epochs' is deprecated, use 'max_epochs'"):
        assert create({"preset": "vakili", "epochs": 2}).config.max_epochs == 2  # over the preset's value
    with pytest.raises(SynthdeidError, match="unknown preset 'bert'.*vakili"):
        create({"preset": "bert"})
