"""Stage ``postprocess@CORPUS``: parse the generated inline tags into standoff documents (malformed
tags removed and counted, no note dropped except by a counted rule), and write the corpus
statistics (Tables 4 and 5) and the PHI distribution against the real corpus (Figure 5). With
``corpora.CORPUS.fresh_surrogates: true`` every PHI span gets a new surrogate from the language pack
(``synthdeid.fresh_surrogates``; a list of labels, or ``{labels: ..., shapes: training}`` to model
the surrogates on training spans) and the metrics show the PHI leakage before and after."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from synthdeid.accounting import Counts
from synthdeid.corpus_stats import size_stats, tag_stats, write_phi_distribution
from synthdeid.errors import SynthdeidError
from synthdeid.formats import read_jsonl, write_jsonl
from synthdeid.fresh_surrogates import FreshSettings, refresh_corpus
from synthdeid.inline import decode
from synthdeid.params import get, load_params
from synthdeid.plugin_manager import registry
from synthdeid.stages.common import stage_main
from synthdeid.tags import CANONICAL_TAGS, tag_labels

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
    labels = tag_labels(get(params, "tags.mapping"))
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
    generator = get(params, f"corpora.{corpus}.generator")
    utility = params.get("utility") or {}
    trained_on = set(utility.get("synthetic") or []) | set(utility.get("augmented") or [])
    if corpus in trained_on and docs and not any(d.spans for d in docs) and labels:
        raise SynthdeidError(
            f"postprocess@{corpus}: the {len(docs)} notes generate@{corpus} wrote hold no PHI tags, so the taggers "
            f"of utility.synthetic/augmented cannot train on them: generator {generator!r} learned none (stage "
            f"train_lm@{generator}; its validation loss is in data/metrics/train_lm/{generator}.json); train it "
            f"longer or on more notes (generators.{generator}.config: max_epochs, max_train_tokens), or check that "
            "the training notes hold PHI (`synthdeid check`)")
    real = list(read_jsonl(REAL))
    fresh = FreshSettings.from_param(get(params, f"corpora.{corpus}").get("fresh_surrogates", False),
                                     f"corpora.{corpus}.fresh_surrogates")
    if fresh is not None and fresh.labels is not None and fresh.labels - set(labels):
        raise SynthdeidError(
            f"corpora.{corpus}.fresh_surrogates.labels: {', '.join(sorted(fresh.labels - set(labels)))} "
            f"is no label of this corpus; the labels are {', '.join(sorted(labels))} (params.yaml)")
    if fresh is not None and fresh.shapes == "training" and (get(params, f"generators.{generator}").get("config") or {}).get("dp"):
        raise SynthdeidError(
            f"corpora.{corpus}.fresh_surrogates.shapes: training models the surrogates on the training notes' spans, "
            f"outside the differential-privacy guarantee of generator {generator!r}; use shapes: generated for a DP "
            f"corpus (params.yaml)")
    report = None
    if fresh is not None:  # the PHI spans (of the chosen labels) get new surrogates; leakage before/after
        docs, report = refresh_corpus(docs, pack, int(get(params, "pseudonymize.seed")), real, fresh)
    write_jsonl(docs, OUT.format(corpus=corpus))
    counts.extra = {
        "synthetic": size_stats(docs, pack.tokenize, pack.split_sentences),
        "real": size_stats(real, pack.tokenize, pack.split_sentences),
        "tags": tag_stats(tag_counts),
        **({"fresh_surrogates": report.as_dict()} if report else {}),
    }
    counts.write(METRICS.format(corpus=corpus))
    write_phi_distribution(real, docs, CANONICAL_TAGS, PLOT.format(corpus=corpus))


if __name__ == "__main__":
    main()
