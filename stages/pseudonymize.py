"""Stage ``pseudonymize``: every PHI span of the language-model splits replaced by a seeded,
document-consistent surrogate from the language pack; fails closed. With
``pseudonymize.head_words``, the generic head words of institution names found in the training
notes stay (written to ``data/pseudonymized/head_words.json`` for the fresh surrogates and the
privacy audit)."""

from __future__ import annotations

from synthdeid import paths
from synthdeid.corpus.accounting import Counts
from synthdeid.corpus.formats import read_jsonl, write_jsonl
from synthdeid.corpus.records import label_counts
from synthdeid.generation.lm_text import LM_SPLITS
from synthdeid.phi.head_words import NONE, HeadWords
from synthdeid.phi.pseudonymize import pseudonymize
from synthdeid.progress import track
from synthdeid.spec.packs import language_pack
from synthdeid.stages.common import stage_main, study

METRICS = paths.metrics("pseudonymize")


@stage_main
def main() -> None:
    s = study()
    pack = language_pack(s)
    seed = s.pseudonymize.seed
    counts = Counts("pseudonymize")
    counts.extra = {"language": pack.code}
    wanted = s.pseudonymize.head_words
    heads = NONE
    if wanted is not None:  # decided on the training notes alone
        train = read_jsonl(paths.annotated("train"))
        heads = HeadWords.from_documents(train, wanted.labels, wanted.min_spans, wanted.min_notes)
    heads.write(paths.HEAD_WORDS)
    counts.extra["head_words"] = {label: len(words) for label, words in heads.by_label.items()}
    for split in LM_SPLITS:
        docs = list(read_jsonl(paths.annotated(split)))
        counts.took(len(docs))
        out = [pseudonymize(d, pack, seed, heads=heads) for d in track(docs, f"pseudonymize {split}", len(docs))]
        counts.kept(write_jsonl(out, paths.pseudonymized(split)))
        counts.extra[split] = {"spans_replaced": label_counts(out)}
    counts.write(METRICS)


if __name__ == "__main__":
    main()
