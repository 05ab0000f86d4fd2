"""The ``torch_bilstm_crf`` tagger: its CRF against brute-force enumeration, its features, and a
small model trained on the toy notes (a few seconds on 1 thread)."""

from __future__ import annotations

import itertools
from pathlib import Path
from typing import Any

import pytest
import torch
from toy_notes import long_doc, toy_docs

from synthdeid import Document, Span, SynthdeidError
from synthdeid.corpus.formats.conll import default_tokenize
from synthdeid.plugins.bio_crf import bio_allowed
from synthdeid.plugins.torch_tagger import create
from synthdeid.plugins.torch_tagger.crf import CRF, FORBIDDEN
from synthdeid.plugins.torch_tagger.features import (
    Vocab,
    doc_windows,
    normal_word,
    shape,
)
from synthdeid.tagging import words as W

FAST = {"threads": 1, "batch_size": 8, "hidden_size": 32, "embedding_size": 32, "char_filters": 16}
TAGS = ["O", "B-Name", "I-Name", "B-Date", "I-Date"]


# ---- the CRF against enumeration of every tag sequence ----------------------------------------


def _path_score(crf: CRF, emissions: torch.Tensor, path: tuple[int, ...]) -> torch.Tensor:
    trans, start = crf._scores()
    score = start[path[0]] + emissions[0, path[0]] + crf.end[path[-1]]
    for t in range(1, len(path)):
        score = score + trans[path[t - 1], path[t]] + emissions[t, path[t]]
    return score


@pytest.fixture()
def crf() -> CRF:
    torch.manual_seed(0)
    model = CRF(TAGS)
    with torch.no_grad():
        for p in model.parameters():
            p.normal_()
            p.requires_grad_(False)
    return model


def test_nll_equals_enumerated_log_partition_minus_gold(crf: CRF) -> None:
    lengths = torch.tensor([4, 2, 1])
    emissions = torch.randn(3, 4, len(TAGS))
    gold = torch.tensor([[1, 2, 0, 3], [3, 4, 0, 0], [0, 0, 0, 0]])
    expected = 0.0
    for b, n in enumerate(lengths.tolist()):
        paths = list(itertools.product(range(len(TAGS)), repeat=n))
        scores = torch.stack([_path_score(crf, emissions[b, :n], p) for p in paths])
        expected += float(torch.logsumexp(scores, 0) - _path_score(crf, emissions[b, :n], tuple(gold[b, :n].tolist())))
    assert float(crf.nll(emissions, gold, lengths)) == pytest.approx(expected, rel=1e-5)


def test_viterbi_finds_the_enumerated_best_path(crf: CRF) -> None:
    lengths = torch.tensor([5, 3, 1])
    emissions = torch.randn(3, 5, len(TAGS)) * 3
    decoded = crf.decode(emissions, lengths)
    for b, n in enumerate(lengths.tolist()):
        paths = list(itertools.product(range(len(TAGS)), repeat=n))
        best = max(paths, key=lambda p: float(_path_score(crf, emissions[b, :n], p)))
        assert decoded[b] == list(best)


def test_bio_constraints_make_every_decoded_sequence_well_formed(crf: CRF) -> None:
    allowed, may_start = bio_allowed(TAGS)
    assert not may_start[TAGS.index("I-Name")] and may_start[TAGS.index("B-Name")]
    assert not allowed[TAGS.index("O"), TAGS.index("I-Date")]
    assert not allowed[TAGS.index("B-Name"), TAGS.index("I-Date")]
    assert allowed[TAGS.index("I-Date"), TAGS.index("I-Date")]
    emissions = torch.zeros(1, 3, len(TAGS))
    emissions[0, :, TAGS.index("I-Date")] = 50.0  # I-Date everywhere scores best without constraints
    [path] = crf.decode(emissions, torch.tensor([3]))
    assert path[0] != TAGS.index("I-Date") and FORBIDDEN < -1000
    tags = [TAGS[i] for i in path]
    assert tags[1:] == ["I-Date", "I-Date"] and tags[0] == "B-Date"


