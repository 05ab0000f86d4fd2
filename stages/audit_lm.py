"""Stage ``audit_lm@NAME``: the model-based privacy metrics (``privacy.model_metrics``, e.g.
canary exposure and membership inference) of the trained generator ``generators.NAME``."""

from __future__ import annotations

import sys
from pathlib import Path

from synthdeid import paths
from synthdeid.api import PrivacyInput
from synthdeid.corpus.accounting import write_json
from synthdeid.corpus.formats import read_jsonl
from synthdeid.generation.lm_text import data_seed, training_text
from synthdeid.plugin_system.manager import registry
from synthdeid.spec.packs import language_pack
from synthdeid.stages.common import stage_main, study


@stage_main
def main() -> None:
    name = sys.argv[1]
    s = study()
    spec = s.generators[name]
    metrics = s.privacy.metric_settings("model_metrics")
    generator = registry("generator").create(s.generators[name].plugin, s.generators[name].settings)
    # with data_share: only the notes the generator learnt are members (drawn as train_lm drew them)
    text, ids, _ = training_text(spec, data_seed(generator), paths.inline_text, paths.pseudonymized)
    members = set(ids["train_ids"])
    model_dir = Path(paths.model_dir(name))
    lm = generator.load(model_dir) if metrics else None
    data = PrivacyInput(
        real=[d for d in read_jsonl(paths.pseudonymized("train")) if d.id in members],
        synthetic=[],
        tokenize=language_pack(s).tokenize,
        model_dir=model_dir,
        heldout=list(read_jsonl(paths.pseudonymized("dev"))),
        extra={"lm": lm, "lm_text": text},
    )
    summary = {
        metric: plugin.compute(data).summary
        for metric, plugin in {m: registry("privacy_metric").create(m, c) for m, c in metrics.items()}.items()
    }
    write_json({"generator": name, "plugin": spec.plugin, **summary}, paths.stage_metrics("privacy_model", name))


if __name__ == "__main__":
    main()
