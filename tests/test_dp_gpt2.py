"""Differentially private training of the gpt2 generator (``dp`` in its config), and the causal_lm
generator's refusal. Tiny models only."""

from __future__ import annotations

import copy
from pathlib import Path

import pytest
import torch

pytest.importorskip("opacus")

from hf_tiny import restore_threads, training_data  # noqa: F401

from synthdeid import SynthdeidError
from synthdeid.generation.dp import DPConfig, DPTraining, backward
from synthdeid.generation.hf_lm.dp_loop import per_note_loss
from synthdeid.generation.hf_lm.train_loop import _collate
from synthdeid.plugins import registry

TINY = {
    "layers": 2,
    "embedding_size": 16,
    "heads": 2,
    "max_positions": 128,
    "vocab_size": 320,
    "max_epochs": 2,
    "batch_size": 4,
    "learning_rate": 3e-3,
    "threads": 1,
    "dropout": 0.0,
    "warmup": 0.3,
}


def tiny_gpt2():
    from transformers import GPT2Config, GPT2LMHeadModel

    torch.manual_seed(0)
    return GPT2LMHeadModel(
        GPT2Config(
            vocab_size=40,
            n_positions=32,
            n_embd=16,
            n_layer=2,
            n_head=2,
            resid_pdrop=0.0,
            embd_pdrop=0.0,
            attn_pdrop=0.0,
        )
    )


def test_per_sample_gradients_of_every_weight_equal_autograd_per_note() -> None:
    """Opacus' grad samplers (functorch for Conv1D), explicit position ids, tied lm_head."""
    model = tiny_gpt2()
    plain = copy.deepcopy(model)
    notes = [[1, 5, 7, 9, 3, 2], [1, 4, 4, 8], [1, 6, 10, 11, 12, 5, 9, 2, 3, 30]]
    gsm = DPTraining(DPConfig(noise_multiplier=1.0, batch_size=3), 30, 1, 0).wrap_model(model)
    ids, mask = _collate(notes, torch.device("cpu"))
    backward(per_note_loss(gsm, ids, mask).mean())
    for j, note in enumerate(notes):
        plain.zero_grad()
        one, one_mask = _collate([note], torch.device("cpu"))
        per_note_loss(plain, one, one_mask).sum().backward()
        for (name, p), (_, q) in zip(model.named_parameters(), plain.named_parameters()):
            gs = sum(p.grad_sample) if isinstance(p.grad_sample, list) else p.grad_sample
            assert gs.shape[0] == 3, name  # position embeddings too: one row per note
            torch.testing.assert_close(gs[j], q.grad, atol=1e-6, rtol=1e-4, msg=name)
    gsm.remove_hooks()


def train(tmp_path: Path, name: str, **dp) -> dict:
    return (
        registry("generator")
        .create("gpt2", {**TINY, "dp": {"batch_size": 8, **dp}})
        .train(training_data(40, 8), tmp_path / name)
    )


def test_dp_gpt2_reports_epsilon_is_deterministic_and_generates(tmp_path: Path) -> None:
    a = train(tmp_path, "a", noise_multiplier=1.0)
    train(tmp_path, "b", noise_multiplier=1.0)
    noisier = train(tmp_path, "c", noise_multiplier=3.0)
    assert a["dp"]["steps"] == 2 * 5 and a["dp"]["privacy_unit"] == "note"
    assert 0 < noisier["dp"]["epsilon"] < a["dp"]["epsilon"]
    assert (tmp_path / "a" / "model" / "model.safetensors").read_bytes() == (
        tmp_path / "b" / "model" / "model.safetensors"
    ).read_bytes()
    lm = registry("generator").create("gpt2", TINY).load(tmp_path / "a")
    _, logits = lm.start([lm.encode("de patiënt")])
    assert torch.isfinite(logits).all()


def test_dp_with_gradual_unfreezing_is_refused() -> None:
    with pytest.raises(SynthdeidError, match="gradual_unfreezing"):
        registry("generator").create("gpt2", {**TINY, "gradual_unfreezing": True, "dp": {"noise_multiplier": 1.0}})


def test_causal_lm_with_lora_refuses_dp_and_says_why() -> None:
    with pytest.raises(SynthdeidError, match="LoRA"):
        registry("generator").settings("causal_lm", {"model": "/nowhere", "dp": {"noise_multiplier": 1.0}})
