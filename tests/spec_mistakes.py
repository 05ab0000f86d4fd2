"""Typical params.yaml mistakes a user makes, one at a time, applied to the demo's params: each
is ``(name, edit, key)``, where ``edit(params)`` changes the loaded mapping in place and ``key`` is
the dotted key the error must name. Used by tests/test_study_spec.py and bench/spec_mistakes.py
(which prints every message from ``check`` and from a stage)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

Params = dict[str, Any]


def _set(dotted: str, value: Any) -> Callable[[Params], None]:
    def edit(p: Params) -> None:
        *parents, last = dotted.split(".")
        node = p
        for part in parents:
            node = node[part]
        node[last] = value

    return edit


def _rename(dotted: str, new: str) -> Callable[[Params], None]:
    def edit(p: Params) -> None:
        *parents, last = dotted.split(".")
        node = p
        for part in parents:
            node = node[part]
        node[new] = node.pop(last)

    return edit


MISTAKES: list[tuple[str, Callable[[Params], None], str]] = [
    ("generate.min_token", _rename("generate.min_tokens", "min_token"), "generate.min_token"),
    (
        "corpora.lstm_p.target_token",
        _rename("corpora.lstm_p.target_tokens", "target_token"),
        "corpora.lstm_p.target_token",
    ),
    ("corpora.lstm_p.decodr", _rename("corpora.lstm_p.decoder", "decodr"), "corpora.lstm_p.decodr"),
    ("corpora.lstm_p.confg", _rename("corpora.lstm_p.config", "confg"), "corpora.lstm_p.confg"),
    ("generators.lstm.confg", _rename("generators.lstm.config", "confg"), "generators.lstm.confg"),
    ("generators.lstm.canary", _rename("generators.lstm.canaries", "canary"), "generators.lstm.canary"),
    ("tags.keep_unmapped quoted", _set("tags.keep_unmapped", "false"), "tags.keep_unmapped"),
    ("corpus.on_invalid maybe", _set("corpus.on_invalid", "maybe"), "corpus.on_invalid"),
    ("inline.prompt_tokens three", _set("inline.prompt_tokens", "three"), "inline.prompt_tokens"),
    ("utility.synthetic unknown corpus", _set("utility.synthetic", ["lstm_p", "lstm_x"]), "utility.synthetic.1"),
    ("learning_curve fraction 1.5", _set("utility.learning_curve.fractions", [1.5]), "utility.learning_curve"),
    (
        "learning_curve corpus without its synthetic setting",
        _set("utility.synthetic", ["lstm_temp", "lstm_m"]),
        "utility.learning_curve.corpora.0",
    ),
    ("generate.batch_size 0", _set("generate.batch_size", 0), "generate.batch_size"),
    ("generate.tag_safe quoted", _set("generate.tag_safe", "yes"), "generate.tag_safe"),
    ("unknown top-level section", _set("utilty", {"seed": 0}), "utilty"),
    ("prepare.seed abc", _set("prepare.seed", "abc"), "prepare.seed"),
    ("prepare.split abc", _set("prepare.split", "abc"), "prepare.split"),
    (
        "tagger max_epochs ten",
        _set("taggers.bilstm_crf.config.max_epochs", "ten"),
        "taggers.bilstm_crf.config.max_epochs",
    ),
    ("prepare.sede", _rename("prepare.seed", "sede"), "prepare.sede"),
    ("corpus.sorce", _rename("corpus.source", "sorce"), "corpus.sorce"),
    ("language no (YAML false)", _set("language", False), "language"),
    ("language unknown", _set("language", "xx"), "language"),
    ("generator plugin unknown", _set("generators.lstm.plugin", "lstn"), "generators.lstm.plugin"),
    ("decoder unknown", _set("corpora.lstm_p.decoder", "nucleos"), "corpora.lstm_p.decoder"),
    ("decoder config misspelt", _set("corpora.lstm_p.config", {"top_q": 0.9}), "corpora.lstm_p.config.top_q"),
    ("decoder top_p out of range", _set("corpora.lstm_p.config", {"top_p": 1.5}), "corpora.lstm_p.config.top_p"),
    ("generator config misspelt", _set("generators.lstm.config", {"max_epoch": 3}), "generators.lstm.config.max_epoch"),
    ("corpus names no generator", _set("corpora.lstm_p.generator", "lstm2"), "corpora.lstm_p.generator"),
    ("utility.tagger unknown", _set("utility.tagger", "bilstm"), "utility.tagger"),
    ("privacy.corpora unknown", _set("privacy.corpora", ["lstm_p", "gpt_q"]), "privacy.corpora.1"),
    ("privacy metric unknown", _set("privacy.metrics.rogue", {}), "privacy.metrics.rogue"),
    ("privacy metric config misspelt", _set("privacy.metrics.rouge", {"m": [3]}), "privacy.metrics.rouge.m"),
    ("gate key misspelt", _set("privacy.gate.max_exact_duplicate", 0), "privacy.gate.max_exact_duplicate"),
    ("gate former key", _set("privacy.gate.max_phi_leakage", 0.1), "privacy.gate"),
    ("rule baseline of another language", _set("language", "es"), "utility.rule_baseline"),
    (
        "machine_annotated from a tagged corpus",
        _set("machine_annotated.lstm_m.corpus", "lstm_p"),
        "machine_annotated.lstm_m.corpus",
    ),
    (
        "tagger_share without real",
        lambda p: p["machine_annotated"]["lstm_m"].update(tagger="synthetic-lstm_p", tagger_share=0.5),
        "machine_annotated.lstm_m",
    ),
    ("data_share 0", _set("generators.lstm_raw.data_share", 0), "generators.lstm_raw.data_share"),
    (
        "canaries per_repetition 0",
        _set("generators.lstm.canaries.per_repetition", 0),
        "generators.lstm.canaries.per_repetition",
    ),
    ("canaries misspelt", _set("generators.lstm.canaries.repetition", [1]), "generators.lstm.canaries.repetition"),
    (
        "fresh_surrogates shapes wrong",
        _set("corpora.lstm_p.fresh_surrogates", {"labels": "all", "shapes": "real"}),
        "corpora.lstm_p.fresh_surrogates",
    ),
    (
        "head_words label misspelt",  # would keep no head word at all, silently
        _set("pseudonymize.head_words.labels", ["Hospital", "Care_Institution"]),
        "pseudonymize.head_words.labels.1",
    ),
    (
        "fresh_surrogates label unknown",
        _set("corpora.lstm_p.fresh_surrogates", {"labels": ["Phone"], "shapes": "generated"}),
        "corpora.lstm_p.fresh_surrogates.labels.0",
    ),
    ("tag_distribution wrong", _set("generate.tag_distribution", "equal"), "generate.tag_distribution"),
    ("min_tokens negative", _set("generate.min_tokens", -5), "generate.min_tokens"),
    ("significance alpha 5", _set("utility.significance.alpha", 5), "utility.significance.alpha"),
    ("split not summing to 1", _set("prepare.split", [0.8, 0.1, 0.2]), "prepare.split"),
    ("corpus.format unknown", _set("corpus.format", "xml"), "corpus.format"),
    ("tags.mapping unknown name", _set("tags.mapping", "medocan"), "tags.mapping"),
    ("demo n_docs 0", _set("corpus.demo.n_docs", 0), "corpus.demo.n_docs"),
    ("tagger plugin unknown", _set("taggers.bilstm_crf.plugin", "bilstm"), "taggers.bilstm_crf.plugin"),
    ("gate sets nothing", _set("privacy.gate", {"override": False}), "privacy.gate"),
    ("annotate annotator unknown", _set("annotate.annotator", "dedcue"), "annotate.annotator"),
    ("section not a mapping", _set("generate", [1, 2]), "generate"),
    (
        "deduce cache_path outside the environment",  # DEDUCE would unpickle a file found there
        _set("annotate", {"annotator": "deduce", "config": {"cache_path": "/nonexistent/deduce-cache"}}),
        "annotate.config.cache_path",
    ),
]
