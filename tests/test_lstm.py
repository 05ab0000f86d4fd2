"""The ``lstm`` generator: vocabulary, config, training (determinism, resume, LR back-off) and
the ``AutoregressiveLM`` adapter driven by the shared generation loop. Tiny models, toy text."""

from __future__ import annotations

import json
import math
import random
from pathlib import Path

import pytest
import torch
from greedy_batching import assert_batch_equals_each_alone

from synthdeid import InputError, SynthdeidError
from synthdeid.api import AutoregressiveLM, GenerationSettings, TrainingData, WritesUnknown
from synthdeid.corpus.inline import TAG_KINDS, decode, special_tokens
from synthdeid.generation.generate import generate_corpus
from synthdeid.plugins import registry
from synthdeid.plugins.lstm import UNK, LSTMConfig, LSTMGenerator, Vocab, next_lr
from synthdeid.plugins.lstm.train import (
    CHECKPOINT,
    CONFIG,
    HISTORY,
    MODEL,
    VOCAB,
    _stop,
    batchify,
)

LABELS = ["Name", "Date", "Phone_fax"]  # Phone_fax never occurs in the toy text
FIRST = ["Jan", "Piet", "Anna", "Sanne", "Kees", "Fleur"]
LAST = ["Jansen", "de Vries", "Bakker", "Visser", "Smit"]
MONTHS = ["januari", "maart", "mei", "juli", "oktober"]
SENTENCES = [
    "Cliënt heeft goed geslapen .",
    "Bloeddruk gemeten , waarde normaal .",
    "Medicatie op tijd ingenomen .",
    "Familie belde voor een afspraak .",
    "Wond verzorgd en verband vervangen .",
]


def toy_lines(n: int, seed: int) -> list[str]:
    """Toy inline-tag notes: names, dates, sentences, <PAR>, and one rare word per note."""
    rnd = random.Random(seed)
    lines = []
    for i in range(n):
        name = f"{rnd.choice(FIRST)} {rnd.choice(LAST)}"
        date = f"{rnd.randint(1, 28)} {rnd.choice(MONTHS)}"
        body = " <PAR> ".join(rnd.sample(SENTENCES, 3))
        lines.append(
            f"Gesprek met <NameSTART> {name} <NameEND> op <DateSTART> {date} <DateEND> . <PAR> "
            f"{body} zeldzaam{seed}x{i} . <EOD>"
        )
    return lines


def toy_data(n_train: int = 300, n_dev: int = 40) -> TrainingData:
    return TrainingData(toy_lines(n_train, 1), toy_lines(n_dev, 2), special_tokens(LABELS))


TINY = {
    "layers": 1,
    "embedding_size": 24,
    "hidden_size": 24,
    "batch_size": 8,
    "seq_len": 12,
    "eval_batch_size": 4,
    "min_count": 2,
    "learning_rate": 5.0,
    "dropout": 0.1,
    "max_epochs": 2,
    "seed": 3,
    "threads": 1,
}  # tiny models gain nothing from a second thread (and lose a lot on a busy machine)


def generator(**overrides) -> LSTMGenerator:
    return registry("generator").create("lstm", {**TINY, **overrides})


