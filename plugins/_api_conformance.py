"""The built-in plugins' objects against the plugin API's protocols (``synthdeid.api``), checked by
mypy (``make lint``); never imported, and nothing here runs.

Registering a factory already checks it against its hook's factory type (``register`` is typed), but
the optional capabilities (``BatchAnnotator``, ``VocabAnonymizer``, ``RecallTunable`` ...) are only
looked up at run time with ``isinstance``, and a factory typed ``Any`` (the privacy metrics') checks
nothing. Each assignment below states what a built-in class is meant to be, so a signature drifting
from its protocol is a type error rather than a capability silently lost.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from synthdeid import api
    from synthdeid.plugins.beam import BeamSearch
    from synthdeid.plugins.causal_lm import create as causal_lm_create
    from synthdeid.plugins.causal_lm.generator import CausalLMGenerator
    from synthdeid.plugins.causal_lm.vllm_backend import VLLMCausalLM
    from synthdeid.plugins.decoders import Greedy, Nucleus, Temperature, TopK
    from synthdeid.plugins.deduce_annotator import DeduceAnnotator
    from synthdeid.plugins.flair_tagger import create as flair_create
    from synthdeid.plugins.flair_tagger.model import FlairTagger, TrainedFlairTagger
    from synthdeid.plugins.gpt2 import create as gpt2_create
    from synthdeid.plugins.gpt2.generator import GPT2Generator
    from synthdeid.plugins.hf_tagger import create as hf_create
    from synthdeid.plugins.hf_tagger.model import HFTagger, TrainedHFTagger
    from synthdeid.plugins.languages.en import factory as en_factory
    from synthdeid.plugins.languages.es import factory as es_factory
    from synthdeid.plugins.languages.nl import factory as nl_factory
    from synthdeid.plugins.languages.sv import factory as sv_factory
    from synthdeid.plugins.lstm import LSTMGenerator
    from synthdeid.plugins.lstm import create as lstm_create
    from synthdeid.plugins.lstm.sampler import LSTMSampler
    from synthdeid.plugins.mlm_fill import create as mlm_fill_create
    from synthdeid.plugins.mlm_fill.fill import MLMFillModel
    from synthdeid.plugins.mlm_fill.generator import MLMFillGenerator
    from synthdeid.plugins.privacy.bm25 import BM25Metric
    from synthdeid.plugins.privacy.canary_exposure import CanaryExposureMetric
    from synthdeid.plugins.privacy.data_membership import DataMembershipMetric
    from synthdeid.plugins.privacy.high_risk_pairs import HighRiskPairsMetric
    from synthdeid.plugins.privacy.leakage import LeakageMetric
    from synthdeid.plugins.privacy.membership_inference import MembershipInferenceMetric
    from synthdeid.plugins.privacy.name_probe import NameProbeMetric
    from synthdeid.plugins.privacy.ngram_recall import NgramRecallMetric
    from synthdeid.plugins.privacy.reinjection import ReinjectionMetric
    from synthdeid.plugins.privacy.rouge import RougeMetric
    from synthdeid.plugins.tagger_annotator import TaggerAnnotator
    from synthdeid.plugins.torch_tagger import create as torch_create
    from synthdeid.plugins.torch_tagger.model import TorchTagger, TrainedTorchTagger
    from synthdeid.toolkit import HFCausalLM

    def annotators(deduce: DeduceAnnotator, tagger: TaggerAnnotator) -> None:
        _: list[api.Annotator] = [deduce, tagger]
        _batch: api.BatchAnnotator = tagger
        _language: api.LanguageSpecific = deduce

    def generators(
        lstm: LSTMGenerator, gpt2: GPT2Generator, causal_lm: CausalLMGenerator, mlm_fill: MLMFillGenerator
    ) -> None:
        _: list[api.Generator] = [lstm, gpt2, causal_lm, mlm_fill]
        _anonymizer: api.VocabAnonymizer = lstm
        _factories: list[api.GeneratorFactory] = [lstm_create, gpt2_create, causal_lm_create, mlm_fill_create]

    def loaded_generators(lstm: LSTMSampler, hf: HFCausalLM, vllm: VLLMCausalLM, mlm_fill: MLMFillModel) -> None:
        _: list[api.AutoregressiveLM] = [lstm, hf]
        _limited: api.ContextLimited = hf
        _corpus: list[api.CorpusGenerator] = [vllm, mlm_fill]

    def decoders(greedy: Greedy, temperature: Temperature, top_k: TopK, nucleus: Nucleus, beam: BeamSearch) -> None:
        _: list[api.Decoder] = [greedy, temperature, top_k, nucleus, beam]
        _choosers: list[api.TokenChooser] = [greedy, temperature, top_k, nucleus]
        _described: list[api.DescribedDecoder] = [greedy, temperature, top_k, nucleus, beam]

    def taggers(flair: FlairTagger, hf: HFTagger, torch: TorchTagger) -> None:
        _: list[api.Tagger] = [flair, hf, torch]
        _factories: list[api.TaggerFactory] = [flair_create, hf_create, torch_create]

    def trained_taggers(flair: TrainedFlairTagger, hf: TrainedHFTagger, torch: TrainedTorchTagger) -> None:
        _: list[api.TrainedTagger] = [flair, hf, torch]
        _tunable: list[api.RecallTunable] = [hf, torch]

    def privacy_metrics(
        rouge: RougeMetric,
        bm25: BM25Metric,
        ngram_recall: NgramRecallMetric,
        leakage: LeakageMetric,
        high_risk_pairs: HighRiskPairsMetric,
        reinjection: ReinjectionMetric,
        data_membership: DataMembershipMetric,
        canary_exposure: CanaryExposureMetric,
        membership_inference: MembershipInferenceMetric,
        name_probe: NameProbeMetric,
    ) -> None:
        _: list[api.PrivacyMetric] = [
            rouge,
            bm25,
            ngram_recall,
            leakage,
            high_risk_pairs,
            reinjection,
            data_membership,
            canary_exposure,
            membership_inference,
            name_probe,
        ]

    def languages() -> None:
        _: list[api.LanguageFactory] = [en_factory, es_factory, nl_factory, sv_factory]
