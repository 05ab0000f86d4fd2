"""Stage ``privacy@CORPUS``: every configured privacy metric of a synthetic corpus against the
generator's (pseudonymized) training notes, the high-risk pairs with their review page, and the
privacy gate: a corpus over the thresholds fails the stage unless ``privacy.gate.override``."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from synthdeid.accounting import write_json
from synthdeid.errors import SynthdeidError
from synthdeid.formats import read_jsonl
from synthdeid.data_canaries import RECORD as DATA_CANARIES
from synthdeid.params import corpus_generator, get, load_params
from synthdeid.plugin_manager import registry
from synthdeid.privacy import PrivacyInput
from synthdeid.privacy_gate import OVERRIDE_WARNING, Gate
from synthdeid.review.page import write_review_page
from synthdeid.stages.common import stage_main

REAL = "data/pseudonymized/train.jsonl"
HELDOUT = "data/pseudonymized/dev.jsonl"
SYNTHETIC = "data/synthetic/{corpus}/documents.jsonl"
# a generated corpus's prompts (a refilled real note's id, for mlm_fill); machine-annotated corpora
# have none. Not a dvc.yaml dep: the matrix also holds those corpora, and documents.jsonl, which
# is, is written from it by postprocess
RAW = "data/synthetic/{corpus}/raw.jsonl"
OUT = "data/privacy/{corpus}"
METRICS = "data/metrics/privacy/{corpus}.json"
PAGE = "data/reports/review/{corpus}.html"


def refill_sources(raw_path: str, real: list) -> dict[str, str]:
    """Synthetic id -> source note id, for the raw notes whose prompt is a real training note's id
    (none when the corpus has no raw notes: a machine-annotated corpus)."""
    ids = {d.id for d in real}
    out: dict[str, str] = {}
    if not Path(raw_path).exists():
        return out
    for line in Path(raw_path).read_text(encoding="utf-8").splitlines():
        record = json.loads(line) if line.strip() else {}
        if record.get("prompt") in ids:
            out[record["id"]] = record["prompt"]
    return out


@stage_main
def main() -> None:
    corpus = sys.argv[1]
    params = load_params()
    gate = Gate.parse(get(params, "privacy.gate"))  # fails before measuring: unknown keys, bad numbers
    metrics = get(params, "privacy.metrics") or {}
    gate.check_metrics(metrics)
    if gate.override:
        print(f"warning: {OVERRIDE_WARNING}", file=sys.stderr)
    pack = registry("language").create(get(params, "language"))
    real = list(read_jsonl(REAL))
    synthetic = list(read_jsonl(SYNTHETIC.format(corpus=corpus)))
    generator = corpus_generator(params, corpus)
    data = PrivacyInput(real=real, synthetic=synthetic, tokenize=pack.tokenize,
                        heldout=list(read_jsonl(HELDOUT)), sources=refill_sources(RAW.format(corpus=corpus), real),
                        data_canaries=Path(DATA_CANARIES.format(name=generator)) if generator else None)
    out = Path(OUT.format(corpus=corpus))
    out.mkdir(parents=True, exist_ok=True)
    summary: dict[str, Any] = {}
    notes: dict[str, dict[str, Any]] = {d.id: {"synthetic_id": d.id} for d in synthetic}
    pairs: list[dict[str, Any]] = []
    for name, config in metrics.items():
        result = registry("privacy_metric").create(name, config or {}).compute(data)
        summary[name] = result.summary
        if name == "high_risk_pairs":
            pairs = result.rows
        else:
            for row in result.rows:
                notes[row["synthetic_id"]].update(row)
    with open(out / "notes.jsonl", "w", encoding="utf-8", newline="\n") as f:
        f.writelines(json.dumps(r, ensure_ascii=False) + "\n" for r in notes.values())
    texts = {d.id: d.text for d in real} | {d.id: d.text for d in synthetic}
    for i, p in enumerate(pairs):
        p.update(pair_id=f"{corpus}-{i + 1:03d}", synthetic_text=texts[p["synthetic_id"]], real_text=texts[p["real_id"]])
    with open(out / "pairs.jsonl", "w", encoding="utf-8", newline="\n") as f:
        f.writelines(json.dumps(p, ensure_ascii=False) + "\n" for p in pairs)
    write_review_page(pairs, PAGE.format(corpus=corpus), title=f"synthdeid review: {corpus}")
    failures = gate.failures(summary)  # a threshold's figure missing or not finite: fails here, closed
    write_json({"corpus": corpus, **summary, "gate": {"passed": not failures, "failures": failures,
                                                     "limits": dict(gate.limits), "override": gate.override,
                                                     "overridden": bool(failures and gate.override)}},
               METRICS.format(corpus=corpus))
    if failures and not gate.override:
        worst = sorted(notes.values(), key=lambda r: -(r.get("longest_run") or 0))[:5]
        raise SynthdeidError(
            f"privacy gate: corpus {corpus!r} is not published:\n  - " + "\n  - ".join(failures)
            + "\n  worst notes (longest verbatim run): "
            + ", ".join(f"{r['synthetic_id']} ({r.get('longest_run')} tokens from {r.get('real_id')})" for r in worst)
            + f"\n  see {METRICS.format(corpus=corpus)} and {PAGE.format(corpus=corpus)}; to publish anyway set "
            "privacy.gate.override: true (and say why in the datasheet)")


if __name__ == "__main__":
    main()
