"""Stage ``generate@CORPUS``: generate the raw synthetic corpus ``corpora.CORPUS`` (a trained
generator with a decoder) from the held-out prompts, until the target size in tokens."""

from __future__ import annotations

import sys
import time
from pathlib import Path

from synthdeid import paths
from synthdeid.api import WritesUnknown
from synthdeid.corpus.accounting import write_json
from synthdeid.corpus.inline import strip_tags
from synthdeid.generation.generate import corpus_writer, count_tokens
from synthdeid.generation.lm import uses_tags
from synthdeid.generation.lm_text import nonblank_lines
from synthdeid.generation.raw_notes import read_prompts, write_raw_notes
from synthdeid.generation.settings import generation_record, settings_for
from synthdeid.generation.unknown_fill import writes_unknown
from synthdeid.plugin_system.manager import registry
from synthdeid.progress import counter
from synthdeid.spec.packs import language_pack
from synthdeid.stages.common import stage_main, study


@stage_main
def main() -> None:
    corpus = sys.argv[1]
    s = study()
    gen_name = s.corpora[corpus].generator
    decoder = registry("decoder").create(s.corpora[corpus].decoder, s.corpora[corpus].settings)
    generator = registry("generator").create(s.generators[gen_name].plugin, s.generators[gen_name].settings)
    model = generator.load(Path(paths.model_dir(gen_name)))
    decoder.check(model)  # an unsupported generator x decoder pair fails here, before any work
    # the training spans: max_span_tokens' limits, tag_distribution's shares, auto lengths
    g = s.generation(corpus)
    settings, target = settings_for(g, corpus, model, paths.inline_text("train"))
    tokens = sum(count_tokens(line) for line in nonblank_lines(paths.inline_text("train")))
    dp = getattr(s.generators[gen_name].settings, "dp", None) is not None  # DP: nothing read outside DP-SGD
    unknown = isinstance(model, WritesUnknown) and writes_unknown(g.unknown_words, language_pack(s), corpus, tokens, dp)
    if isinstance(model, WritesUnknown):
        model.write_unknown = unknown  # postprocess fills each <unk> with an ordinary word
    prompts = read_prompts(paths.PROMPTS)
    if not uses_tags(s.generators[gen_name]):  # an untagged generator never saw a tag: prompt it without
        prompts = [strip_tags(p) for p in prompts]
    t0 = time.perf_counter()
    with counter(f"generate {corpus}", target) as advance:
        notes = corpus_writer(model)(decoder, prompts, settings, target, s.generate.seed, progress=advance)
    write_raw_notes(notes, corpus, paths.raw_corpus(corpus))
    # the settings generation used, auto ones resolved
    record = {**generation_record(notes, settings, target, g), "writes_unknown": unknown, "training_tokens": tokens}
    write_json(record, paths.stage_metrics("generate", corpus))
    print(f"generate@{corpus}: {len(notes)} notes in {time.perf_counter() - t0:.1f} s")


if __name__ == "__main__":
    main()
