"""Stage ``pseudonymize``: every PHI span of the language-model splits replaced by a seeded,
document-consistent surrogate from the language pack; fails closed."""

from __future__ import annotations

from synthdeid import paths
from synthdeid.corpus.accounting import Counts
from synthdeid.corpus.formats import read_jsonl, write_jsonl
from synthdeid.corpus.records import label_counts
from synthdeid.generation.lm_text import LM_SPLITS
from synthdeid.params import get, get_int, load_params
from synthdeid.phi.pseudonymize import pseudonymize
from synthdeid.plugin_system.manager import registry
from synthdeid.progress import track
from synthdeid.stages.common import stage_main

METRICS = paths.metrics("pseudonymize")


@stage_main
def main() -> None:
    params = load_params()
    pack = registry("language").create(get(params, "language"))
    seed = get_int(params, "pseudonymize.seed")
    counts = Counts("pseudonymize")
    counts.extra = {"language": pack.code}
    for split in LM_SPLITS:
        docs = list(read_jsonl(paths.annotated(split)))
        counts.took(len(docs))
        out = [pseudonymize(d, pack, seed) for d in track(docs, f"pseudonymize {split}", len(docs))]
        counts.kept(write_jsonl(out, paths.pseudonymized(split)))
        counts.extra[split] = {"spans_replaced": label_counts(out)}
    counts.write(METRICS)


if __name__ == "__main__":
    main()