# ---- features ---------------------------------------------------------------------------------


def test_shapes_and_normal_words() -> None:
    assert shape("Jansen", False) == "Xx"
    assert shape("06-12345678", False) == "d-d"
    assert shape("J.", True) == "^X."
    assert shape("jan.jansen@mail.nl", False) == "x.x@x.x"
    assert shape("jan.de.vries@zorg.nl", False) == "x.x.~x.x"  # long shapes: 4 + 3 classes
    assert normal_word("24-12-2019") == "00-00-0000" and normal_word("Jansen") == "jansen"


def test_note_windows_cross_lines_and_mark_line_starts() -> None:
    doc = Document.create("x", "Mw. Jansen\nbelde op 12 maart.", [Span(4, 10, "Name")])
    [win] = doc_windows([doc], default_tokenize, "note", 128, labelled=True)
    assert [doc.text[a:b] for a, b in win.words] == ["Mw", ".", "Jansen", "belde", "op", "12", "maart", "."]
    assert win.line_starts == [True, False, False, True, False, False, False, False]
    assert len(doc_windows([doc], default_tokenize, "line", 128, labelled=True)) == 2
    assert [len(w.words) for w in doc_windows([doc], default_tokenize, "note", 3, labelled=True)] == [3, 3, 2]


def test_vocab_round_trips_through_json() -> None:
    vocab = Vocab.build([("Jansen", True), ("kwam", False), ("kwam", False)], ["Name"], 24)
    again = Vocab.from_json(vocab.to_json())
    assert (again.words, again.shapes, again.chars, again.tags) == (vocab.words, vocab.shapes, vocab.chars, vocab.tags)
    assert vocab.singletons == {vocab.words["jansen"]}


# ---- the tagger -------------------------------------------------------------------------------


def test_unknown_or_bad_setting_is_a_clear_error() -> None:
    with pytest.raises(SynthdeidError, match="hiden_size.*hidden_size"):
        create({"hiden_size": 64})
    with pytest.raises(SynthdeidError, match="'context' must be one of line, note, got 'page'"):
        create({"context": "page"})


def test_registered_as_a_tagger() -> None:
    from synthdeid.plugins import registry

    assert registry("tagger").create("torch_bilstm_crf", {"max_epochs": 1}).config.max_epochs == 1


