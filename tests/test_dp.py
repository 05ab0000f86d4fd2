"""Differentially private training (``synthdeid.generation.dp``, the lstm generator's ``dp`` setting): exact
per-sample gradients, the clipping bound, the noise scale, the accountant's epsilon, determinism
and resumption. Tiny models only."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest
import torch
import torch.nn.functional as F

pytest.importorskip("opacus")

from test_lstm import generator, toy_data

from synthdeid import SynthdeidError
from synthdeid.generation.dp import DPConfig, DPTraining
from synthdeid.plugins import registry
from synthdeid.plugins.lstm import LSTMConfig
from synthdeid.plugins.lstm.dp_train import collect, pad
from synthdeid.plugins.lstm.model import LSTMLanguageModel
from synthdeid.plugins.lstm.per_sample import make_unrolled, per_sample_grads

NOTES = [[1, 5, 7, 9, 3, 2], [1, 4, 4, 8], [1, 6, 10, 11, 12, 5, 9, 2, 3]]


@pytest.fixture(autouse=True, scope="module")
def _one_thread():
    threads = torch.get_num_threads()
    torch.set_num_threads(1)
    yield
    torch.set_num_threads(threads)


def tiny_model(layers: int = 2) -> tuple[LSTMLanguageModel, LSTMConfig]:
    config = LSTMConfig(layers=layers, embedding_size=8, hidden_size=8, dropout=0.0, tied=True)
    torch.manual_seed(0)
    return LSTMLanguageModel(16, config), config


def autograd_grads(model: LSTMLanguageModel, note: list[int]) -> dict[str, torch.Tensor]:
    """The gradient of one note's mean token loss, by ordinary autograd on the plain model."""
    model.zero_grad()
    ids = torch.tensor(note).unsqueeze(1)
    logits, _ = model(ids[:-1], model.init_hidden(1))
    F.cross_entropy(logits.reshape(-1, logits.size(-1)), ids[1:].reshape(-1)).backward()
    return {n: p.grad.clone() for n, p in model.named_parameters()}


def dp_run(model: LSTMLanguageModel, sigma: float, clip: float, batch_size: int = 3) -> DPTraining:
    dp = DPTraining(DPConfig(noise_multiplier=1.0, max_grad_norm=clip, batch_size=batch_size), 30, 1, seed=0)
    dp.noise_multiplier = sigma  # the config refuses 0 (no privacy); the test wants the bare clipping
    dp.make_optimizer(torch.optim.SGD(model.parameters(), lr=0.0))
    return dp


def dp_grads(model: LSTMLanguageModel, dp: DPTraining, notes: list[list[int]]) -> dict[str, torch.Tensor]:
    dp.optimizer.zero_grad(set_to_none=True)
    ids, mask = pad(notes)
    collect(per_sample_grads(model, ids, mask)[1])
    dp.step()
    return {n: p.grad.clone() for n, p in model.named_parameters()}


def flat_norm(grads: dict[str, torch.Tensor]) -> float:
    return float(torch.sqrt(sum((g**2).sum() for g in grads.values())))


@pytest.mark.parametrize("layers", [1, 2])
def test_per_sample_gradients_equal_autograd_per_note(layers: int) -> None:
    model, _ = tiny_model(layers)
    plain = copy.deepcopy(model)
    make_unrolled(model)
    assert set(dict(model.named_parameters())) == set(dict(plain.named_parameters()))  # nn.LSTM's names
    ids, mask = pad(NOTES)
    _losses, grads = per_sample_grads(model, ids, mask)
    by_name = {n: grads[p] for n, p in model.named_parameters()}
    for j, note in enumerate(NOTES):
        expected = autograd_grads(plain, note)
        for name, g in expected.items():
            torch.testing.assert_close(by_name[name][j], g, atol=1e-6, rtol=1e-4, msg=name)


def test_per_sample_gradients_are_clipped_to_max_grad_norm() -> None:
    model, _ = tiny_model()
    plain = copy.deepcopy(model)
    make_unrolled(model)
    norms = [flat_norm(autograd_grads(plain, n)) for n in NOTES]
    clip = sorted(norms)[1]  # one note under the bound, one on it, one over it
    dp = dp_run(model, sigma=0.0, clip=clip)
    for note, norm in zip(NOTES, norms):
        got = flat_norm(dp_grads(model, dp, [note])) * 3  # DPOptimizer divides by the expected batch
        assert got <= clip * (1 + 1e-5)
        assert got == pytest.approx(min(norm, clip), rel=1e-4)
    # a batch: the sum of the clipped per-note gradients
    summed = dp_grads(model, dp, NOTES)
    expected = {
        n: sum(autograd_grads(plain, note)[n] * min(1.0, clip / (norm + 1e-6)) for note, norm in zip(NOTES, norms)) / 3
        for n in summed
    }
    for name in summed:
        torch.testing.assert_close(summed[name], expected[name], atol=1e-6, rtol=1e-4)


def test_noise_has_the_claimed_scale_and_is_seeded() -> None:
    model, _ = tiny_model()
    make_unrolled(model)
    clean = dp_grads(model, dp_run(model, 0.0, clip=0.5), NOTES)
    noisy = dp_grads(model, dp_run(model, 2.0, clip=0.5), NOTES)
    again = dp_grads(model, dp_run(model, 2.0, clip=0.5), NOTES)
    diff = torch.cat([(noisy[n] - clean[n]).flatten() for n in clean])
    assert diff.numel() > 1000
    # std = noise_multiplier x max_grad_norm / expected batch size
    assert float(diff.std()) == pytest.approx(2.0 * 0.5 / 3, rel=0.08)
    assert abs(float(diff.mean())) < 0.05 * 2.0 * 0.5 / 3 * 10
    assert all(torch.equal(noisy[n], again[n]) for n in noisy)


