"""The causal_lm generator (LoRA via peft) with a tiny Llama saved by the test."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import torch
from hf_tiny import LABELS, restore_threads, save_tiny_llama, training_data  # noqa: F401
from safetensors.torch import load_file

from synthdeid import SynthdeidError
from synthdeid.api import AutoregressiveLM, GenerationSettings
from synthdeid.corpus.inline import decode
from synthdeid.generation.generate import generate_corpus
from synthdeid.generation.hf_lm import (
    HFCausalLM,
    InlineCodec,
    add_special_tokens,
    train_loop,
)
from synthdeid.plugins import causal_lm as causal_plugin
from synthdeid.plugins import registry

TRAIN = {
    "max_epochs": 2,
    "batch_size": 4,
    "block_size": 64,
    "learning_rate": 1e-2,
    "schedule": "one_cycle",
    "threads": 1,
}


def create(config: dict[str, Any]) -> Any:
    """The plugin's factory with its settings built from ``config`` (as the registry builds them)."""
    return causal_plugin.create(registry("generator").settings("causal_lm", config))


@pytest.fixture(scope="module")
def data():
    return training_data(40, 8)


@pytest.fixture(scope="module")
def base(tmp_path_factory):
    return save_tiny_llama(tmp_path_factory.mktemp("llama"))


@pytest.fixture(scope="module")
def trained(base, data, tmp_path_factory):
    out = tmp_path_factory.mktemp("causal")
    metrics = create({"model": str(base), **TRAIN}).train(data, out)
    return out, metrics


def test_config_errors(base, tmp_path, register_plugin):
    with pytest.raises(SynthdeidError, match="needs a local model directory.*save_pretrained"):
        create({})
    with pytest.raises(SynthdeidError, match="not a local model folder"):
        create({"model": str(tmp_path)})
    with pytest.raises(SynthdeidError, match="lora_rank.*lora_r"):
        create({"model": str(base), "lora_rank": 4})
    with pytest.raises(SynthdeidError, match="device must be auto .*cuda:N"):
        create({"model": str(base), "device": "cuda:"})
    if not torch.cuda.is_available():
        with pytest.raises(SynthdeidError, match="load_in_4bit"):
            create({"model": str(base), "load_in_4bit": True})
    cfg = create({"model": str(base), "target_modules": ["q_proj", "k_proj"]}).config
    assert (cfg.lora_r, cfg.lora_alpha, cfg.lora_dropout, cfg.target_modules) == (8, 32, 0.05, ("q_proj", "k_proj"))
    with pytest.raises(SynthdeidError, match="dp is not supported. DP-SGD through peft's LoRA layers"):
        create({"model": str(base), "dp": {"noise_multiplier": 1.0}})
    if "causal_lm" not in registry("generator"):
        register_plugin(causal_plugin, "causal-lm-under-test")
    assert registry("generator").create("causal_lm", {"model": str(base)}).name == "causal_lm"


def test_llama_batching_and_cache(base, data):
    """Rotary positions with left padding: a batch equals each prompt alone, cache equals full pass."""
    from transformers import AutoModelForCausalLM, AutoTokenizer

    tok = AutoTokenizer.from_pretrained(base)
    n_old = len(tok)
    new_ids = add_special_tokens(tok, data.special_tokens)
    assert new_ids == list(range(n_old, n_old + len(data.special_tokens)))
    model = AutoModelForCausalLM.from_pretrained(base)
    model.resize_token_embeddings(len(tok), mean_resizing=False)
    lm = HFCausalLM(model, InlineCodec(tok, data.special_tokens, tok.bos_token_id))
    prompts = [lm.encode("de patiënt werd opgenomen met koorts"), lm.encode("<NameSTART> Jan"), lm.encode("pijn")]
    assert prompts[1][0] == tok.bos_token_id and len({len(p) for p in prompts}) == 3
    state, logits = lm.start(prompts)
    state, logits = lm.step(state, torch.tensor([5, 6, 7]))
    for row, p in enumerate(prompts):
        alone = lm.start([p + [[5, 6, 7][row]]])[1]
        torch.testing.assert_close(logits[row], alone[0], atol=1e-4, rtol=0)
    with torch.inference_mode():
        full = model(torch.tensor([prompts[0] + [5]])).logits[0, -1]
    finite = torch.isfinite(logits[0])
    torch.testing.assert_close(logits[0][finite], full[finite], atol=1e-4, rtol=0)
    assert not finite[tok.bos_token_id] and not finite[tok.unk_token_id]  # never generated
    _, picked = lm.step(lm.select(state, torch.tensor([1])), torch.tensor([9]))
    _, ref = lm.step(lm.start([prompts[1] + [6]])[0], torch.tensor([9]))
    torch.testing.assert_close(picked, ref, atol=1e-4, rtol=0)


