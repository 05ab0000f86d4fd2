"""The gpt2 generator and the shared transformers adapter, with tiny models (a few seconds each)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import torch
from greedy_batching import assert_batch_equals_each_alone
from hf_tiny import LABELS, inline_lines, restore_threads, save_tiny_gpt2, training_data  # noqa: F401
from safetensors.torch import load_file

from synthdeid import SynthdeidError
from synthdeid.api import AutoregressiveLM, GenerationSettings
from synthdeid.corpus.inline import decode, special_tokens
from synthdeid.generation.generate import generate_corpus
from synthdeid.generation.hf_lm import (
    HFCausalLM,
    InlineCodec,
    apply_stage,
    train_bpe,
    train_loop,
)
from synthdeid.plugins import gpt2 as gpt2_plugin
from synthdeid.plugins import registry
from synthdeid.plugins.gpt2.unfreezing import layer_groups, unfreezing_stages

TINY = {
    "layers": 2,
    "embedding_size": 32,
    "heads": 2,
    "max_positions": 128,
    "vocab_size": 400,
    "max_epochs": 3,
    "batch_size": 4,
    "block_size": 64,
    "learning_rate": 3e-3,
    "threads": 1,
}
SPECIALS = special_tokens(LABELS)


def create(config: dict[str, Any]) -> Any:
    """The plugin's factory with its settings built from ``config`` (as the registry builds them)."""
    return gpt2_plugin.create(registry("generator").settings("gpt2", config))


def weights(out: Path) -> dict[str, torch.Tensor]:
    return load_file(out / "model" / "model.safetensors")


@pytest.fixture(scope="module")
def data():
    return training_data(40, 8)


@pytest.fixture(scope="module")
def trained(data, tmp_path_factory):
    out = tmp_path_factory.mktemp("gpt2")
    metrics = create(dict(TINY)).train(data, out)
    return out, metrics


@pytest.fixture(scope="module")
def tiny_lm(data):
    """An untrained tiny GPT-2 behind the adapter (for the batching and cache tests)."""
    from transformers import GPT2Config, GPT2LMHeadModel

    tok = train_bpe(data.train, SPECIALS, 400)
    torch.manual_seed(0)
    model = GPT2LMHeadModel(GPT2Config(vocab_size=len(tok), n_positions=64, n_embd=32, n_layer=2, n_head=2))
    return HFCausalLM(model, InlineCodec(tok, SPECIALS))


def test_bpe_never_splits_tags(data):
    tok = train_bpe(data.train, SPECIALS, 400)
    codec = InlineCodec(tok, SPECIALS)
    for special in SPECIALS:
        assert tok.tokenize(special) == [special]
        assert codec.encode(f"x{special}y", start=False).count(codec.special_ids[special]) == 1
    for line in data.train[:20]:
        ids = codec.encode(line, start=False)
        assert [i for i in ids if i in codec.id_to_special] == [
            codec.special_ids[t] for t in line.split() if t in SPECIALS
        ]
        vocab = codec.vocab(len(tok))
        # no stray space token before a tag (the transformers default puts one there)
        assert all(vocab[ids[k - 1]] != "Ġ" for k in range(1, len(ids)) if ids[k] in codec.id_to_special)
        assert codec.decode(ids) == line  # space-separated inline text round-trips


def test_config_errors_and_registration(register_plugin):
    with pytest.raises(SynthdeidError, match="nlayer.*layers"):
        create({"nlayer": 2})
    with pytest.raises(SynthdeidError, match="divisible"):
        create({"embedding_size": 30, "heads": 4})
    with pytest.raises(SynthdeidError, match="local model folder"):
        create({"pretrained": "/no/such/model"})
    with pytest.raises(SynthdeidError, match="'gpt2': device must be auto .*cuda:N"):
        create({"device": "gpu"})
    if "gpt2" not in registry("generator"):
        register_plugin(gpt2_plugin, "gpt2-under-test")
    gen = registry("generator").create("gpt2", {"layers": 2})
    assert gen.name == "gpt2" and gen.config.layers == 2


def _prompts(lm):
    return [
        lm.encode("de patiënt werd gisteren opgenomen met koorts"),
        lm.encode("<NameSTART> Jan"),
        lm.encode("controle"),
    ]


