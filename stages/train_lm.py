"""Stage ``train_lm@NAME``: train the generator ``generators.NAME`` on the inline LM text (without
its PHI tags when the generator has ``tags: false``)."""

from __future__ import annotations

import sys
from pathlib import Path

from synthdeid import paths
from synthdeid.api import TrainingData
from synthdeid.corpus.accounting import split_timing, write_json
from synthdeid.corpus.inline import special_tokens
from synthdeid.corpus.tags import tag_labels
from synthdeid.generation import distributed
from synthdeid.generation.lm import uses_tags
from synthdeid.generation.lm_text import data_seed, training_text
from synthdeid.generation.lm_training import add_training_canaries, min_count_floor
from synthdeid.generation.vocab_anonymize import anonymize_model_dir
from synthdeid.plugin_system.manager import registry
from synthdeid.privacy.canaries import CANARY_FILE
from synthdeid.privacy.data_canaries import write_data_canaries
from synthdeid.spec.packs import language_pack
from synthdeid.stages.common import stage_main, study


@stage_main
def main() -> None:
    distributed.init()  # under torchrun: join the process group before any model is built
    name = sys.argv[1]
    s = study()
    spec = s.generators[name]
    generator = registry("generator").create(s.generators[name].plugin, s.generators[name].settings)
    tagged = uses_tags(spec)  # tags: false strips the PHI tags (machine-annotation route)
    labels = tag_labels(s.tags.mapping) if tagged else []
    seed = data_seed(generator)  # the config's seed; 0 when it is left to the data (gpt2's None)
    text, ids, share = training_text(spec, seed, paths.inline_text, paths.pseudonymized)
    out = distributed.output_dir(Path(paths.model_dir(name)))  # under torchrun: the main process writes
    out.mkdir(parents=True, exist_ok=True)
    (out / CANARY_FILE).unlink(missing_ok=True)
    counts = {"data_share": share, "train_lines_real": len(text["train"])}
    added, data_record = add_training_canaries(
        spec.canaries,
        spec.data_canaries,
        language_pack(s),
        text,
        ids,
        labels,
        tagged,
        min_count_floor(generator),
        out,
    )
    data = TrainingData(
        train=text["train"],
        dev=text["dev"],
        special_tokens=special_tokens(labels),
        seed=seed,
        pretokenized=s.inline.tokenize,
        extra=ids,
    )
    anonymize = spec.anonymize_vocab
    metrics, timing = split_timing(generator.train(data, out))
    print(f"train_lm@{name}: {timing}")
    if not distributed.is_main():
        return
    write_data_canaries(data_record, name)
    if anonymize is not None:  # PHI tokens of the training text out of the vocabulary (Verkijk & Vossen)
        metrics["vocab_anonymization"] = anonymize_model_dir(generator, out, data.train, anonymize)
    write_json(
        {"generator": spec.plugin, "tags": tagged, "train_lines": len(data.train), **counts, **added, **metrics},
        paths.stage_metrics("train_lm", name),
    )


if __name__ == "__main__":
    main()