def test_lora_trains_adapter_and_new_tokens_only(trained, base, data):
    from transformers import AutoModelForCausalLM

    out, metrics = trained
    hist = metrics["history"]
    assert hist[-1]["train_loss"] < hist[0]["train_loss"]
    meta = json.loads((out / "generator.json").read_text())
    new_ids = meta["new_token_ids"]
    assert len(new_ids) == len(data.special_tokens) and meta["config"]["lora_alpha"] == 32
    adapter = load_file(out / "adapter" / "adapter_model.safetensors")
    lora_b = [v for k, v in adapter.items() if "lora_B" in k]
    assert lora_b and all(v.abs().sum() > 0 for v in lora_b)  # B starts at zero: LoRA has trained
    assert any("embed_tokens" in k and "trainable_tokens" in k for k in adapter)
    assert any("lm_head" in k and "trainable_tokens" in k for k in adapter)  # untied head: its rows too

    orig = AutoModelForCausalLM.from_pretrained(base).state_dict()
    lm = create({"model": str(base), "threads": 1}).load(out)
    assert isinstance(lm, AutoregressiveLM) and not lm.model.training
    merged = lm.model.state_dict()
    n_old = meta["n_old_tokens"]
    for name, ref in orig.items():
        if name in ("model.embed_tokens.weight", "lm_head.weight"):
            assert torch.equal(merged[name][:n_old], ref)  # original vocabulary rows frozen
            init = ref.mean(0)
            assert all(not torch.allclose(merged[name][i], init) for i in new_ids)  # new rows trained
        elif "q_proj" in name or "v_proj" in name:
            assert not torch.equal(merged[name], ref)  # LoRA merged into the targeted weights
        else:
            assert torch.equal(merged[name], ref), name  # frozen base weights unchanged


def test_load_generates_tag_safe_notes(trained, base, data):
    out, _ = trained
    lm = create({"model": str(base), "threads": 1}).load(out)
    prompts = [" ".join(line.split()[:3]) for line in data.dev]
    decoder = registry("decoder").create("nucleus")
    settings = GenerationSettings(min_tokens=5, max_tokens=30, batch_size=4)
    notes = generate_corpus(lm, decoder, prompts, settings, target_tokens=200, seed=0)
    assert notes
    for i, (prompt, text) in enumerate(notes):
        assert text.startswith(prompt)
        counts = decode(text, f"n{i}", labels=LABELS).counts
        assert all(c[k] == 0 for c in counts.values() for k in c if k != "well_formed"), (text, counts)
    assert generate_corpus(lm, decoder, prompts, settings, target_tokens=200, seed=0) == notes


def test_resume_and_determinism(trained, base, data, tmp_path, monkeypatch):
    out, _ = trained

    def interrupt(out_dir, stage, epoch):
        raise KeyboardInterrupt

    monkeypatch.setattr(train_loop, "_after_epoch", interrupt)
    gen = create({"model": str(base), **TRAIN})
    with pytest.raises(KeyboardInterrupt):
        gen.train(data, tmp_path)
    monkeypatch.undo()
    assert gen.train(data, tmp_path)["epochs_run"] == 1
    a = load_file(out / "adapter" / "adapter_model.safetensors")
    b = load_file(tmp_path / "adapter" / "adapter_model.safetensors")
    assert a.keys() == b.keys() and all(torch.equal(a[k], b[k]) for k in a)


def test_tied_embeddings_train_new_rows(tmp_path, data):
    base = save_tiny_llama(tmp_path / "tied", tie=True)
    gen = create({"model": str(base), **TRAIN, "max_epochs": 1})
    gen.train(data, tmp_path / "out")
    adapter = load_file(tmp_path / "out" / "adapter" / "adapter_model.safetensors")
    assert [k for k in adapter if "trainable_tokens" in k] == [
        "base_model.model.model.embed_tokens.token_adapter.trainable_tokens_delta"
    ]
    lm = gen.load(tmp_path / "out")
    emb = lm.model.get_input_embeddings().weight
    assert lm.model.get_output_embeddings().weight is emb
    new = json.loads((tmp_path / "out" / "generator.json").read_text())["new_token_ids"]
    assert not torch.allclose(emb[new[0]], emb[: new[0]].mean(0))


def test_the_study_spec_refuses_dp_with_the_reason(base, tmp_path):
    """The dp refusal is the settings class's: ``synthdeid check`` reports it at the generator's config."""
    import yaml

    from synthdeid.spec import load_study

    params = yaml.safe_load((Path(__file__).resolve().parents[1] / "params.yaml").read_text(encoding="utf-8"))
    params["generators"]["lora"] = {
        "plugin": "causal_lm",
        "config": {"model": str(base), "dp": {"noise_multiplier": 1}},
    }
    path = tmp_path / "params.yaml"
    path.write_text(yaml.safe_dump(params, sort_keys=False), encoding="utf-8")
    with pytest.raises(SynthdeidError) as e:
        load_study(path)
    message = " ".join(str(e.value).split())
    assert "generators.lora.config" in message and "dp is not supported" in message and "LoRA" in message