def test_batched_prompts_equal_each_alone(tiny_lm):
    prompts = _prompts(tiny_lm)
    assert len({len(p) for p in prompts}) == 3
    state, logits = tiny_lm.start(prompts)
    tokens = torch.tensor([7, 8, 9])
    _state2, logits2 = tiny_lm.step(state, tokens)
    for row, p in enumerate(prompts):
        s, alone = tiny_lm.start([p])
        torch.testing.assert_close(logits[row], alone[0], atol=1e-4, rtol=0)
        _, alone2 = tiny_lm.step(s, tokens[row : row + 1])
        torch.testing.assert_close(logits2[row], alone2[0], atol=1e-4, rtol=0)


def test_cache_step_equals_full_forward(tiny_lm):
    prompt = _prompts(tiny_lm)[0]
    state, _ = tiny_lm.start([prompt])
    for tok in (11, 12, 13):
        state, logits = tiny_lm.step(state, torch.tensor([tok]))
    full = prompt + [11, 12, 13]
    with torch.inference_mode():
        direct = tiny_lm.model(torch.tensor([full])).logits[0, -1]
    torch.testing.assert_close(logits[0], direct, atol=1e-4, rtol=0)
    torch.testing.assert_close(logits, tiny_lm.start([full])[1], atol=1e-4, rtol=0)


def test_select_reorders_rows_and_keeps_state(tiny_lm):
    prompts = _prompts(tiny_lm)
    state, _ = tiny_lm.start(prompts)
    rows = torch.tensor([2, 0, 0])
    _picked, logits = tiny_lm.step(tiny_lm.select(state, rows), torch.tensor([5, 6, 7]))
    ref_state, _ = tiny_lm.start([prompts[2], prompts[0], prompts[0]])
    _, ref = tiny_lm.step(ref_state, torch.tensor([5, 6, 7]))
    torch.testing.assert_close(logits, ref, atol=1e-4, rtol=0)
    # the original state is untouched by select and step
    _, again = tiny_lm.step(state, torch.tensor([5, 6, 7]))
    _, ref_all = tiny_lm.step(tiny_lm.start(prompts)[0], torch.tensor([5, 6, 7]))
    torch.testing.assert_close(again, ref_all, atol=1e-4, rtol=0)


def test_states_stay_values_with_the_growing_cache(tiny_lm):
    prompts = _prompts(tiny_lm)
    state, _ = tiny_lm.start(prompts)
    first, _ = tiny_lm.step(state, torch.tensor([5, 6, 7]))
    tiny_lm.step(state, torch.tensor([8, 9, 10]))  # a second step from the same state writes elsewhere
    _, logits = tiny_lm.step(first, torch.tensor([11, 12, 13]))
    fresh, _ = tiny_lm.step(tiny_lm.start(prompts)[0], torch.tensor([5, 6, 7]))
    torch.testing.assert_close(logits, tiny_lm.step(fresh, torch.tensor([11, 12, 13]))[1], atol=1e-5, rtol=0)


def test_select_of_finished_rows_keeps_the_cache_until_compacting(tiny_lm):
    lazy = HFCausalLM(tiny_lm.model, tiny_lm.codec, compact_at=0.5)
    prompts = _prompts(lazy)
    state, _ = lazy.start(prompts)
    kept = lazy.select(state, torch.tensor([0, 2]))
    assert kept.cache is state.cache and kept.rows.tolist() == [0, 2]  # no copy of the cache
    ref, _ = lazy.start([prompts[0], prompts[2]])
    for tokens in ([5, 6], [7, 8]):
        kept, logits = lazy.step(kept, torch.tensor(tokens))
        ref, ref_logits = lazy.step(ref, torch.tensor(tokens))
        torch.testing.assert_close(logits, ref_logits, atol=1e-4, rtol=0)
    one = lazy.select(kept, torch.tensor([1]))  # 1 of 3 cache rows left: below compact_at, copied
    assert one.rows is None and one.mask.shape[0] == 1
    _, logits = lazy.step(one, torch.tensor([9]))
    torch.testing.assert_close(
        logits, lazy.step(lazy.select(ref, torch.tensor([1])), torch.tensor([9]))[1], atol=1e-4, rtol=0
    )