@pytest.fixture(scope="module")
def trained(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("lstm")
    generator(max_epochs=4, layers=2).train(toy_data(), out)
    return out


@pytest.fixture(autouse=True, scope="module")
def _restore_threads():
    """Loading a model sets torch's thread count for generation: restore it for other tests."""
    threads = torch.get_num_threads()
    yield
    torch.set_num_threads(threads)


# vocabulary -------------------------------------------------------------------------------------


def test_vocab_unk_and_special_tokens():
    specials = special_tokens(LABELS)
    vocab = Vocab.build(["a a b <NameSTART> c <NameEND> <EOD>", "a b d <EOD>"], specials, min_count=2)
    assert vocab.tokens[0] == UNK and vocab.unk_id == 0
    for tok in specials:  # seen once, or never (<PAR>, Date, Phone_fax): always one id
        assert vocab.tokens.count(tok) == 1
    assert "c" not in vocab.tokens and "d" not in vocab.tokens
    assert vocab.tokens.index("a") < vocab.tokens.index("b")  # most frequent first
    ids = vocab.encode("a c <Phone_faxSTART> onbekend <EOD>")
    assert ids == [vocab.index["a"], 0, vocab.index["<Phone_faxSTART>"], 0, vocab.eod_id]
    assert vocab.decode(ids) == "a <unk> <Phone_faxSTART> <unk> <EOD>"


def test_vocab_is_deterministic_and_round_trips(tmp_path):
    lines = toy_lines(50, 0)
    a = Vocab.build(lines, special_tokens(LABELS), 2)
    b = Vocab.build(list(reversed(lines)), special_tokens(LABELS), 2)
    assert a == b
    a.save(tmp_path / "vocab.json")
    assert Vocab.load(tmp_path / "vocab.json") == a


# config -----------------------------------------------------------------------------------------


def test_registry_creates_the_lstm_generator():
    gen = registry("generator").create("lstm", {})
    assert isinstance(gen, LSTMGenerator) and gen.name == "lstm" and gen.config == LSTMConfig()


def test_unknown_setting_lists_the_valid_ones():
    with pytest.raises(SynthdeidError, match="hidden_sise") as err:
        registry("generator").create("lstm", {"hidden_sise": 100})
    for valid in ("hidden_size", "min_count", "max_epochs", "seed", "threads"):
        assert valid in str(err.value)


@pytest.mark.parametrize(
    "config",
    [
        {"tied": True, "embedding_size": 100, "hidden_size": 200},
        {"dropout": 1.0},
        {"layers": 0},
        {"max_epochs": 2.5},
        {"tied": "yes"},
        {"learning_rate": 0},
        {"preset": "huge"},
    ],
)
def test_invalid_settings_are_refused(config):
    with pytest.raises(SynthdeidError, match="lstm"):
        registry("generator").settings("lstm", config)


def test_paper_preset():
    paper = LSTMConfig.paper()
    assert (paper.layers, paper.embedding_size, paper.hidden_size, paper.tied) == (2, 650, 650, True)
    assert (paper.dropout, paper.learning_rate, paper.lr_backoff, paper.min_lr) == (0.5, 20.0, 4.0, 0.1)
    assert (paper.batch_size, paper.seq_len, paper.min_count, paper.max_epochs, paper.grad_clip) == (
        20,
        35,
        10,
        50,
        0.25,
    )
    assert registry("generator").settings("lstm", {"preset": "paper", "max_epochs": 3}) == LSTMConfig.paper(
        max_epochs=3
    )
    with pytest.warns(DeprecationWarning, match="'lr' is deprecated"):  # a former name overrides the preset too
        cfg = registry("generator").settings("lstm", {"preset": "paper", "lr": 5})
    assert (cfg.learning_rate, cfg.layers) == (5.0, 2)
    with pytest.raises(SynthdeidError, match="unknown preset 'huge'; presets: default, paper"):
        LSTMConfig(preset="huge")  # type: ignore[call-arg]


# training ---------------------------------------------------------------------------------------


def test_next_lr_backs_off_by_four_to_a_floor():
    assert next_lr(20.0, 4.0, 5.0) == 20.0  # improved: unchanged
    assert next_lr(20.0, 5.0, 5.0) == 5.0  # not improved (equal): divided by 4
    lr, seen = 20.0, []
    for _ in range(6):
        lr = next_lr(lr, 3.0, 2.0)
        seen.append(lr)
    assert seen == [5.0, 1.25, 0.3125, 0.1, 0.1, 0.1]
    assert next_lr(1.0, 3.0, math.inf) == 1.0  # the first epoch always improves


def test_batchify_keeps_the_stream_contiguous_per_column():
    data = batchify(list(range(23)), 4)
    assert data.shape == (5, 4)
    assert data[:, 1].tolist() == [5, 6, 7, 8, 9]


def test_training_reduces_validation_loss(tmp_path):
    metrics = generator(max_epochs=3).train(toy_data(), tmp_path)
    history = json.loads((tmp_path / HISTORY).read_text())
    assert [h["epoch"] for h in history] == [1, 2, 3]
    assert history[-1]["val_loss"] < history[0]["val_loss"] < math.log(metrics["vocab_size"])
    assert metrics["epochs"] == 3 and metrics["best_val_loss"] == min(h["val_loss"] for h in history)
    assert metrics["val_perplexity"] == pytest.approx(math.exp(metrics["best_val_loss"]))
    for key in ("train_tokens", "vocab_size", "parameters", "tokens_per_s"):
        assert metrics[key] > 0
    for name in (CONFIG, VOCAB, CHECKPOINT, MODEL, HISTORY):
        assert (tmp_path / name).exists()
    assert not list(tmp_path.glob("*.tmp"))


def _state(path: Path) -> dict[str, torch.Tensor]:
    return torch.load(path, weights_only=True)["model"]


def _same_weights(a: Path, b: Path) -> bool:
    sa, sb = _state(a), _state(b)
    return sa.keys() == sb.keys() and all(torch.equal(sa[k], sb[k]) for k in sa)


def test_training_length_follows_the_corpus():
    """_stop: the budget in tokens, patience on the validation loss, and max_epochs as the cap."""
    cfg = registry("generator").settings("lstm", {"max_epochs": 50, "patience": 2, "max_train_tokens": 1000})
    losses = lambda *v: [{"val_loss": x} for x in v]  # noqa: E731
    assert _stop(cfg, [], 100) is None
    assert _stop(cfg, losses(3, 2, 1), 100) is None
    assert _stop(cfg, losses(3, 2, 1) * 4, 100) == "max_train_tokens"  # 12 epochs x 100 tokens
    assert _stop(cfg, losses(3, 2, 2.5), 10) is None  # one epoch without a better loss
    assert _stop(cfg, losses(3, 2, 2.5, 2), 10) == "patience"  # equal is not better
    assert (
        _stop(registry("generator").settings("lstm", {"max_epochs": 3, "patience": 0}), losses(1, 2, 3), 10)
        == "max_epochs"
    )
    assert _stop(registry("generator").settings("lstm", {"max_epochs": 9, "patience": 0}), losses(1, 2, 3), 10) is None
    with pytest.raises(SynthdeidError, match=r"'patience' must be >= 0, got -1; set it to 0 or more"):
        registry("generator").settings("lstm", {"patience": -1})


def test_small_corpus_trains_until_convergence(tmp_path):
    """With a high max_epochs, patience ends training once the validation loss stops falling, and a
    budget in tokens ends it after the epoch that reaches the budget."""
    data = toy_data(60, 20)
    metrics = generator(max_epochs=200, patience=1, learning_rate=20.0).train(data, tmp_path / "patience")
    history = json.loads((tmp_path / "patience" / HISTORY).read_text())
    assert metrics["stopped_by"] == "patience" and 2 < metrics["epochs"] == len(history) < 200
    assert metrics["epochs"] == metrics["best_epoch"] + 1
    assert history[-1]["val_loss"] >= metrics["best_val_loss"] == min(h["val_loss"] for h in history)
    budget = 2 * metrics["train_tokens"] + 1  # reached in the third epoch
    metrics = generator(max_epochs=200, patience=1, learning_rate=20.0, max_train_tokens=budget).train(
        data, tmp_path / "budget"
    )
    assert (metrics["stopped_by"], metrics["epochs"]) == ("max_train_tokens", 3)


@pytest.mark.parametrize("precision", ["fp32", "bf16"])
def test_training_is_deterministic(tmp_path, precision):
    for run in ("a", "b"):
        generator(precision=precision).train(toy_data(), tmp_path / run)
    for name in (CHECKPOINT, MODEL):
        assert _same_weights(tmp_path / "a" / name, tmp_path / "b" / name)
        assert (tmp_path / "a" / name).read_bytes() == (tmp_path / "b" / name).read_bytes()
    for name in (CONFIG, VOCAB, HISTORY):
        assert (tmp_path / "a" / name).read_text() == (tmp_path / "b" / name).read_text()


def test_bf16_training_takes_effect_and_learns_as_well(tmp_path):
    """bf16 products give other weights than float32, a validation loss within 2% of it, and the
    metrics say which arithmetic trained the model."""
    runs = {p: generator(precision=p, max_epochs=3).train(toy_data(), tmp_path / p) for p in ("fp32", "bf16")}
    assert not _same_weights(tmp_path / "fp32" / MODEL, tmp_path / "bf16" / MODEL)
    assert runs["bf16"]["val_loss"] == pytest.approx(runs["fp32"]["val_loss"], rel=0.02)
    assert (runs["fp32"]["precision"], runs["bf16"]["precision"]) == ("fp32", "bf16")


def test_interrupted_training_resumes_from_its_checkpoint(tmp_path):
    data = toy_data()
    first = generator(max_epochs=1).train(data, tmp_path / "resumed")  # ... and then "interrupted"
    assert first["epochs"] == 1
    again = generator(max_epochs=2).train(data, tmp_path / "resumed")
    assert again["resumed_from_epoch"] == 1 and again["epochs"] == 2
    generator(max_epochs=2).train(data, tmp_path / "straight")
    for name in (CHECKPOINT, MODEL):
        assert _same_weights(tmp_path / "resumed" / name, tmp_path / "straight" / name)
        assert (tmp_path / "resumed" / name).read_bytes() == (tmp_path / "straight" / name).read_bytes()
    assert (tmp_path / "resumed" / HISTORY).read_text() == (tmp_path / "straight" / HISTORY).read_text()
    done = generator(max_epochs=2).train(data, tmp_path / "resumed")  # nothing left to do
    assert done["epochs"] == 2 and done["resumed_from_epoch"] == 2


def test_resume_refuses_other_settings(tmp_path):
    generator(max_epochs=1).train(toy_data(), tmp_path)
    with pytest.raises(InputError, match="hidden_size"):
        generator(max_epochs=2, embedding_size=16, hidden_size=16).train(toy_data(), tmp_path)


def test_a_model_saved_with_former_setting_names_loads_and_resumes(trained, tmp_path):
    """config.json and the checkpoint of a model trained before the renames (lr, clip) still load
    and resume, without a deprecation warning per load."""
    import shutil
    import warnings

    old = shutil.copytree(trained, tmp_path / "old")
    config = json.loads((old / CONFIG).read_text())
    renamed = {{"learning_rate": "lr", "grad_clip": "clip"}.get(k, k): v for k, v in config.items()}
    (old / CONFIG).write_text(json.dumps(renamed))
    ckpt = torch.load(old / CHECKPOINT, weights_only=True)
    ckpt["config"] = renamed
    torch.save(ckpt, old / CHECKPOINT)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert isinstance(generator(layers=2).load(old), AutoregressiveLM)
        done = generator(max_epochs=4, layers=2).train(toy_data(), old)  # nothing left to do
    assert done["resumed_from_epoch"] == done["epochs"] == 4


def test_load_without_a_model_says_so(tmp_path):
    with pytest.raises(InputError, match="no trained LSTM"):
        generator().load(tmp_path)


# the AutoregressiveLM adapter -------------------------------------------------------------------


def test_loaded_model_is_an_autoregressive_lm(trained):
    lm = generator(layers=2).load(trained)
    assert isinstance(lm, AutoregressiveLM)
    assert lm.vocab[lm.eod_id] == "<EOD>" and not lm.model.training
    for tok in special_tokens(LABELS):
        assert lm.vocab.count(tok) == 1
    assert lm.decode(lm.encode("Gesprek met <NameSTART> Onbekend")) == "Gesprek met <NameSTART> <unk>"


def test_start_batch_equals_one_prompt_at_a_time(trained):
    lm = generator(layers=2).load(trained)
    prompts = [lm.encode(p) for p in ("Gesprek met <NameSTART>", "Gesprek", "", "Bloeddruk gemeten , waarde normaal")]
    (h, c), logits = lm.start(prompts)
    assert h.shape[1] == len(prompts) and logits.shape == (len(prompts), len(lm.vocab))
    for row, prompt in enumerate(prompts):
        (h1, c1), logits1 = lm.start([prompt])
        torch.testing.assert_close(h[:, row], h1[:, 0], rtol=0, atol=1e-5)
        torch.testing.assert_close(c[:, row], c1[:, 0], rtol=0, atol=1e-5)
        torch.testing.assert_close(logits[row], logits1[0], rtol=0, atol=1e-4)
    # a fresh state per prompt: starting again gives the same logits
    torch.testing.assert_close(lm.start(prompts)[1], logits)
    # step and select keep rows apart
    tokens = torch.tensor([lm.eod_id, 5, 6, 7])
    _state2, step_logits = lm.step((h, c), tokens)
    _sub, sub_logits = lm.step(lm.select((h, c), torch.tensor([2, 0])), tokens[[2, 0]])
    torch.testing.assert_close(sub_logits, step_logits[[2, 0]], rtol=0, atol=1e-4)
    assert step_logits.dtype == torch.float32


def test_unk_has_minus_infinite_logits(trained):
    lm = generator(layers=2).load(trained)
    state, logits = lm.start([lm.encode("Gesprek met")])
    assert logits[0, lm.unk_id] == float("-inf")
    _, logits = lm.step(state, torch.tensor([lm.unk_id]))
    assert logits[0, lm.unk_id] == float("-inf") and torch.isfinite(logits[0, 1:]).all()
    logits[0, 1] = 0.0  # decoders may edit the logits in place


def test_unk_is_written_only_when_asked_and_at_the_rate_it_learned(trained):
    lm = generator(layers=2).load(trained)
    assert isinstance(lm, WritesUnknown) and lm.unknown_token == UNK and not lm.write_unknown
    prompt = [lm.encode("Gesprek met")]
    lm.write_unknown = True
    _, logits = lm.start(prompt)
    assert torch.isfinite(logits[0, lm.unk_id])  # each note's rare word zeldzaamNxM was <unk> in training
    notes = _generate(lm, seed=0)
    written = sum(text.split().count(UNK) for _, text in notes)
    assert written > 0
    lm.write_unknown = False  # scoring and the default: -inf again, the other logits unchanged
    _, off = lm.start(prompt)
    assert off[0, lm.unk_id] == float("-inf")
    torch.testing.assert_close(off[0, 1:], logits[0, 1:])


def _generate(lm, seed: int) -> list[tuple[str, str]]:
    prompts = [" ".join(line.split()[:3]) for line in toy_lines(10, 7)] + ["Bloeddruk", "<PAR> Gesprek met"]
    return generate_corpus(
        lm,
        registry("decoder").create("nucleus"),
        prompts,
        GenerationSettings(min_tokens=5, max_tokens=30, batch_size=8),
        target_tokens=300,
        seed=seed,
    )


def test_generation_through_the_shared_loop(trained):
    lm = generator(layers=2).load(trained)
    notes = _generate(lm, seed=0)
    assert sum(len(text.split()) for _, text in notes) >= 300
    for i, (prompt, text) in enumerate(notes):
        assert text.startswith(prompt)
        assert UNK not in text[len(prompt) :].split()
        decoded = decode(text, f"note{i}", labels=LABELS)
        malformed = {k: decoded.count(k) for k in TAG_KINDS if k != "well_formed"}
        assert not any(malformed.values()), (text, malformed)
    assert any(d.count("well_formed") for d in (decode(t, "x", labels=LABELS) for _, t in notes))
    assert _generate(lm, seed=0) == notes
    assert _generate(lm, seed=1) != notes


def test_greedy_batch_equals_each_note_alone(trained):
    lm = generator(layers=2).load(trained)
    line = toy_lines(1, 7)[0].split()
    assert_batch_equals_each_alone(lm, [lm.encode(" ".join(line[:n])) for n in (3, 8, 14, 20, 26, 30)], eod_bias=8.0)
