"""Stage ``postprocess@CORPUS``: parse the generated inline tags into standoff documents (malformed
tags removed and counted, no note dropped except by a counted rule; a span of a label the training
notes have none of, or longer than its label's training spans, is removed with its text, counted), and write the corpus
statistics (Tables 4 and 5) and the PHI distribution against the real corpus (Figure 5). With
``corpora.CORPUS.fresh_surrogates: true`` every PHI span gets a new surrogate from the language pack
(``synthdeid.phi.fresh_surrogates``; a list of labels, or ``{labels: ..., shapes: training}`` to model
the surrogates on training spans) and the metrics show the PHI leakage before and after."""

from __future__ import annotations

import sys

from synthdeid import paths
from synthdeid.corpus.accounting import Counts
from synthdeid.corpus.formats import read_jsonl, write_jsonl
from synthdeid.corpus.rare_words import compare_rare_words
from synthdeid.corpus.span_bounds import SpanBounds
from synthdeid.corpus.stats import size_stats, tag_stats, write_phi_distribution
from synthdeid.corpus.tags import CANONICAL_TAGS, tag_labels
from synthdeid.generation.origin import Origin
from synthdeid.generation.postprocess import (
    check_fresh_labels,
    decode_corpus,
    require_tags_for_taggers,
    unknown_filler,
)
from synthdeid.phi.fresh_surrogates import refresh_corpus
from synthdeid.phi.head_words import HeadWords
from synthdeid.plugin_system.manager import registry
from synthdeid.spec.packs import language_pack
from synthdeid.stages.common import stage_main, study


@stage_main
def main() -> None:
    corpus = sys.argv[1]
    s = study()
    spec = s.corpora[corpus]
    pack = language_pack(s)
    # beam's require_phi: the decoder keeps every note, postprocess drops those without PHI
    require_phi = bool(
        getattr(registry("decoder").create(s.corpora[corpus].decoder, s.corpora[corpus].settings), "require_phi", False)
    )
    labels = tag_labels(s.tags.mapping)
    counts = Counts(f"postprocess@{corpus}")
    real = list(read_jsonl(paths.pseudonymized("train")))
    prepared = list(read_jsonl(paths.prepared("train")))  # the real notes with their PHI: no filled word is theirs
    bounds = SpanBounds.of(real, pack.tokenize)
    fill = unknown_filler(pack, real, prepared, s.generators[spec.generator], s.pseudonymize.seed)
    raw = paths.raw_corpus(corpus)
    docs, tag_counts = decode_corpus(raw, labels, require_phi, counts, bounds, pack.tokenize, fill)
    require_tags_for_taggers(corpus, spec.generator, {*s.utility.synthetic, *s.utility.augmented}, docs, labels)
    fresh = spec.fresh_surrogates  # built by the study spec; None: off
    check_fresh_labels(fresh, corpus, labels)
    report = None
    if fresh is not None:  # the PHI spans (of the chosen labels) get new surrogates; leakage before/after
        heads = HeadWords.read(paths.HEAD_WORDS)
        docs, report = refresh_corpus(docs, pack, s.pseudonymize.seed, real, fresh, heads)
    write_jsonl(docs, paths.synthetic_corpus(corpus))
    Origin(corpus, spec.generator, fresh).write(paths.corpus_origin(corpus))
    counts.extra = {
        **counts.extra,  # the spans decode_corpus dropped
        "synthetic": size_stats(docs, pack.tokenize, pack.split_sentences),
        "real": size_stats(real, pack.tokenize, pack.split_sentences),
        "tags": tag_stats(tag_counts),
        "span_bounds": bounds.as_dict(),
        **({"fresh_surrogates": report.as_dict()} if report else {}),
        "rare_words": compare_rare_words(prepared, docs),  # the PHI share of rare words, beside the real notes'
    }
    counts.write(paths.stage_metrics("postprocess", corpus))
    write_phi_distribution(real, docs, CANONICAL_TAGS, paths.phi_distribution_plot(corpus))


if __name__ == "__main__":
    main()
