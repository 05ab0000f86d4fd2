"""Stage ``train_lm@NAME``: train the generator ``generators.NAME`` on the inline LM text."""

from __future__ import annotations

import sys
from pathlib import Path

from synthdeid.accounting import split_timing, write_json
from synthdeid.formats import read_jsonl
from synthdeid.inline import special_tokens
from synthdeid.lm import TrainingData
from synthdeid.params import get, load_params
from synthdeid.plugin_manager import registry
from synthdeid.stages.common import stage_main
from synthdeid.tags import CANONICAL_TAGS

TEXT = "data/inline/{split}.txt"
IDS = "data/pseudonymized/{split}.jsonl"  # the documents of the inline lines, in order
OUT = "data/models/{name}"
METRICS = "data/metrics/train_lm/{name}.json"


def read_lines(path: str) -> list[str]:
    return [line for line in Path(path).read_text(encoding="utf-8").split("\n") if line.strip()]


@stage_main
def main() -> None:
    name = sys.argv[1]
    params = load_params()
    spec = get(params, f"generators.{name}")
    generator = registry("generator").create(get(params, f"generators.{name}.plugin"), spec.get("config") or {})
    labels = sorted(set(CANONICAL_TAGS) | set((get(params, "tags.mapping") or {}).values()))
    data = TrainingData(
        train=read_lines(TEXT.format(split="train")),
        dev=read_lines(TEXT.format(split="dev")),
        special_tokens=special_tokens(labels),
        seed=int((spec.get("config") or {}).get("seed", 0)),
        pretokenized=bool(get(params, "inline.tokenize")),
        extra={f"{split}_ids": [d.id for d in read_jsonl(IDS.format(split=split))] for split in ("train", "dev")},
    )
    out = Path(OUT.format(name=name))
    out.mkdir(parents=True, exist_ok=True)
    metrics, timing = split_timing(generator.train(data, out))
    print(f"train_lm@{name}: {timing}")
    write_json({"generator": spec["plugin"], **metrics}, METRICS.format(name=name))


if __name__ == "__main__":
    main()
