"""Stage ``train_lm@NAME``: train the generator ``generators.NAME`` on the inline LM text (without
its PHI tags when the generator has ``tags: false``)."""

from __future__ import annotations

import dataclasses
import sys
from pathlib import Path

from synthdeid import distributed
from synthdeid.accounting import split_timing, write_json
from synthdeid.canaries import CANARY_FILE, DEFAULT_TEMPLATE, CanaryConfig, add_canaries, write_canaries
from synthdeid.data_canaries import DataCanaryConfig, add_data_canaries, write_data_canaries
from synthdeid.formats import read_jsonl
from synthdeid.inline import special_tokens, strip_tags
from synthdeid.lm import TrainingData, uses_tags
from synthdeid.params import get, load_params
from synthdeid.plugin_manager import registry
from synthdeid.split import check_share, share_indices
from synthdeid.stages.common import read_lines, stage_main
from synthdeid.tags import tag_labels
from synthdeid.vocab_anonymize import VocabAnonymization, anonymize_model_dir

TEXT = "data/inline/{split}.txt"
IDS = "data/pseudonymized/{split}.jsonl"  # the documents of the inline lines, in order
OUT = "data/models/{name}"
METRICS = "data/metrics/train_lm/{name}.json"


def training_text(spec: dict, name: str) -> tuple[dict[str, list[str]], dict[str, list[str]], float]:
    """The generator's LM text per split (untagged with ``tags: false``), the document id of each
    line (``train_ids``, ``dev_ids``) and its ``data_share``: with a share below 1 (the data-constraint
    ablation of Vakili et al.) the training lines are a seeded share of the notes (the generator's
    ``config.seed``), the same for train_lm and audit_lm."""
    tagged = uses_tags(spec, name)
    text = {split: [line if tagged else strip_tags(line) for line in read_lines(TEXT.format(split=split))]
            for split in ("train", "dev")}
    ids = {f"{split}_ids": [d.id for d in read_jsonl(IDS.format(split=split))] for split in ("train", "dev")}
    share = check_share(spec.get("data_share", 1.0), f"generators.{name}.data_share")
    if share < 1:
        keep = share_indices(len(text["train"]), share, int((spec.get("config") or {}).get("seed", 0)))
        text["train"] = [text["train"][i] for i in keep]
        ids["train_ids"] = [ids["train_ids"][i] for i in keep]
    return text, ids, share


@stage_main
def main() -> None:
    distributed.init()  # under torchrun: join the process group before any model is built
    name = sys.argv[1]
    params = load_params()
    spec = get(params, f"generators.{name}")
    generator = registry("generator").create(get(params, f"generators.{name}.plugin"), spec.get("config") or {})
    tagged = uses_tags(spec, name)  # tags: false strips the PHI tags (machine-annotation route)
    labels = tag_labels(get(params, "tags.mapping")) if tagged else []
    text, ids, share = training_text(spec, name)
    out = distributed.output_dir(Path(OUT.format(name=name)))  # under torchrun: the main process writes
    out.mkdir(parents=True, exist_ok=True)
    (out / CANARY_FILE).unlink(missing_ok=True)
    canaries = CanaryConfig.from_params(spec.get("canaries"), f"generators.{name}.canaries")
    data_canaries = DataCanaryConfig.from_params(spec.get("data_canaries"), f"generators.{name}.data_canaries")
    counts = {"data_share": share, "train_lines_real": len(text["train"]), "canaries": 0, "canary_lines": 0,
              "data_canary_lines": 0}
    floor = getattr(getattr(generator, "config", None), "min_count", 1)  # word-level LMs' <unk> threshold
    floor = floor if isinstance(floor, int) else 1
    real_lines = list(text["train"])
    if canaries is not None:  # only the in-memory training lines get them, never data/inline
        if canaries.template is None:  # the language pack's sentence
            pack = registry("language").create(get(params, "language"))
            canaries = dataclasses.replace(canaries, template=pack.canary_template or DEFAULT_TEMPLATE)
        if not tagged:
            canaries = dataclasses.replace(canaries, template=strip_tags(canaries.template))
        text["train"], ids["train_ids"], record = add_canaries(
            canaries, text["train"], ids["train_ids"], labels, floor)
        write_canaries(record, out)
        counts.update(canaries=len(record["canaries"]), canary_lines=record["lines_inserted"],
                      canary_space_size=record["space_size"])
    data_record = None
    if data_canaries is not None:  # members for the data-only membership inference (Meeus et al.)
        text["train"], ids["train_ids"], data_record = add_data_canaries(
            data_canaries, real_lines, text["train"], ids["train_ids"], floor)
        counts["data_canary_lines"] = data_record["lines_inserted"]
    data = TrainingData(
        train=text["train"],
        dev=text["dev"],
        special_tokens=special_tokens(labels),
        seed=int((spec.get("config") or {}).get("seed", 0)),
        pretokenized=bool(get(params, "inline.tokenize")),
        extra=ids,
    )
    anonymize = VocabAnonymization.parse(spec.get("anonymize_vocab"), f"generators.{name}.anonymize_vocab")
    metrics, timing = split_timing(generator.train(data, out))
    print(f"train_lm@{name}: {timing}")
    if not distributed.is_main():
        return
    write_data_canaries(data_record, name)
    if anonymize is not None:  # PHI tokens of the training text out of the vocabulary (Verkijk & Vossen)
        metrics["vocab_anonymization"] = anonymize_model_dir(out, data.train, anonymize)
    write_json({"generator": spec["plugin"], "tags": tagged, "train_lines": len(data.train), **counts, **metrics},
               METRICS.format(name=name))


if __name__ == "__main__":
    main()
