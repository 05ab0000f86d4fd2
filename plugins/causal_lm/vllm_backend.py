"""Optional vLLM backend for the ``causal_lm`` generator (``backend: vllm``): generation from a
large causal LM on GPUs with vLLM's continuous batching and paged KV cache, instead of the shared
step-by-step loop.

vLLM is not a dependency (it needs a CUDA GPU); it is imported only when a corpus generates with
this backend. The decoder settings map onto vLLM's as follows (``sampling_settings``):

==============  ============================================================================
decoder         vLLM
==============  ============================================================================
greedy          ``SamplingParams(temperature=0)``
temperature     ``SamplingParams(temperature=t)``
top_k           ``SamplingParams(temperature=t, top_k=k)``
nucleus         ``SamplingParams(temperature=t, top_p=p)``
beam            ``LLM.beam_search(BeamSearchParams(beam_width, max_tokens, length_penalty))``
==============  ============================================================================

Every sampling request also gets ``min_tokens``, ``max_tokens``, ``stop_token_ids=[<EOD>]`` and
its own seed (``generate.seed`` and the note's number), so a corpus does not depend on how vLLM
schedules the batch. What vLLM cannot do is refused when the stage starts, never silently
dropped: the tag-safe logit mask (set ``tag_safe: false`` for the corpus; the postprocess stage
removes and counts malformed tags), beam search's ``no_repeat_ngram_size`` and ``prefer_phi``,
and decoders it has no equivalent for.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Sequence
from typing import Any

from synthdeid import SynthdeidError
from synthdeid.api import BeamSpec, Decoder, DescribedDecoder, GenerationSettings
from synthdeid.toolkit import corpus_prompts, count_tokens

NOTE_SEED_STRIDE = 1_000_003


def sampling_settings(decoder: Decoder, settings: GenerationSettings, eod_id: int) -> tuple[str, dict[str, Any]]:
    """``("sample", SamplingParams kwargs)`` or ``("beam_search", BeamSearchParams kwargs)`` for
    a synthdeid decoder (its declared ``spec()``, ``synthdeid.api.DescribedDecoder``) and generation
    settings (the per-note ``seed`` is added later)."""
    if settings.tag_safe:
        raise SynthdeidError(
            "the vLLM backend cannot apply the tag-safe logit mask: set `tag_safe: false` for "
            "this corpus (postprocess removes and counts malformed tags) or use backend: transformers"
        )
    if settings.start_bias:
        raise SynthdeidError(
            "the vLLM backend cannot apply generate.tag_distribution: set it to real for this "
            "corpus or use backend: transformers"
        )
    if not isinstance(decoder, DescribedDecoder):
        raise SynthdeidError(
            f"the vLLM backend has no equivalent of decoder {decoder.name!r} (it declares no spec()); "
            "supported: greedy, temperature, top_k, nucleus, beam (or use backend: transformers)"
        )
    spec = decoder.spec()
    if isinstance(spec, BeamSpec):
        if spec.no_repeat_ngram_size or spec.prefer_phi:
            raise SynthdeidError(
                "the vLLM backend's beam search has no no_repeat_ngram_size or prefer_phi: set "
                "them to 0 / false for this corpus or use backend: transformers"
            )
        return "beam_search", {
            "beam_width": spec.num_beams,
            "max_tokens": settings.max_tokens,
            "length_penalty": float(spec.length_penalty),
        }
    common = {
        "n": 1,
        "min_tokens": settings.min_tokens,
        "max_tokens": settings.max_tokens,
        "stop_token_ids": [eod_id],
        "skip_special_tokens": False,
    }
    if spec.method == "greedy":
        return "sample", {**common, "temperature": 0.0}
    sampling = {**common, "temperature": float(spec.temperature)}
    if spec.top_k is not None:
        sampling["top_k"] = int(spec.top_k)
    if spec.top_p is not None:
        sampling["top_p"] = float(spec.top_p)
    return "sample", sampling


def import_vllm() -> Any:
    try:
        return importlib.import_module("vllm")
    except ImportError:
        raise SynthdeidError(
            "generator 'causal_lm' has backend: vllm, but vLLM is not installed: `pip install vllm` "
            "on a machine with a CUDA GPU, or set backend: transformers"
        ) from None


class VLLMCausalLM:
    """A merged causal LM folder served by ``vllm.LLM``; implements ``generate_corpus`` like
    ``synthdeid.generation.generate.generate_corpus`` (the generate stage calls it instead of the shared loop)."""

    def __init__(self, model_dir: str, codec: Any, tensor_parallel_size: int = 1, dtype: str = "auto") -> None:
        self.model_dir = model_dir
        self.codec = codec
        self.tensor_parallel_size = tensor_parallel_size
        self.dtype = dtype
        self._llm: Any = None

    def llm(self, seed: int) -> Any:
        if self._llm is None:
            vllm = import_vllm()
            self._llm = vllm.LLM(
                model=self.model_dir,
                tokenizer=self.model_dir,
                seed=seed,
                dtype=self.dtype,
                tensor_parallel_size=self.tensor_parallel_size,
            )
        return self._llm

    def generate_corpus(
        self,
        decoder: Any,
        prompts: Sequence[str],
        settings: GenerationSettings,
        target_tokens: int,
        seed: int,
        progress: Callable[[int], None] | None = None,
    ) -> list[tuple[str, str]]:
        kind, kwargs = sampling_settings(decoder, settings, self.codec.eod_id)  # refuses before any work
        vllm = import_vllm()
        llm = self.llm(seed)
        stream = corpus_prompts(prompts, seed)
        notes: list[tuple[str, str]] = []
        total = 0
        while total < target_tokens:
            batch = [next(stream) for _ in range(settings.batch_size)]
            inputs = [{"prompt_token_ids": self.codec.encode(p)} for _, p in batch]
            if kind == "beam_search":
                from vllm.sampling_params import BeamSearchParams

                outs = llm.beam_search(inputs, BeamSearchParams(**kwargs))
                generated = [list(o.sequences[0].tokens[len(i["prompt_token_ids"]) :]) for o, i in zip(outs, inputs)]
            else:
                params = [vllm.SamplingParams(**kwargs, seed=seed * NOTE_SEED_STRIDE + n) for n, _ in batch]
                generated = [list(o.outputs[0].token_ids) for o in llm.generate(inputs, params, use_tqdm=False)]
            for (_, prompt), ids in zip(batch, generated):
                text = (prompt + " " + self.codec.decode(ids)).strip()
                notes.append((prompt, text))
                total += count_tokens(text)
                if progress:
                    progress(count_tokens(text))
        return notes