def test_an_empty_poisson_draw_still_takes_a_noisy_step() -> None:
    model, _ = tiny_model()
    make_unrolled(model)
    dp = DPTraining(DPConfig(noise_multiplier=1.0, batch_size=3), 30, 1, seed=0)
    dp.make_optimizer(torch.optim.SGD(model.parameters(), lr=1.0))
    before = copy.deepcopy(model.state_dict())
    dp.optimizer.zero_grad(set_to_none=True)
    dp.empty_step()
    assert any(not torch.equal(before[k], v) for k, v in model.state_dict().items())
    assert dp.metrics()["steps"] == 1


def test_poisson_batches_are_seeded_and_have_the_expected_size() -> None:
    dp = DPTraining(DPConfig(noise_multiplier=1.0, batch_size=10), 200, 1, seed=4)
    a, b = list(dp.batches(1)), list(dp.batches(1))
    assert a == b != list(dp.batches(2))
    assert len(a) == dp.steps_per_epoch == 20
    sizes = [len(x) for e in range(1, 6) for x in dp.batches(e)]
    assert 8 < sum(sizes) / len(sizes) < 12 and len(set(sizes)) > 3  # random sizes around 10


def dp_metrics(tmp_path: Path, name: str, **dp) -> dict:
    gen = generator(max_epochs=2, dp={"batch_size": 30, **dp})
    return gen.train(toy_data(120, 20), tmp_path / name)


def test_epsilon_is_reported_and_falls_with_more_noise(tmp_path: Path) -> None:
    low = dp_metrics(tmp_path, "low", noise_multiplier=0.7)["dp"]
    high = dp_metrics(tmp_path, "high", noise_multiplier=2.0)["dp"]
    assert 0 < high["epsilon"] < low["epsilon"] < float("inf")
    assert low["steps"] == 2 * 4 and low["sample_rate"] == 30 / 120 and low["privacy_unit"] == "note"
    assert low["delta"] == pytest.approx(1 / 1200)
    target = dp_metrics(tmp_path, "target", target_epsilon=3.0)["dp"]
    assert target["epsilon"] == pytest.approx(3.0, rel=0.02)


def test_dp_training_is_deterministic_resumable_and_generates(tmp_path: Path) -> None:
    full = generator(max_epochs=3, dp={"noise_multiplier": 1.0, "batch_size": 30})
    a = full.train(toy_data(120, 20), tmp_path / "a")
    full.train(toy_data(120, 20), tmp_path / "b")
    assert (tmp_path / "a" / "model.pt").read_bytes() == (tmp_path / "b" / "model.pt").read_bytes()
    generator(max_epochs=2, dp={"noise_multiplier": 1.0, "batch_size": 30}).train(toy_data(120, 20), tmp_path / "c")
    resumed = full.train(toy_data(120, 20), tmp_path / "c")
    assert resumed["resumed_from_epoch"] == 2
    assert resumed["dp"] == a["dp"]  # the accountant came back with the checkpoint
    assert (tmp_path / "a" / "model.pt").read_bytes() == (tmp_path / "c" / "model.pt").read_bytes()
    assert json.loads((tmp_path / "a" / "config.json").read_text())["dp"]["noise_multiplier"] == 1.0
    lm = full.load(tmp_path / "a")  # the plain nn.LSTM loads the DP-trained weights
    _state, logits = lm.start([lm.encode("Gesprek met")])
    assert logits.shape == (1, len(lm.vocab)) and torch.isfinite(logits[:, 1:]).all()


def test_target_epsilon_resume_with_other_epochs_is_refused(tmp_path: Path) -> None:
    generator(max_epochs=1, dp={"target_epsilon": 2.0, "batch_size": 30}).train(toy_data(120, 20), tmp_path)
    with pytest.raises(SynthdeidError, match="noise multiplier"):
        generator(max_epochs=2, dp={"target_epsilon": 2.0, "batch_size": 30}).train(toy_data(120, 20), tmp_path)


@pytest.mark.parametrize(
    "dp, message",
    [
        ({}, "exactly one of noise_multiplier and target_epsilon"),
        ({"noise_multiplier": 1.0, "target_epsilon": 3.0}, "exactly one"),
        ({"noise_multiplier": -1.0}, "setting 'dp.noise_multiplier' must be > 0 and finite, got -1.0; set it above 0"),
        ({"noise_multiplier": 1.0, "delta": 2.0}, r"setting 'dp.delta' must be in \(0, 1\), got 2.0"),
        ({"noise_multiplier": 1.0, "accountant": "moments"}, "setting 'dp.accountant' must be one of rdp, prv"),
        ({"noise": 1.0}, r"'dp' has no setting noise; its settings are: accountant, batch_size"),
        ("yes", "setting 'dp' must be a mapping such as {noise_multiplier: 1.0, max_grad_norm: 1.0} or null"),
    ],
)
def test_bad_dp_settings_say_what_to_fix(dp, message) -> None:
    with pytest.raises(SynthdeidError, match=message):
        registry("generator").settings("lstm", {"dp": dp})


def test_dp_null_or_false_is_off() -> None:
    for off in (None, False):
        assert registry("generator").settings("lstm", {"dp": off}).dp is None
        assert registry("generator").settings("gpt2", {"dp": off}).dp is None
    on = registry("generator").settings("lstm", {"dp": {"noise_multiplier": 1}}).dp
    assert on == DPConfig(noise_multiplier=1.0) and on.noise_multiplier == 1.0


def test_fewer_notes_than_the_batch_is_an_error() -> None:
    with pytest.raises(SynthdeidError, match="lower dp.batch_size"):
        DPTraining(DPConfig(noise_multiplier=1.0, batch_size=64), 10, 1, 0)