def test_training_reduces_loss_and_writes_outputs(trained, data):
    out, metrics = trained
    hist = metrics["history"]
    assert hist[-1]["train_loss"] < hist[0]["train_loss"]
    assert hist[-1]["val_loss"] < hist[0]["val_loss"]
    assert metrics["perplexity"] == pytest.approx(torch.tensor(metrics["val_loss"]).exp().item())
    assert metrics["tokens_per_second"] > 0 and metrics["epochs_run"] == 3
    meta = json.loads((out / "generator.json").read_text())
    assert meta["config"]["vocab_size"] == 400 and meta["config"]["seed"] == data.seed
    assert meta["config"]["block_size"] == 64 and meta["special_tokens"] == data.special_tokens


def test_a_token_budget_sets_the_epochs(trained, data, tmp_path):
    """max_train_tokens: the epochs the budget needs over one epoch's tokens, at most ``max_epochs``."""
    from synthdeid.plugins.gpt2.config import GPT2Settings
    from synthdeid.plugins.gpt2.generator import budget_epochs

    cfg = GPT2Settings(**{**TINY, "max_epochs": 30, "max_train_tokens": 250_000})
    assert [budget_epochs(cfg, n).max_epochs for n in (134_535, 125_000, 124_999, 1_000, 10**6)] == [2, 2, 3, 30, 1]
    assert budget_epochs(GPT2Settings(**TINY), 10).max_epochs == 3  # no budget
    with pytest.raises(ValueError, match="max_train_tokens"):
        GPT2Settings(**{**TINY, "max_train_tokens": -1})
    _, metrics = trained
    budget = metrics["train_tokens_per_epoch"] + 1  # two epochs of this corpus
    got = create({**TINY, "max_epochs": 10, "max_train_tokens": budget}).train(data, tmp_path)
    assert got["epochs"] == got["epochs_run"] == 2
    assert json.loads((tmp_path / "generator.json").read_text())["config"]["max_epochs"] == 2


def test_same_data_and_config_give_same_weights(trained, data, tmp_path):
    out, _ = trained
    create(dict(TINY)).train(data, tmp_path)
    a, b = weights(out), weights(tmp_path)
    assert a.keys() == b.keys() and all(torch.equal(a[k], b[k]) for k in a)


def test_bf16_training_takes_effect_and_learns_as_well(trained, data, tmp_path):
    """The other arithmetic (bf16 where ``trained`` ran in float32, or the other way round) gives
    other weights and a validation loss within 2%; the metrics name it."""
    out, metrics = trained
    other = "fp32" if metrics["precision"] == "bf16" else "bf16"
    got = create({**TINY, "precision": other}).train(data, tmp_path)
    a, b = weights(out), weights(tmp_path)
    assert any(not torch.equal(a[k], b[k]) for k in a)
    assert got["val_loss"] == pytest.approx(metrics["val_loss"], rel=0.02)
    assert got["precision"] == other


def test_resume_from_checkpoint_matches_uninterrupted(trained, data, tmp_path, monkeypatch):
    out, _ = trained

    def interrupt(out_dir, stage, epoch):
        if epoch == 0:
            raise KeyboardInterrupt

    monkeypatch.setattr(train_loop, "_after_epoch", interrupt)
    with pytest.raises(KeyboardInterrupt):
        create(dict(TINY)).train(data, tmp_path)
    assert (tmp_path / "checkpoint.pt").exists() and not (tmp_path / "model").exists()
    monkeypatch.undo()
    metrics = create(dict(TINY)).train(data, tmp_path)
    assert metrics["epochs_run"] == 2
    a, b = weights(out), weights(tmp_path)
    assert all(torch.equal(a[k], b[k]) for k in a)
    with pytest.raises(SynthdeidError, match="other data or settings"):
        create({**TINY, "learning_rate": 1e-3}).train(data, tmp_path)