@pytest.fixture(scope="module")
def trained(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    out = tmp_path_factory.mktemp("torch_tagger")
    train = toy_docs(40, seed=0)
    dev = toy_docs(10, seed=1) + [Document.create("age", "Zij is 83 jaar.", [Span(7, 14, "Age")])]
    tagger = create({**FAST, "max_epochs": 15, "patience": 4})
    metrics = tagger.train(train, dev, out, default_tokenize)
    return {"tagger": tagger, "metrics": metrics, "out": out, "train": train}


def test_learns_the_toy_data(trained: dict[str, Any]) -> None:
    unseen = toy_docs(30, seed=11)
    pred = trained["tagger"].trained.predict(unseen)
    assert W.entity_f1([d.spans for d in unseen], pred)["f1"] > 0.9
    assert trained["metrics"]["labels"] == ["Date", "Name"]
    assert trained["metrics"]["dev_labels_unseen_in_training"] == {"Age": 1}


def test_keeps_the_best_epoch(trained: dict[str, Any]) -> None:
    m = trained["metrics"]
    history = [row["dev_f1"] for row in m["history"]]
    assert m["epochs_run"] == len(history) and history[m["best_epoch"] - 1] == max(history)
    assert history.index(max(history)) == m["best_epoch"] - 1  # the first epoch reaching the best
    assert m["epochs_run"] == 15 or m["epochs_run"] - m["best_epoch"] == 4  # stopped by patience
    assert m["dev"]["f1"] == pytest.approx(max(history), abs=1e-4)


def test_saved_then_loaded_predicts_exactly_the_same(trained: dict[str, Any]) -> None:
    docs = toy_docs(20, seed=4) + [long_doc()]
    before = trained["tagger"].trained.predict(docs)
    loaded = create({}).load(trained["out"], default_tokenize)
    assert loaded.config == trained["tagger"].config  # the saved config, not the factory's
    assert loaded.predict(docs) == before
    assert {p.name for p in trained["out"].iterdir()} == {"tagger.json", "vocab.json", "model.safetensors"}


def test_predictions_are_valid_spans_to_the_end_of_long_notes(trained: dict[str, Any]) -> None:
    doc = long_doc(400)
    tail = default_tokenize(doc.text)[300][0]
    [spans] = trained["tagger"].trained.predict([doc])
    assert spans == sorted(spans)
    for a, b in itertools.pairwise(spans):
        assert a.end <= b.start
    for s in spans:
        assert 0 <= s.start < s.end <= len(doc.text) and s.label in {"Date", "Name"}
    gold_tail = {s for s in doc.spans if s.start >= tail}
    assert gold_tail and len({s for s in spans if s.start >= tail} & gold_tail) >= len(gold_tail) // 2


def test_same_seed_same_model_other_seed_other_model(tmp_path: Path) -> None:
    train, docs = toy_docs(20, seed=5), toy_docs(5, seed=6)
    runs = []
    for k, seed in enumerate((3, 3, 4)):
        tagger = create({**FAST, "max_epochs": 2, "seed": seed})
        m = tagger.train(train, toy_docs(4, seed=7), tmp_path / str(k), default_tokenize)
        runs.append(([row["train_loss"] for row in m["history"]], tagger.trained.predict(docs)))
        runs[-1] += ((tmp_path / str(k) / "model.safetensors").read_bytes(),)
    assert runs[0] == runs[1]
    assert runs[0][0] != runs[2][0]


@pytest.mark.parametrize("precision", ["fp32", "bf16"])
def test_two_threads_train_the_same_model_twice(tmp_path: Path, precision: str) -> None:
    """On two threads too, byte for byte: the character features' backward once summed a word's
    repeated rows in a thread-dependent order (advanced indexing), so two runs differed."""
    train = toy_docs(60, seed=8)
    weights = []
    for k in range(2):
        tagger = create({**FAST, "max_epochs": 2, "batch_size": 64, "threads": 2, "precision": precision})
        tagger.train(train, [], tmp_path / str(k), default_tokenize)
        weights.append((tmp_path / str(k) / "model.safetensors").read_bytes())
    assert weights[0] == weights[1]


def test_bf16_training_takes_effect_and_learns_as_well(tmp_path: Path) -> None:
    """bf16 products give other weights than float32, the same validation F1 on the toy notes and a
    training loss within 5% of it; the metrics say which arithmetic trained the model."""
    train, dev = toy_docs(40, seed=9), toy_docs(8, seed=10)
    runs, weights = {}, {}
    for precision in ("fp32", "bf16"):
        tagger = create({**FAST, "max_epochs": 3, "precision": precision})
        runs[precision] = tagger.train(train, dev, tmp_path / precision, default_tokenize)
        weights[precision] = (tmp_path / precision / "model.safetensors").read_bytes()
    assert weights["fp32"] != weights["bf16"]
    fp32, bf16 = (runs[p]["history"][-1] for p in ("fp32", "bf16"))
    assert bf16["dev_f1"] == pytest.approx(fp32["dev_f1"], abs=0.02)
    assert bf16["train_loss"] == pytest.approx(fp32["train_loss"], rel=0.05)
    assert (runs["fp32"]["precision"], runs["bf16"]["precision"]) == ("fp32", "bf16")


def test_without_validation_notes_trains_max_epochs(tmp_path: Path) -> None:
    m = create({**FAST, "max_epochs": 2}).train(toy_docs(10), [], tmp_path, default_tokenize)
    assert m["epochs_run"] == 2 and m["best_epoch"] == 2 and "dev" not in m


def test_no_spans_in_training_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(SynthdeidError, match="no PHI spans"):
        create(FAST).train([Document.create("x", "geen namen hier")], [], tmp_path, default_tokenize)


def test_loading_a_folder_without_weights_names_the_fix(trained: dict[str, Any], tmp_path: Path) -> None:
    (tmp_path / "tagger.json").write_bytes((trained["out"] / "tagger.json").read_bytes())
    with pytest.raises(SynthdeidError, match="has no model.safetensors, vocab.json\n  fix: retrain"):
        create({}).load(tmp_path, default_tokenize)


def test_a_token_budget_stops_training_after_the_epoch_that_reaches_it(tmp_path: Path) -> None:
    train = toy_docs(10)
    split = W.split_tokens(default_tokenize, "suffix")  # the default token_split
    tokens = sum(len(w.words) for w in doc_windows(train, split, "line", 128, labelled=True))
    m = create({**FAST, "max_epochs": 9, "patience": 9, "max_train_tokens": 2 * tokens + 1}).train(
        train, toy_docs(3, seed=1), tmp_path, default_tokenize
    )
    assert m["epochs_run"] == 3 and m["stopped_by"] == "max_train_tokens" and m["train_tokens"] == tokens


def test_marginals_equal_enumerated_posteriors(crf: CRF) -> None:
    lengths = torch.tensor([4, 2, 1])
    emissions = torch.randn(3, 4, len(TAGS)) * 2
    probs = crf.marginals(emissions, lengths)
    for b, n in enumerate(lengths.tolist()):
        paths = list(itertools.product(range(len(TAGS)), repeat=n))
        scores = torch.stack([_path_score(crf, emissions[b, :n], p) for p in paths])
        weights = torch.softmax(scores, 0)
        for t in range(n):
            expected = torch.zeros(len(TAGS))
            for w, path in zip(weights, paths):
                expected[path[t]] += w
            assert torch.allclose(probs[b, t], expected, atol=1e-5)
        assert torch.all(probs[b, n:] == 0)


def test_recall_biased_tags_from_marginals() -> None:
    from synthdeid.tagging.recall import recall_biased_tags

    #                 O    B-Name I-Name B-Date I-Date
    probs = torch.tensor(
        [
            [0.9, 0.05, 0.0, 0.05, 0.0],  # O at 0.5 and 0.2; PHI (Name or Date, tie) at 0.05
            [0.3, 0.6, 0.1, 0.0, 0.0],  # B-Name
            [0.4, 0.4, 0.2, 0.0, 0.0],  # continues the name (B-Name not above 0.5)
            [0.1, 0.6, 0.3, 0.0, 0.0],  # a new name: B-Name above 0.5
            [0.7, 0.0, 0.0, 0.2, 0.1],
        ]
    )  # Date at 0.3 or less, a new span
    assert [TAGS[i] for i in recall_biased_tags(probs.tolist(), TAGS, 0.5)] == ["O", "B-Name", "I-Name", "B-Name", "O"]
    assert [TAGS[i] for i in recall_biased_tags(probs.tolist(), TAGS, 0.3)] == [
        "O",
        "B-Name",
        "I-Name",
        "B-Name",
        "B-Date",
    ]


def test_lower_thresholds_find_at_least_as_much(trained: dict[str, Any]) -> None:
    docs = toy_docs(20, seed=6)
    model = trained["tagger"].trained
    counts = [sum(len(p) for p in model.predict_min_confidence(docs, t)) for t in (0.9, 0.5, 0.1)]
    gold = [d.spans for d in docs]
    viterbi = W.entity_f1(gold, model.predict(docs))
    low = W.entity_f1(gold, model.predict_min_confidence(docs, 0.1))
    assert low["recall"] >= viterbi["recall"] and low["f1"] > 0.8
    tokens = [sum(s.end - s.start for p in model.predict_min_confidence(docs, t) for s in p) for t in (0.9, 0.5, 0.1)]
    assert tokens[0] <= tokens[1] <= tokens[2] and counts[2] > 0
    with pytest.raises(SynthdeidError, match="min_confidence"):
        model.predict_min_confidence(docs, 0.0)


# ---- tokens cut for tagging (token_split) ----------------------------------------------------


def _abbreviating(line: str) -> list[tuple[int, int]]:
    """A pack tokenizer that keeps a final period on a capital letter or an ordinal (``H.``, ``4º.``)."""
    import re

    return [m.span() for m in re.finditer(r"[A-Z]\.|\w+º?\.?(?=\s|$)|\w+|[^\w\s]", line)]


def test_token_split_cuts_what_a_gold_span_may_end_on() -> None:
    line = "Sexo: H. Calle 4º. 06-1234"
    words = lambda split: [line[a:b] for a, b in W.split_tokens(_abbreviating, split)(line)]  # noqa: E731
    assert words("pack") == ["Sexo", ":", "H.", "Calle", "4º.", "06", "-", "1234"]
    assert words("suffix") == ["Sexo", ":", "H", ".", "Calle", "4º", ".", "06", "-", "1234"]
    joined = [line[a:b] for a, b in W.split_tokens(lambda t: [(0, len(t))], "punctuation")(line)]
    assert joined == ["Sexo", ":", "H", ".", "Calle", "4º", ".", "06", "-", "1234"]
    assert W.split_tokens(lambda t: [(0, len(t))], "suffix")("...") == [(0, 3)]  # no word to cut it from
    with pytest.raises(ValueError, match="pack, suffix, punctuation"):
        W.split_tokens(_abbreviating, "chars")


def _sex_notes(n: int, seed: int) -> list[Document]:
    import random

    rng, docs = random.Random(seed), []
    for i in range(n):
        sex, age = rng.choice("HM"), rng.randint(20, 90)
        text = f"Edad: {age} Sexo: {sex}.\nIngreso por dolor."
        start = text.index("Sexo: ") + 6
        docs.append(Document.create(f"n{seed}-{i}", text, [Span(start, start + 1, "Other")]))
    return docs


@pytest.mark.parametrize("split, exact", [("pack", False), ("suffix", True), ("punctuation", True)])
def test_a_span_before_a_kept_on_period_is_found_only_when_the_period_is_cut(
    tmp_path: Path, split: str, exact: bool
) -> None:
    tagger = create({**FAST, "max_epochs": 8, "token_split": split})
    tagger.train(_sex_notes(30, 0), _sex_notes(5, 1), tmp_path, _abbreviating)
    unseen = _sex_notes(10, 2)
    f1 = W.entity_f1([d.spans for d in unseen], tagger.trained.predict(unseen))["f1"]
    assert (f1 == 1.0) if exact else (f1 == 0.0)  # with the pack's tokens "H." can only be tagged whole


def test_a_tagger_saved_before_token_split_loads_with_the_packs_tokens(trained: dict[str, Any], tmp_path: Path) -> None:
    import json
    import shutil

    for f in trained["out"].iterdir():
        shutil.copy(f, tmp_path / f.name)
    meta = json.loads((tmp_path / "tagger.json").read_text(encoding="utf-8"))
    del meta["config"]["token_split"]
    (tmp_path / "tagger.json").write_text(json.dumps(meta), encoding="utf-8")
    assert create({}).load(tmp_path, default_tokenize).config.token_split == "pack"
    assert create({}).load(trained["out"], default_tokenize).config.token_split == "suffix"


def test_a_tagger_saved_with_word_dim_loads_silently(trained: dict[str, Any], tmp_path: Path) -> None:
    """A tagger.json written before ``word_dim`` became ``embedding_size`` loads, without a warning
    (the user cannot edit a trained model), and predicts the same."""
    import json
    import shutil
    import warnings

    for f in trained["out"].iterdir():
        shutil.copy(f, tmp_path / f.name)
    meta = json.loads((tmp_path / "tagger.json").read_text(encoding="utf-8"))
    meta["config"] = {("word_dim" if k == "embedding_size" else k): v for k, v in meta["config"].items()}
    (tmp_path / "tagger.json").write_text(json.dumps(meta), encoding="utf-8")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        loaded = create({}).load(tmp_path, default_tokenize)
    assert loaded.config == trained["tagger"].config
    docs = toy_docs(5, seed=4)
    assert loaded.predict(docs) == trained["tagger"].trained.predict(docs)
