"""The optional vLLM backend: the decoder -> vLLM parameter mapping and the generation loop, tested
with a stand-in ``vllm`` module (vLLM itself needs a CUDA GPU and is not installed here)."""

from __future__ import annotations

import sys
import types
from dataclasses import dataclass
from typing import Any

import pytest

from synthdeid import SynthdeidError
from synthdeid.api import GenerationSettings
from synthdeid.plugin_system.manager import registry
from synthdeid.plugins.causal_lm.vllm_backend import (
    NOTE_SEED_STRIDE,
    VLLMCausalLM,
    import_vllm,
    sampling_settings,
)

UNSAFE = GenerationSettings(min_tokens=5, max_tokens=60, tag_safe=False, batch_size=3)


def decoder(name: str, **config: Any) -> Any:
    return registry("decoder").create(name, config)


@pytest.mark.parametrize(
    "name, config, expected",
    [
        ("greedy", {}, {"temperature": 0.0}),
        ("temperature", {"temperature": 0.7}, {"temperature": 0.7}),
        ("top_k", {"top_k": 40, "temperature": 0.9}, {"temperature": 0.9, "top_k": 40}),
        ("nucleus", {"top_p": 0.95}, {"temperature": 1.0, "top_p": 0.95}),
    ],
)
def test_sampling_decoders_map_onto_sampling_params(name: str, config: dict, expected: dict) -> None:
    kind, kwargs = sampling_settings(decoder(name, **config), UNSAFE, eod_id=7)
    assert kind == "sample"
    assert kwargs == {
        "n": 1,
        "min_tokens": 5,
        "max_tokens": 60,
        "stop_token_ids": [7],
        "skip_special_tokens": False,
        **expected,
    }


def test_beam_maps_onto_beam_search_and_refuses_what_vllm_lacks() -> None:
    kind, kwargs = sampling_settings(
        decoder("beam", num_beams=4, no_repeat_ngram_size=0, length_penalty=0.5), UNSAFE, 7
    )
    assert (kind, kwargs) == ("beam_search", {"beam_width": 4, "max_tokens": 60, "length_penalty": 0.5})
    with pytest.raises(SynthdeidError, match="no_repeat_ngram_size"):
        sampling_settings(decoder("beam", num_beams=5, no_repeat_ngram_size=2), UNSAFE, 7)
    with pytest.raises(SynthdeidError, match="prefer_phi"):
        sampling_settings(decoder("beam", no_repeat_ngram_size=0, prefer_phi=True), UNSAFE, 7)


def test_tag_safe_and_unknown_decoders_are_refused() -> None:
    with pytest.raises(SynthdeidError, match="tag_safe: false"):
        sampling_settings(decoder("nucleus"), GenerationSettings(tag_safe=True), 7)

    @dataclass
    class Typical:
        name = "typical"

    with pytest.raises(SynthdeidError, match="no equivalent of decoder 'typical'"):
        sampling_settings(Typical(), UNSAFE, 7)


def test_missing_vllm_is_a_clear_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "vllm", None)
    with pytest.raises(SynthdeidError, match="pip install vllm"):
        import_vllm()


class Codec:
    eod_id = 0

    def encode(self, text: str) -> list[int]:
        return [len(w) for w in text.split()]

    def decode(self, ids: list[int]) -> str:
        return " ".join("<EOD>" if i == 0 else "w" * i for i in ids)


def fake_vllm(monkeypatch: pytest.MonkeyPatch, calls: list) -> None:
    vllm = types.ModuleType("vllm")
    sampling = types.ModuleType("vllm.sampling_params")

    class SamplingParams:
        def __init__(self, **kwargs: Any) -> None:
            self.kwargs = kwargs

    class BeamSearchParams(SamplingParams):
        pass

    class LLM:
        def __init__(self, **kwargs: Any) -> None:
            calls.append(("LLM", kwargs))

        def generate(self, inputs: list, params: list, use_tqdm: bool) -> list:
            calls.append(("generate", [p.kwargs["seed"] for p in params]))
            return [types.SimpleNamespace(outputs=[types.SimpleNamespace(token_ids=[3] * 10 + [0])]) for _ in inputs]

        def beam_search(self, inputs: list, params: Any) -> list:
            calls.append(("beam_search", params.kwargs))
            return [
                types.SimpleNamespace(sequences=[types.SimpleNamespace(tokens=i["prompt_token_ids"] + [2] * 20 + [0])])
                for i in inputs
            ]

    vllm.LLM, vllm.SamplingParams, sampling.BeamSearchParams = LLM, SamplingParams, BeamSearchParams
    monkeypatch.setitem(sys.modules, "vllm", vllm)
    monkeypatch.setitem(sys.modules, "vllm.sampling_params", sampling)


def test_generate_corpus_seeds_each_note_and_reaches_the_target(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list = []
    fake_vllm(monkeypatch, calls)
    model = VLLMCausalLM("/models/merged", Codec(), tensor_parallel_size=2)
    progress: list[int] = []
    notes = model.generate_corpus(
        decoder("nucleus", top_p=0.9), ["a bb", "ccc d"], UNSAFE, target_tokens=50, seed=4, progress=progress.append
    )
    assert calls[0] == (
        "LLM",
        {
            "model": "/models/merged",
            "tokenizer": "/models/merged",
            "seed": 4,
            "dtype": "auto",
            "tensor_parallel_size": 2,
        },
    )
    seeds = [s for kind, batch in calls[1:] for s in batch]
    assert seeds == [4 * NOTE_SEED_STRIDE + n for n in range(len(notes))]  # one seed per note, in order
    assert len(notes) == 6 and sum(progress) >= 50  # two batches of 3 notes of 12 tokens
    assert notes[0][1].endswith("www www <EOD>") and notes[0][1].split()[:2] == notes[0][0].split()


def test_generate_corpus_beam_search_strips_the_prompt(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list = []
    fake_vllm(monkeypatch, calls)
    model = VLLMCausalLM("/m", Codec())
    beam = decoder("beam", num_beams=3, no_repeat_ngram_size=0)
    notes = model.generate_corpus(beam, ["a bb"], UNSAFE, target_tokens=10, seed=0)
    assert calls[1] == ("beam_search", {"beam_width": 3, "max_tokens": 60, "length_penalty": 1.0})
    assert notes[0] == ("a bb", "a bb " + " ".join(["ww"] * 20) + " <EOD>")


def test_causal_lm_backend_setting_is_checked(tmp_path: Any) -> None:
    (tmp_path / "config.json").write_text("{}")
    with pytest.raises(SynthdeidError, match="setting 'backend' must be one of transformers, vllm"):
        registry("generator").create("causal_lm", {"model": str(tmp_path), "backend": "tgi"})
    assert (
        registry("generator").create("causal_lm", {"model": str(tmp_path), "backend": "vllm"}).config.backend == "vllm"
    )