def test_the_checkpoint_fingerprint_survives_the_setting_renames(data):
    """Settings are hashed under their former names, so a checkpoint written before the renames resumes."""
    from pydantic import create_model

    from synthdeid.generation.hf_lm.common import fingerprint
    from synthdeid.plugins.gpt2.config import GPT2Settings
    from synthdeid.toolkit import Settings

    cfg = GPT2Settings(**TINY)
    former = {
        "layers": "n_layer",
        "max_epochs": "epochs",
        "learning_rate": "lr",
        "embedding_size": "n_embd",
        "heads": "n_head",
        "max_positions": "n_positions",
        "min_count": "min_frequency",
    }
    fields: Any = {former.get(k, k): (Any, v) for k, v in cfg.model_dump().items()}
    before = create_model("OldGPT2Settings", __base__=Settings, **fields)()
    assert fingerprint(cfg, data, 0) == fingerprint(before, data, 0)


def test_generate_corpus_from_trained_model(trained, data):
    out, _ = trained
    lm = create(dict(TINY)).load(out)
    assert isinstance(lm, AutoregressiveLM) and not lm.model.training
    assert lm.vocab[lm.eod_id] == "<EOD>" and all(lm.vocab.count(t) == 1 for t in data.special_tokens)
    prompts = [" ".join(line.split()[:3]) for line in data.dev]
    decoder = registry("decoder").create("nucleus")
    settings = GenerationSettings(min_tokens=5, max_tokens=30, batch_size=4)
    notes = generate_corpus(lm, decoder, prompts, settings, target_tokens=200, seed=0)
    assert notes and sum(len(t.split()) for _, t in notes) >= 200
    for i, (prompt, text) in enumerate(notes):
        assert text.startswith(prompt)
        counts = decode(text, f"n{i}", labels=LABELS).counts
        assert all(c[k] == 0 for c in counts.values() for k in c if k != "well_formed"), (text, counts)
    assert generate_corpus(lm, decoder, prompts, settings, target_tokens=200, seed=0) == notes


def test_notes_wind_down_at_the_models_last_position(trained, data):
    out, _ = trained
    full = create(dict(TINY)).load(out)
    lm = HFCausalLM(full.model, full.codec, max_length=14)
    prompts = [lm.encode(" ".join(line.split()[:3])) for line in data.dev] + [lm.encode("kreeg <NameSTART> Jan")]
    settings = GenerationSettings(min_tokens=0, max_tokens=40, batch_size=4)
    decoder = registry("decoder").create("temperature", {"temperature": 2.0})
    for seed in range(5):
        gen = decoder.generate(lm, prompts, settings, torch.Generator().manual_seed(seed))
        for p, ids in zip(prompts, gen):
            assert len(p) + len(ids) <= 15 and ids[-1] == lm.eod_id  # the <EOD> is never fed
            counts = decode(lm.decode(p[1:] + ids), "x", labels=LABELS).counts
            assert all(c[k] == 0 for c in counts.values() for k in c if k != "well_formed"), counts


def test_vocabulary_transfer_from_pretrained(tmp_path, data):
    from transformers import AutoTokenizer, GPT2LMHeadModel

    src = save_tiny_gpt2(tmp_path / "english")
    old_tok = AutoTokenizer.from_pretrained(src)
    old = GPT2LMHeadModel.from_pretrained(src).transformer.wte.weight.detach()
    model, tok, cfg, info = create({"pretrained": str(src), "vocab_size": 400}).build(data)
    new = model.transformer.wte.weight.detach()
    assert model.lm_head.weight is model.transformer.wte.weight  # tied output head
    assert cfg.layers == 3 and cfg.max_positions == 128 and new.shape[0] == len(tok)
    old_vocab = old_tok.get_vocab()
    shared = [(i, old_vocab[t]) for t, i in tok.get_vocab().items() if t in old_vocab]
    assert len(shared) > 50 and info["copied"] == len(shared) + 1  # + <EOD> from <|endoftext|>
    for new_id, old_id in shared:
        assert torch.equal(new[new_id], old[old_id])
    torch.testing.assert_close(new[tok.convert_tokens_to_ids("<EOD>")], old[old_tok.eos_token_id])
    for t in SPECIALS[:1] + SPECIALS[2:]:
        torch.testing.assert_close(new[tok.convert_tokens_to_ids(t)], old.mean(0))
    novel = [i for t, i in tok.get_vocab().items() if t not in old_vocab and t not in SPECIALS]
    assert novel and all(torch.allclose(new[i], old.mean(0)) for i in novel)


