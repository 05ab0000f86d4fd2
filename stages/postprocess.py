"""Stage ``postprocess@CORPUS``: parse the generated inline tags into standoff documents (malformed
tags removed and counted, no note dropped except by a counted rule), and write the corpus
statistics (Tables 4 and 5) and the PHI distribution against the real corpus (Figure 5)."""

from __future__ import annotations

import csv
import json
import sys
from pathlib import Path

from synthdeid.accounting import Counts
from synthdeid.corpus_stats import phi_distribution, size_stats, tag_stats
from synthdeid.formats import read_jsonl, write_jsonl
from synthdeid.inline import decode
from synthdeid.params import get, load_params
from synthdeid.plugin_manager import registry
from synthdeid.stages.common import stage_main
from synthdeid.tags import CANONICAL_TAGS

RAW = "data/synthetic/{corpus}/raw.jsonl"
REAL = "data/pseudonymized/train.jsonl"
OUT = "data/synthetic/{corpus}/documents.jsonl"
METRICS = "data/metrics/postprocess/{corpus}.json"
PLOT = "data/plots/phi_distribution/{corpus}.csv"


@stage_main
def main() -> None:
    corpus = sys.argv[1]
    params = load_params()
    pack = registry("language").create(get(params, "language"))
    require_phi = bool((get(params, f"corpora.{corpus}").get("config") or {}).get("require_phi", False))
    labels = sorted(set(CANONICAL_TAGS) | set((get(params, "tags.mapping") or {}).values()))
    counts = Counts(f"postprocess@{corpus}")
    docs, tag_counts = [], []
    for line in Path(RAW.format(corpus=corpus)).read_text(encoding="utf-8").splitlines():
        raw = json.loads(line)
        counts.took()
        decoded = decode(raw["text"], raw["id"], labels=labels)
        tag_counts.append(decoded.counts)
        if not decoded.document.text.strip():
            counts.reject("empty note")
        elif require_phi and not decoded.document.spans:
            counts.reject("no PHI (the decoder's require_phi)")
        else:
            docs.append(decoded.document)
            counts.kept()
    write_jsonl(docs, OUT.format(corpus=corpus))
    real = list(read_jsonl(REAL))
    counts.extra = {
        "synthetic": size_stats(docs, pack.tokenize, pack.split_sentences),
        "real": size_stats(real, pack.tokenize, pack.split_sentences),
        "tags": tag_stats(tag_counts),
    }
    counts.write(METRICS.format(corpus=corpus))
    rows = phi_distribution(real, docs, CANONICAL_TAGS)
    plot = Path(PLOT.format(corpus=corpus))
    plot.parent.mkdir(parents=True, exist_ok=True)
    with open(plot, "w", newline="", encoding="utf-8") as f:
        w = csv.DictWriter(f, fieldnames=list(rows[0]), lineterminator="\n")
        w.writeheader()
        w.writerows(rows)


if __name__ == "__main__":
    main()
