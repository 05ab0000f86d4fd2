"""Stage ``generate@CORPUS``: generate the raw synthetic corpus ``corpora.CORPUS`` (a trained
generator with a decoder) from the held-out prompts, until the target size in tokens."""

from __future__ import annotations

import functools
import json
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from synthdeid.accounting import write_json
from synthdeid.generate import GenerationSettings, count_tokens, generate_corpus, span_limits
from synthdeid.inline import strip_tags
from synthdeid.errors import InputError
from synthdeid.lm import AutoregressiveLM, uses_tags
from synthdeid.note_lengths import AUTO, resolve_lengths
from synthdeid.params import generation_params, get, load_params
from synthdeid.plugin_manager import registry
from synthdeid.progress import counter
from synthdeid.stages.common import read_lines, stage_main
from synthdeid.tag_distribution import label_shares, start_bias

PROMPTS = "data/inline/prompts.jsonl"
TRAIN = "data/inline/train.txt"  # the training spans: max_span_tokens' limits, tag_distribution's shares
MODEL = "data/models/{name}"
OUT = "data/synthetic/{corpus}/raw.jsonl"
METRICS = "data/metrics/generate/{corpus}.json"  # the settings generation used, auto ones resolved


def settings_for(params: dict, corpus: str, model: Any = None) -> tuple[GenerationSettings, int]:
    """Generation settings: ``generate`` defaults, overridden per corpus; with a left-to-right
    ``model``, the span limits of ``max_span_tokens`` in its tokens and the START-tag offsets of
    ``tag_distribution`` (both from the inline training text). A model that rewrites real notes
    (``mlm_fill``) keeps their spans: neither applies, and a tag distribution other than ``real``
    is an error."""
    g = generation_params(params, corpus)
    limits: tuple[tuple[str, int], ...] = ()
    bias: tuple[tuple[str, float], ...] = ()
    lines = read_lines(TRAIN) if isinstance(model, AutoregressiveLM) or AUTO in (g["min_tokens"], g["max_tokens"]) else []
    count = (lambda line: len(model.encode(line))) if isinstance(model, AutoregressiveLM) else count_tokens
    min_tokens, max_tokens = resolve_lengths(g["min_tokens"], g["max_tokens"], lines, count)
    if isinstance(model, AutoregressiveLM):
        limits = span_limits(model, lines, g.get("max_span_tokens", "auto"))
        bias = start_bias(g.get("tag_distribution", "real"), label_shares(lines))
    elif model is not None and g.get("tag_distribution", "real") not in ("real", None):
        raise InputError(f"corpora.{corpus}.tag_distribution is {g['tag_distribution']!r}, but its generator "
                         f"({type(model).__name__}) rewrites real notes and keeps their PHI labels: it has no "
                         "START tags to steer", path="params.yaml",
                         fix=f"set corpora.{corpus}.tag_distribution: real (max_span_tokens does not apply either)")
    settings = GenerationSettings(min_tokens=min_tokens, max_tokens=max_tokens,
                                  tag_safe=bool(g["tag_safe"]), batch_size=int(g["batch_size"]), span_limits=limits,
                                  start_bias=bias)
    return settings, int(g["target_tokens"])


@stage_main
def main() -> None:
    corpus = sys.argv[1]
    params = load_params()
    spec = get(params, f"corpora.{corpus}")
    gen_name = spec["generator"]
    gen_spec = get(params, f"generators.{gen_name}")
    decoder = registry("decoder").create(spec["decoder"], spec.get("config") or {})
    generator = registry("generator").create(gen_spec["plugin"], gen_spec.get("config") or {})
    model = generator.load(Path(MODEL.format(name=gen_name)))
    decoder.check(model)  # an unsupported generator x decoder pair fails here, before any work
    settings, target = settings_for(params, corpus, model)
    seed = int(get(params, "generate.seed"))
    prompts = [json.loads(line)["prompt"] for line in Path(PROMPTS).read_text(encoding="utf-8").splitlines() if line]
    if not uses_tags(gen_spec, gen_name):  # an untagged generator never saw a tag: prompt it without
        prompts = [strip_tags(p) for p in prompts]
    t0 = time.perf_counter()
    with counter(f"generate {corpus}", target) as advance:
        run = model.generate_corpus if hasattr(model, "generate_corpus") else _generic(model)
        notes = run(decoder, prompts, settings, target, seed, progress=advance)
    out = Path(OUT.format(corpus=corpus))
    out.parent.mkdir(parents=True, exist_ok=True)
    with open(out, "w", encoding="utf-8", newline="\n") as f:
        for i, (prompt, text) in enumerate(notes):
            f.write(json.dumps({"id": f"{corpus}-{i:06d}", "prompt": prompt, "text": text}, ensure_ascii=False) + "\n")
    g = generation_params(params, corpus)
    write_json({"notes": len(notes), "tokens": sum(count_tokens(text) for _, text in notes), "target_tokens": target,
                "min_tokens": settings.min_tokens, "max_tokens": settings.max_tokens,
                "min_tokens_setting": g["min_tokens"], "max_tokens_setting": g["max_tokens"]},
               METRICS.format(corpus=corpus))
    print(f"generate@{corpus}: {len(notes)} notes in {time.perf_counter() - t0:.1f} s")


def _generic(model: Any) -> Callable[..., list[tuple[str, str]]]:
    """The shared loop for autoregressive models, with the signature of ``generate_corpus`` methods."""
    return functools.partial(generate_corpus, model)


if __name__ == "__main__":
    main()