def test_gradual_unfreezing_groups_and_stages(tmp_path, data):
    src = save_tiny_gpt2(tmp_path / "english")
    gen = create({"pretrained": str(src), "vocab_size": 400, "gradual_unfreezing": True})
    model, _, cfg, _ = gen.build(data)
    groups = layer_groups(model, 4)
    assert [sorted({n.split(".")[2] for n in g}) for g in groups[:3]] == [["0"], ["1"], ["2"]]
    assert sorted(groups[3]) == [
        "transformer.ln_f.bias",
        "transformer.ln_f.weight",
        "transformer.wpe.weight",
        "transformer.wte.weight",
    ]
    stages = gen.stages(model, cfg)
    assert [s.epochs for s in stages] == [1, 1, 1, 2]
    for k, stage in enumerate(stages):
        apply_stage(model, stage)
        trainable = {n for n, p in model.named_parameters() if p.requires_grad}
        assert trainable == {n for g in groups[3 - k :] for n in g}
        lrs = [lr for _, lr in stage.groups]
        top = cfg.unfreeze_lrs[k]
        assert lrs == pytest.approx([top / 2.6**d for d in range(k, -1, -1)])
    # the first stage trains only the top group: the decoder blocks keep their pretrained weights
    gen = create(
        {
            "pretrained": str(src),
            "vocab_size": 400,
            "gradual_unfreezing": True,
            "unfreeze_epochs": [1, 0, 0, 0],
            "block_size": 64,
            "batch_size": 8,
            "threads": 1,
        }
    )
    before, _, _, _ = gen.build(data)
    gen.train(data, tmp_path / "out")
    after = weights(tmp_path / "out")
    ref = before.state_dict()
    assert all(torch.equal(after[k], ref[k]) for k in after if ".h." in k)
    assert not torch.equal(after["transformer.wte.weight"], ref["transformer.wte.weight"])
    assert unfreezing_stages(before, [1, 1], [1e-3, 1e-4], 2.6)[1].groups[0][1] == pytest.approx(1e-4 / 2.6)


def test_codec_handles_text_without_spaces_around_tags(data):
    tok = train_bpe(inline_lines(30), SPECIALS, 400)
    codec = InlineCodec(tok, SPECIALS)
    text = "(<NameSTART> Jan <NameEND>) kwam<PAR>binnen <EOD>"
    assert codec.decode(codec.encode(text, start=False)) == "( <NameSTART> Jan <NameEND> ) kwam <PAR> binnen <EOD>"


@pytest.mark.parametrize("compact_at", [0.0, 0.75, 1.0])
def test_greedy_batch_equals_each_note_alone(tiny_lm, data, compact_at):
    """Rows that finish early stay in the cache (compact_at 0), are copied out at once (1) or in
    between: no other row's tokens change."""
    lm = HFCausalLM(tiny_lm.model, tiny_lm.codec, compact_at=compact_at)
    prompts = [lm.encode(" ".join(line.split()[:n])) for n, line in zip((1, 2, 3, 4, 2, 3, 5, 6), data.dev)]
    assert_batch_equals_each_alone(lm, prompts, eod_bias=0.5)


def test_a_finished_row_kept_at_the_last_position_is_harmless(tiny_lm):
    lazy = HFCausalLM(tiny_lm.model, tiny_lm.codec, compact_at=0.0)
    prompts = [[5] * lazy.max_length, *_prompts(lazy)]  # the first fills every position: it must end at once
    settings = GenerationSettings(min_tokens=0, max_tokens=6)
    greedy = registry("decoder").create("greedy")
    out = greedy.generate(lazy, prompts, settings, torch.Generator())
    assert out[0] == [lazy.eod_id] and all(len(g) == 6 for g in out[1:])
    assert out[1:] == greedy.generate(lazy, prompts[1:], settings, torch.Generator())


def test_one_cycle_schedule_runs_on_any_number_of_steps():
    """A small corpus gives few steps: OneCycleLR's warm-up must still span 2 or more (it divides by it)."""
    from synthdeid.generation.hf_lm.train_loop import LoopSettings, _scheduler

    for steps in range(1, 41):
        opt = torch.optim.SGD([torch.nn.Parameter(torch.zeros(1))], lr=1.0)
        sched = _scheduler(opt, steps, LoopSettings(batch_size=1, warmup=0.1))
        for _ in range(steps):
            opt.step()
            sched.step()
