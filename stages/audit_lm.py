"""Stage ``audit_lm@NAME``: the model-based privacy metrics (``privacy.model_metrics``, e.g.
canary exposure and membership inference) of the trained generator ``generators.NAME``."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from synthdeid import paths
from synthdeid.api import PrivacyInput
from synthdeid.corpus.accounting import write_json
from synthdeid.corpus.formats import read_jsonl
from synthdeid.generation.lm_text import training_text
from synthdeid.params import get, load_params
from synthdeid.plugin_system.manager import registry
from synthdeid.stages.common import stage_main


@stage_main
def main() -> None:
    name = sys.argv[1]
    params = load_params()
    spec = get(params, f"generators.{name}")
    metrics: dict[str, Any] = get(params, "privacy.model_metrics") or {}
    # with data_share: only the notes the generator learnt are members
    text, ids, _ = training_text(spec, name, paths.inline_text, paths.pseudonymized)
    members = set(ids["train_ids"])
    model_dir = Path(paths.model_dir(name))
    lm = registry("generator").create(spec["plugin"], spec.get("config") or {}).load(model_dir) if metrics else None
    data = PrivacyInput(real=[d for d in read_jsonl(paths.pseudonymized("train")) if d.id in members], synthetic=[],
                        tokenize=registry("language").create(get(params, "language")).tokenize,
                        model_dir=model_dir, heldout=list(read_jsonl(paths.pseudonymized("dev"))),
                        extra={"lm": lm, "lm_text": text})
    summary = {metric: registry("privacy_metric").create(metric, config or {}).compute(data).summary
               for metric, config in metrics.items()}
    write_json({"generator": name, "plugin": spec["plugin"], **summary}, paths.stage_metrics("privacy_model", name))


if __name__ == "__main__":
    main()
