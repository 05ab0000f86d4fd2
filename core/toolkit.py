"""The helpers a plugin may reuse, declared in one place: the stable plugin-author surface next to
``synthdeid.api``.

``synthdeid.api`` declares what a plugin implements (the hooks, the factories and the objects they
return); this module is what a plugin builds them from. A third-party plugin imports only
``synthdeid`` (``hookimpl``, ``Document``, ``Span``, the errors), ``synthdeid.api`` and
``synthdeid.toolkit``; every other module of synthdeid is internal and may change between releases
(``tests/test_public_surface.py`` holds the examples and the ``synthdeid new-plugin`` templates to
this). The names are re-exported from where the code lives, so a built-in plugin and a third-party
one run the same code:

- plugin settings: ``Settings`` (the base class of a plugin's settings, a pydantic model) and
  ``setting`` (a field with its bounds, choices, former names and description), ``load_settings``
  (settings from a mapping, e.g. a config saved next to a model: ``saved=True``), ``renames``,
  ``SettingError``, and ``lazy_exports`` (keep a plugin's registration free of heavy imports);
- language packs (docs/language-toolkit.md documents each): ``Tokenizer``, ``SentenceSplitter``,
  names (``NameLocale``, ``NameSurrogates``, ``clean_names``), dates (``DateLocale``,
  ``DateSurrogates``, ``name_input``), places (``PlaceSurrogates``, type-aware institutions
  ``InstitutionWords``), the surrogate base
  (``PhoneRules``, ``SurrogateData``, ``BaseSurrogates``), casing and shapes (``shape_replace``,
  ``capitalize_like``, ...), the pack wiring (``PackConfig``, ``SurrogateFactory``, ``make_pack``), a public word list
  (``public_words``, from ``wordfreq``),
  ``derive_seed`` and the shipped tag mappings (``builtin_mapping``);
- testing a pack: ``pseudonymize`` (a note through the pack's surrogates), ``check_canary_template``
  and ``registry`` (what synthdeid finds installed);
- inline tags: ``PAR``, ``EOD``, ``start_tag``, ``end_tag``, ``special_tokens``, ``strip_tags`` and
  the codec ``encode_inline`` / ``decode_inline`` (``synthdeid.corpus.inline``'s ``encode`` and
  ``decode``; the latter returns an ``InlineDecoded``: the document and its malformed-tag counts);
- taggers: a document's words and windows and their BIO tags (``line_words``, ``split_tokens``,
  ``span_cuts``, ``windows``, ``bio_tags``, ``decode_tags``: tags back to spans, ...), the
  training preamble (``training_labels``), ``recall_biased_tags`` (``api.RecallTunable``) and the
  ``tagger.json`` a trained tagger folder holds, which the ``tagger`` annotator reads
  (``write_tagger_meta``, ``read_tagger_meta``, ``saved_tagger_config``, ``TAGGER_META_FILE``), the
  retrain advice (``TAGGER_RETRAIN``) and the training runtime (``seed_everything``,
  ``torch_threads``, ``quiet_loggers``: third-party loggers held at WARNING);
- corpus files: ``write_json`` (sorted, indented), ``read_jsonl`` / ``write_jsonl``, and
  ``split_timing`` (a stage's time split into its parts);
- progress: ``track`` (a progress bar over an iterable), ``counter`` (one advanced by hand) and
  ``interactive`` (whether the bars show);
- model files, loaded safely (no pickle unless trusted, sizes checked before allocating):
  ``from_pretrained``, ``tokenizer_from``, ``adapter_folder``, ``load_json``, ``read_json``,
  ``load_weights``, ``stored_weights``, ``regular_file``, ``pickles_trusted``, ``unpickling``,
  ``refuse_pickle``, ``brief_error``, and the size limits ``check_model_sizes``,
  ``check_model_fits``, ``check_bio_tags``;
- training: precision (``PRECISIONS``, ``resolve_precision``, ``autocast``), ``dropout``, the device
  and data-parallel helpers (``DEVICE_HELP``, ``valid_device``, ``torch_device``, ``world_size``,
  ``shard``, ``all_sum``, ``sum_gradients``) and differentially private training (``DPConfig``,
  ``DPTraining``);
- generation: the decoding loop (``sample_loop``, ``corpus_prompts``, ``count_tokens``), the
  tag-grammar mask (``TagMask``), vocabulary anonymization (``UNK_PATTERN``, ``unk_tokens``) and the
  transformers causal-LM kit the ``gpt2`` and ``causal_lm`` generators share (``HFCausalLM``,
  ``InlineCodec``, ``add_special_tokens``, ``train_bpe``, ``pack_blocks``, ``LoopSettings``,
  ``LMStage``, ``train_stages``, ``train_dp``, ``note_samples``, ``lm_config_dict``,
  ``read_lm_meta``, ``LM_META_FILE``, ``check_lm_data``, ``lm_fingerprint``, ``set_lm_threads``);
- privacy metrics: the audit math (``AuditCorpus``, ``tokenize_text``, ``tokenize_documents``,
  ``phi_token_mask``, ``real_phi_strings``, ``ngram_recall``, ``phi_leakage``, ``exact_duplicates``,
  ``longest_common_run``, ``high_risk_pairs``, ``STRUCTURE_PATTERN``, ``audit_summary``,
  ``distinct_texts``, ``normalise_whitespace``, ``DEFAULT_CHUNK_CELLS``), surrogate realism
  (``surrogate_realism``), identifying leaks
  (``IdentifyingRule``, ``leakage_by_label``, ``DIRECT_IDENTIFIERS``, ``COMMON_LABELS``,
  ``COMMON_NOTES``, ``AGE_BELOW``), membership and exposure (``attack_summary``, ``auc``,
  ``bootstrap_auc``, ``best_advantage``, ``tpr_at_fpr``, ``LOW_FPRS``, ``sampled_exposure``,
  ``extrapolated_exposure``, ``lower_or_equal``, ``LaplaceNgramLM``), a model's sequence scores
  (``SequenceScore``, ``texts_to_score``, ``score_sequences``), the name probe (``Probe``,
  ``probes_in``, ``probe_predict``) and the canaries a model or corpus holds (``CANARY_FILE``,
  ``read_canaries``, ``read_data_canaries``).

Importing this module is cheap (no torch, numpy, transformers or Faker): every name is imported
from where it lives on first use (``lazy_exports``; the ``TYPE_CHECKING`` imports below are what a
type checker reads), so a plugin's registration stays light and imports only what it names. The
dvc-deps check (tests/import_closure.py) follows this table per name, so ``from synthdeid.toolkit
import track`` makes a stage depend on core/progress.py, not on every module listed here.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from synthdeid.plugin_system.lazy import lazy_exports

if TYPE_CHECKING:  # every name is imported on first use (PEP 562): see the module docstring
    from synthdeid.corpus.accounting import split_timing, write_json
    from synthdeid.corpus.formats.jsonl import read_jsonl, write_jsonl
    from synthdeid.corpus.inline import EOD, PAR, end_tag, special_tokens, start_tag, strip_tags
    from synthdeid.corpus.inline import Decoded as InlineDecoded
    from synthdeid.corpus.inline import decode as decode_inline
    from synthdeid.corpus.inline import encode as encode_inline
    from synthdeid.corpus.tags import builtin_mapping
    from synthdeid.corpus.tokens import Tokenize
    from synthdeid.dropout import dropout
    from synthdeid.generation.distributed import (
        DEVICE_HELP,
        all_sum,
        shard,
        sum_gradients,
        torch_device,
        valid_device,
        world_size,
    )
    from synthdeid.generation.dp import DPConfig, DPTraining
    from synthdeid.generation.generate import corpus_prompts, count_tokens, sample_loop
    from synthdeid.generation.hf_lm import (
        HFCausalLM,
        InlineCodec,
        LoopSettings,
        add_special_tokens,
        pack_blocks,
        train_bpe,
        train_stages,
    )
    from synthdeid.generation.hf_lm import Stage as LMStage
    from synthdeid.generation.hf_lm import config_dict as lm_config_dict
    from synthdeid.generation.hf_lm import read_meta as read_lm_meta
    from synthdeid.generation.hf_lm.common import META_FILE as LM_META_FILE
    from synthdeid.generation.hf_lm.common import check_data as check_lm_data
    from synthdeid.generation.hf_lm.common import fingerprint as lm_fingerprint
    from synthdeid.generation.hf_lm.common import set_threads as set_lm_threads
    from synthdeid.generation.hf_lm.dp_loop import note_samples, train_dp
    from synthdeid.generation.tagmask import TagMask
    from synthdeid.generation.vocab_anonymize import UNK_PATTERN, unk_tokens
    from synthdeid.language_kit.dates import DateLocale, DateSurrogates, name_input
    from synthdeid.language_kit.institutions import InstitutionWords
    from synthdeid.language_kit.names import NameLocale, NameSurrogates, clean_names
    from synthdeid.language_kit.ordinary_words import public_words
    from synthdeid.language_kit.pack import PackConfig, SurrogateFactory, make_pack
    from synthdeid.language_kit.places import PlaceSurrogates
    from synthdeid.language_kit.sentences import SentenceSplitter
    from synthdeid.language_kit.shapes import (
        ascii_slug,
        capitalize_like,
        is_all_caps,
        match_case,
        shape_replace,
        strip_accents,
    )
    from synthdeid.language_kit.surrogates import BaseSurrogates, PhoneRules, SurrogateData
    from synthdeid.language_kit.tokenizer import Tokenizer
    from synthdeid.model_files import (
        adapter_folder,
        from_pretrained,
        load_json,
        load_weights,
        pickles_trusted,
        read_json,
        refuse_pickle,
        regular_file,
        stored_weights,
        tokenizer_from,
        unpickling,
    )
    from synthdeid.model_files import brief as brief_error
    from synthdeid.model_limits import bio_tags as check_bio_tags
    from synthdeid.model_limits import check_sizes as check_model_sizes
    from synthdeid.model_limits import fits as check_model_fits
    from synthdeid.phi.pseudonymize import pseudonymize
    from synthdeid.phi.seeds import derive_seed
    from synthdeid.plugin_system.config import SettingError, Settings, load_settings, renames, setting
    from synthdeid.plugin_system.manager import registry
    from synthdeid.precision import PRECISIONS, autocast
    from synthdeid.precision import resolve as resolve_precision
    from synthdeid.privacy.audit import (
        AuditCorpus,
        exact_duplicates,
        high_risk_pairs,
        longest_common_run,
        ngram_recall,
        phi_leakage,
        phi_token_mask,
        real_phi_strings,
        tokenize_documents,
        tokenize_text,
    )
    from synthdeid.privacy.audit import summary as audit_summary
    from synthdeid.privacy.audit.exposure import extrapolated_exposure, lower_or_equal, sampled_exposure
    from synthdeid.privacy.audit.identifying import IdentifyingRule, leakage_by_label
    from synthdeid.privacy.audit.leakage import distinct_texts, normalise_whitespace
    from synthdeid.privacy.audit.membership import (
        LOW_FPRS,
        attack_summary,
        auc,
        best_advantage,
        bootstrap_auc,
        tpr_at_fpr,
    )
    from synthdeid.privacy.audit.ngram_lm import LaplaceNgramLM
    from synthdeid.privacy.audit.realism import realism as surrogate_realism
    from synthdeid.privacy.canaries import CANARY_FILE, read_canaries
    from synthdeid.privacy.canaries import check_template as check_canary_template
    from synthdeid.privacy.data_canaries import read_data_canaries
    from synthdeid.privacy.defaults import (
        AGE_BELOW,
        COMMON_LABELS,
        COMMON_NOTES,
        DEFAULT_CHUNK_CELLS,
        DIRECT_IDENTIFIERS,
        STRUCTURE_PATTERN,
    )
    from synthdeid.privacy.lm_score import SequenceScore, score_sequences, texts_to_score
    from synthdeid.privacy.probe import Probe, probes_in
    from synthdeid.privacy.probe import predict as probe_predict
    from synthdeid.progress import counter, interactive, track
    from synthdeid.tagging.recall import recall_biased_tags
    from synthdeid.tagging.runtime import CONFIG_FILE as TAGGER_META_FILE
    from synthdeid.tagging.runtime import RETRAIN as TAGGER_RETRAIN
    from synthdeid.tagging.runtime import quiet as quiet_loggers
    from synthdeid.tagging.runtime import read_meta as read_tagger_meta
    from synthdeid.tagging.runtime import saved_config as saved_tagger_config
    from synthdeid.tagging.runtime import seed_everything, torch_threads
    from synthdeid.tagging.runtime import write_meta as write_tagger_meta
    from synthdeid.tagging.words import (
        SPLITS,
        Word,
        bio_tags,
        covered_spans,
        entity_f1,
        line_words,
        restrict_labels,
        span_cuts,
        split_tokens,
        training_labels,
        windows,
    )
    from synthdeid.tagging.words import decode as decode_tags

__getattr__ = lazy_exports(
    __name__,
    {
        "split_timing": "synthdeid.corpus.accounting",
        "write_json": "synthdeid.corpus.accounting",
        "read_jsonl": "synthdeid.corpus.formats.jsonl",
        "write_jsonl": "synthdeid.corpus.formats.jsonl",
        "EOD": "synthdeid.corpus.inline",
        "InlineDecoded": "synthdeid.corpus.inline:Decoded",
        "PAR": "synthdeid.corpus.inline",
        "decode_inline": "synthdeid.corpus.inline:decode",
        "encode_inline": "synthdeid.corpus.inline:encode",
        "end_tag": "synthdeid.corpus.inline",
        "special_tokens": "synthdeid.corpus.inline",
        "start_tag": "synthdeid.corpus.inline",
        "strip_tags": "synthdeid.corpus.inline",
        "builtin_mapping": "synthdeid.corpus.tags",
        "dropout": "synthdeid.dropout",
        "DEVICE_HELP": "synthdeid.generation.distributed",
        "all_sum": "synthdeid.generation.distributed",
        "shard": "synthdeid.generation.distributed",
        "sum_gradients": "synthdeid.generation.distributed",
        "torch_device": "synthdeid.generation.distributed",
        "valid_device": "synthdeid.generation.distributed",
        "world_size": "synthdeid.generation.distributed",
        "DPConfig": "synthdeid.generation.dp",
        "DPTraining": "synthdeid.generation.dp",
        "corpus_prompts": "synthdeid.generation.generate",
        "count_tokens": "synthdeid.generation.generate",
        "sample_loop": "synthdeid.generation.generate",
        "HFCausalLM": "synthdeid.generation.hf_lm",
        "InlineCodec": "synthdeid.generation.hf_lm",
        "LMStage": "synthdeid.generation.hf_lm:Stage",
        "LoopSettings": "synthdeid.generation.hf_lm",
        "add_special_tokens": "synthdeid.generation.hf_lm",
        "lm_config_dict": "synthdeid.generation.hf_lm:config_dict",
        "pack_blocks": "synthdeid.generation.hf_lm",
        "read_lm_meta": "synthdeid.generation.hf_lm:read_meta",
        "train_bpe": "synthdeid.generation.hf_lm",
        "train_stages": "synthdeid.generation.hf_lm",
        "LM_META_FILE": "synthdeid.generation.hf_lm.common:META_FILE",
        "check_lm_data": "synthdeid.generation.hf_lm.common:check_data",
        "lm_fingerprint": "synthdeid.generation.hf_lm.common:fingerprint",
        "set_lm_threads": "synthdeid.generation.hf_lm.common:set_threads",
        "note_samples": "synthdeid.generation.hf_lm.dp_loop",
        "train_dp": "synthdeid.generation.hf_lm.dp_loop",
        "TagMask": "synthdeid.generation.tagmask",
        "UNK_PATTERN": "synthdeid.generation.vocab_anonymize",
        "unk_tokens": "synthdeid.generation.vocab_anonymize",
        "DateLocale": "synthdeid.language_kit.dates",
        "DateSurrogates": "synthdeid.language_kit.dates",
        "name_input": "synthdeid.language_kit.dates",
        "NameLocale": "synthdeid.language_kit.names",
        "NameSurrogates": "synthdeid.language_kit.names",
        "clean_names": "synthdeid.language_kit.names",
        "public_words": "synthdeid.language_kit.ordinary_words",
        "PackConfig": "synthdeid.language_kit.pack",
        "SurrogateFactory": "synthdeid.language_kit.pack",
        "make_pack": "synthdeid.language_kit.pack",
        "PlaceSurrogates": "synthdeid.language_kit.places",
        "SentenceSplitter": "synthdeid.language_kit.sentences",
        "ascii_slug": "synthdeid.language_kit.shapes",
        "capitalize_like": "synthdeid.language_kit.shapes",
        "is_all_caps": "synthdeid.language_kit.shapes",
        "match_case": "synthdeid.language_kit.shapes",
        "shape_replace": "synthdeid.language_kit.shapes",
        "strip_accents": "synthdeid.language_kit.shapes",
        "InstitutionWords": "synthdeid.language_kit.institutions",
        "BaseSurrogates": "synthdeid.language_kit.surrogates",
        "PhoneRules": "synthdeid.language_kit.surrogates",
        "SurrogateData": "synthdeid.language_kit.surrogates",
        "Tokenizer": "synthdeid.language_kit.tokenizer",
        "adapter_folder": "synthdeid.model_files",
        "brief_error": "synthdeid.model_files:brief",
        "from_pretrained": "synthdeid.model_files",
        "load_json": "synthdeid.model_files",
        "load_weights": "synthdeid.model_files",
        "pickles_trusted": "synthdeid.model_files",
        "read_json": "synthdeid.model_files",
        "refuse_pickle": "synthdeid.model_files",
        "regular_file": "synthdeid.model_files",
        "stored_weights": "synthdeid.model_files",
        "tokenizer_from": "synthdeid.model_files",
        "unpickling": "synthdeid.model_files",
        "check_bio_tags": "synthdeid.model_limits:bio_tags",
        "check_model_fits": "synthdeid.model_limits:fits",
        "check_model_sizes": "synthdeid.model_limits:check_sizes",
        "pseudonymize": "synthdeid.phi.pseudonymize",
        "derive_seed": "synthdeid.phi.seeds",
        "SettingError": "synthdeid.plugin_system.config",
        "Settings": "synthdeid.plugin_system.config",
        "load_settings": "synthdeid.plugin_system.config",
        "renames": "synthdeid.plugin_system.config",
        "setting": "synthdeid.plugin_system.config",
        "registry": "synthdeid.plugin_system.manager",
        "PRECISIONS": "synthdeid.precision",
        "autocast": "synthdeid.precision",
        "resolve_precision": "synthdeid.precision:resolve",
        "AuditCorpus": "synthdeid.privacy.audit",
        "STRUCTURE_PATTERN": "synthdeid.privacy.defaults",
        "audit_summary": "synthdeid.privacy.audit:summary",
        "exact_duplicates": "synthdeid.privacy.audit",
        "high_risk_pairs": "synthdeid.privacy.audit",
        "longest_common_run": "synthdeid.privacy.audit",
        "ngram_recall": "synthdeid.privacy.audit",
        "phi_leakage": "synthdeid.privacy.audit",
        "phi_token_mask": "synthdeid.privacy.audit",
        "real_phi_strings": "synthdeid.privacy.audit",
        "tokenize_documents": "synthdeid.privacy.audit",
        "tokenize_text": "synthdeid.privacy.audit",
        "surrogate_realism": "synthdeid.privacy.audit.realism:realism",
        "extrapolated_exposure": "synthdeid.privacy.audit.exposure",
        "lower_or_equal": "synthdeid.privacy.audit.exposure",
        "sampled_exposure": "synthdeid.privacy.audit.exposure",
        "AGE_BELOW": "synthdeid.privacy.defaults",
        "COMMON_LABELS": "synthdeid.privacy.defaults",
        "COMMON_NOTES": "synthdeid.privacy.defaults",
        "DIRECT_IDENTIFIERS": "synthdeid.privacy.defaults",
        "IdentifyingRule": "synthdeid.privacy.audit.identifying",
        "leakage_by_label": "synthdeid.privacy.audit.identifying",
        "distinct_texts": "synthdeid.privacy.audit.leakage",
        "normalise_whitespace": "synthdeid.privacy.audit.leakage",
        "LOW_FPRS": "synthdeid.privacy.audit.membership",
        "attack_summary": "synthdeid.privacy.audit.membership",
        "auc": "synthdeid.privacy.audit.membership",
        "best_advantage": "synthdeid.privacy.audit.membership",
        "bootstrap_auc": "synthdeid.privacy.audit.membership",
        "tpr_at_fpr": "synthdeid.privacy.audit.membership",
        "LaplaceNgramLM": "synthdeid.privacy.audit.ngram_lm",
        "DEFAULT_CHUNK_CELLS": "synthdeid.privacy.defaults",
        "CANARY_FILE": "synthdeid.privacy.canaries",
        "check_canary_template": "synthdeid.privacy.canaries:check_template",
        "read_canaries": "synthdeid.privacy.canaries",
        "read_data_canaries": "synthdeid.privacy.data_canaries",
        "SequenceScore": "synthdeid.privacy.lm_score",
        "score_sequences": "synthdeid.privacy.lm_score",
        "texts_to_score": "synthdeid.privacy.lm_score",
        "Probe": "synthdeid.privacy.probe",
        "probe_predict": "synthdeid.privacy.probe:predict",
        "probes_in": "synthdeid.privacy.probe",
        "counter": "synthdeid.progress",
        "interactive": "synthdeid.progress",
        "track": "synthdeid.progress",
        "recall_biased_tags": "synthdeid.tagging.recall",
        "TAGGER_META_FILE": "synthdeid.tagging.runtime:CONFIG_FILE",
        "TAGGER_RETRAIN": "synthdeid.tagging.runtime:RETRAIN",
        "quiet_loggers": "synthdeid.tagging.runtime:quiet",
        "read_tagger_meta": "synthdeid.tagging.runtime:read_meta",
        "saved_tagger_config": "synthdeid.tagging.runtime:saved_config",
        "seed_everything": "synthdeid.tagging.runtime",
        "torch_threads": "synthdeid.tagging.runtime",
        "write_tagger_meta": "synthdeid.tagging.runtime:write_meta",
        "SPLITS": "synthdeid.tagging.words",
        "Tokenize": "synthdeid.corpus.tokens",
        "Word": "synthdeid.tagging.words",
        "bio_tags": "synthdeid.tagging.words",
        "covered_spans": "synthdeid.tagging.words",
        "decode_tags": "synthdeid.tagging.words:decode",
        "entity_f1": "synthdeid.tagging.words",
        "line_words": "synthdeid.tagging.words",
        "restrict_labels": "synthdeid.tagging.words",
        "span_cuts": "synthdeid.tagging.words",
        "split_tokens": "synthdeid.tagging.words",
        "training_labels": "synthdeid.tagging.words",
        "windows": "synthdeid.tagging.words",
    },
)

__all__ = [  # grouped in the module docstring
    "AGE_BELOW",
    "CANARY_FILE",
    "COMMON_LABELS",
    "COMMON_NOTES",
    "DEFAULT_CHUNK_CELLS",
    "DEVICE_HELP",
    "DIRECT_IDENTIFIERS",
    "EOD",
    "LM_META_FILE",
    "LOW_FPRS",
    "PAR",
    "PRECISIONS",
    "SPLITS",
    "STRUCTURE_PATTERN",
    "TAGGER_META_FILE",
    "TAGGER_RETRAIN",
    "UNK_PATTERN",
    "AuditCorpus",
    "BaseSurrogates",
    "DPConfig",
    "DPTraining",
    "DateLocale",
    "DateSurrogates",
    "HFCausalLM",
    "IdentifyingRule",
    "InlineCodec",
    "InlineDecoded",
    "InstitutionWords",
    "LMStage",
    "LaplaceNgramLM",
    "LoopSettings",
    "NameLocale",
    "NameSurrogates",
    "PackConfig",
    "PhoneRules",
    "PlaceSurrogates",
    "Probe",
    "SentenceSplitter",
    "SequenceScore",
    "SettingError",
    "Settings",
    "SurrogateData",
    "SurrogateFactory",
    "TagMask",
    "Tokenize",
    "Tokenizer",
    "Word",
    "adapter_folder",
    "add_special_tokens",
    "all_sum",
    "ascii_slug",
    "attack_summary",
    "auc",
    "audit_summary",
    "autocast",
    "best_advantage",
    "bio_tags",
    "bootstrap_auc",
    "brief_error",
    "builtin_mapping",
    "capitalize_like",
    "check_bio_tags",
    "check_canary_template",
    "check_lm_data",
    "check_model_fits",
    "check_model_sizes",
    "clean_names",
    "corpus_prompts",
    "count_tokens",
    "counter",
    "covered_spans",
    "decode_inline",
    "decode_tags",
    "derive_seed",
    "distinct_texts",
    "dropout",
    "encode_inline",
    "end_tag",
    "entity_f1",
    "exact_duplicates",
    "extrapolated_exposure",
    "from_pretrained",
    "high_risk_pairs",
    "interactive",
    "is_all_caps",
    "lazy_exports",
    "leakage_by_label",
    "line_words",
    "lm_config_dict",
    "lm_fingerprint",
    "load_json",
    "load_settings",
    "load_weights",
    "longest_common_run",
    "lower_or_equal",
    "make_pack",
    "match_case",
    "name_input",
    "ngram_recall",
    "normalise_whitespace",
    "note_samples",
    "pack_blocks",
    "phi_leakage",
    "phi_token_mask",
    "pickles_trusted",
    "probe_predict",
    "probes_in",
    "pseudonymize",
    "public_words",
    "quiet_loggers",
    "read_canaries",
    "read_data_canaries",
    "read_json",
    "read_jsonl",
    "read_lm_meta",
    "read_tagger_meta",
    "real_phi_strings",
    "recall_biased_tags",
    "refuse_pickle",
    "registry",
    "regular_file",
    "renames",
    "resolve_precision",
    "restrict_labels",
    "sample_loop",
    "sampled_exposure",
    "saved_tagger_config",
    "score_sequences",
    "seed_everything",
    "set_lm_threads",
    "setting",
    "shape_replace",
    "shard",
    "span_cuts",
    "special_tokens",
    "split_timing",
    "split_tokens",
    "start_tag",
    "stored_weights",
    "strip_accents",
    "strip_tags",
    "sum_gradients",
    "surrogate_realism",
    "texts_to_score",
    "tokenize_documents",
    "tokenize_text",
    "tokenizer_from",
    "torch_device",
    "torch_threads",
    "tpr_at_fpr",
    "track",
    "train_bpe",
    "train_dp",
    "train_stages",
    "training_labels",
    "unk_tokens",
    "unpickling",
    "valid_device",
    "windows",
    "world_size",
    "write_json",
    "write_jsonl",
    "write_tagger_meta",
]


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})
