"""The study spec: every section of params.yaml as a frozen, typed pydantic model (unknown keys
forbidden, strict types, declared bounds and choices). ``synthdeid.spec.load_study`` reads
params.yaml into it once; the params reference (docs/params.md) and ``synthdeid schema`` are
generated from it.

Plugin configs (``generators.NAME.config``, ``taggers.NAME.config``, a decoder's
``corpora.NAME.config``, ``privacy.metrics.NAME``, ...) are mappings here: the plugin named beside
them declares their settings, and ``synthdeid.spec.references`` checks them against it."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Annotated, Any, Literal, TypeAlias

from pydantic import (
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    PrivateAttr,
    WithJsonSchema,
    create_model,
    field_validator,
    model_validator,
)
from pydantic_core import PydanticCustomError

from synthdeid.corpus.tags import builtin_mappings
from synthdeid.privacy.canaries import CanaryConfig
from synthdeid.privacy.data_canaries import DataCanaryConfig
from synthdeid.privacy.gate import LIMITS, OVERRIDE_DOC, THRESHOLDS, Gate, former_key, sets_nothing

from .fresh_settings import SHAPES, FreshSettings
from .types import Number, Text, Whole, checked, number_or
from .vocab_anonymization import VocabAnonymization

Config = dict[str, Any]
"""A plugin's config: checked against the plugin's own declaration (``spec.references``)."""
GENERATION_OVERRIDES = (
    "min_tokens",
    "max_tokens",
    "tag_safe",
    "batch_size",
    "target_tokens",
    "max_span_tokens",
    "tag_distribution",
    "unknown_words",
)
"""The ``generate`` keys a corpus may override in its own section."""
UnknownWords: TypeAlias = Literal["auto", "fill", "never"]
PLUGIN_SELECTORS: tuple[tuple[str, str, str | None], ...] = (
    ("language", "language", None),
    ("generators.*.plugin", "generator", None),
    ("corpora.*.decoder", "decoder", None),
    ("taggers.*.plugin", "tagger", None),
    ("utility.tagger", "tagger", "taggers"),
    ("annotate.annotator", "annotator", None),
    ("utility.rule_baseline", "annotator", None),
    ("privacy.metrics.*", "privacy_metric", "key"),
    ("privacy.model_metrics.*", "privacy_metric", "key"),
)
"""Where params.yaml names a plugin: (dotted path, ``*`` for any key; the plugin kind; how the value
names it: None: the value is the plugin's name (``gold`` and null name none); ``key``: the key at
``*`` is; ``taggers``: the value is a key of ``taggers``, whose ``plugin`` is)."""


class Section(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)


class Configured(Section):
    """A section naming a plugin and its ``config``: ``settings`` is that config as the plugin's
    settings class built it when the spec was checked (``load_study``), which the stage hands to
    the plugin's factory, so nothing parses it again."""

    _settings: Any = PrivateAttr(default=None)

    @property
    def settings(self) -> Any:
        """The plugin's built settings; the params mapping when the spec was not checked against
        the plugins (``load_study(check_plugins=False)``) or the plugin has no settings class."""
        return getattr(self, "config", {}) if self._settings is None else self._settings

    def keep_settings(self, settings: Any) -> None:
        """Record the settings ``references.check`` built (once, at load)."""
        self._settings = settings


# ---- checks of values that take more than one form ---------------------------------------------------


def _mapping(value: Any) -> Any:
    if value == {} or value is None:
        return {}
    if isinstance(value, list) and value and all(isinstance(v, str | dict) for v in value):
        return [_mapping(v) for v in value]  # layers: built-in names and mappings, later ones win
    if isinstance(value, str):
        known = builtin_mappings()
        if value not in known:
            raise PydanticCustomError(
                "mapping_name", "is not a built-in mapping; the built-in ones are {names}", {"names": ", ".join(known)}
            )
        return value
    if isinstance(value, dict) and all(
        isinstance(k, str) and (v is None or isinstance(v, str)) for k, v in value.items()
    ):
        return value  # a label onto null is no PHI: its spans are dropped (counted by the corpus stage)
    raise PydanticCustomError(
        "mapping",
        "must be a mapping of corpus label -> tag, e.g. {NOMBRE: Name}, the name of a built-in mapping, or a "
        "list of them, later ones winning, e.g. [sepr, {Date_Full: Date}]",
        {},
    )


def _tag_distribution(value: Any) -> Any:
    if value in ("real", "uniform"):
        return value
    if (
        isinstance(value, dict)
        and value
        and all(
            isinstance(k, str)
            and not isinstance(v, bool)
            and isinstance(v, int | float)
            and math.isfinite(v)
            and v >= 0
            for k, v in value.items()
        )
    ):
        return value
    raise PydanticCustomError("tag_distribution", "must be real, uniform or a mapping of label -> factor >= 0", {})


def _anonymize(value: Any) -> Any:
    """``true``: the defaults; ``false`` or ``null``: off; a mapping: its settings."""
    if value is None or value is False:
        return None
    if value is True:
        return {}
    if isinstance(value, dict | VocabAnonymization):
        return value
    raise PydanticCustomError(
        "anonymize_vocab", "must be true, false, null or a mapping of its settings (labels, min_share, seed)", {}
    )


if TYPE_CHECKING:  # what the validators below let through
    Length: TypeAlias = int | str
    SpanLength: TypeAlias = int | str | None
    TagDistribution: TypeAlias = str | dict[str, float]
else:
    Length = number_or(["auto"], minimum=0)
    SpanLength = number_or(["auto"], minimum=1, nullable=True)
    TagDistribution = checked(
        _tag_distribution,
        {
            "anyOf": [
                {"enum": ["real", "uniform"]},
                {"type": "object", "additionalProperties": {"type": "number", "minimum": 0}},
            ]
        },
    )

if TYPE_CHECKING:  # what the validators below let through
    LabelMapping: TypeAlias = str | dict[str, str | None] | list[str | dict[str, str | None]]
    AnonymizeVocab: TypeAlias = VocabAnonymization | None
    FreshSurrogates: TypeAlias = FreshSettings | None
else:
    LabelMapping = checked(
        _mapping,
        {
            "anyOf": [
                {"type": "object", "additionalProperties": {"type": ["string", "null"]}},
                {"type": "string"},
                {
                    "type": "array",
                    "minItems": 1,
                    "items": {
                        "anyOf": [
                            {"type": "object", "additionalProperties": {"type": ["string", "null"]}},
                            {"type": "string"},
                        ]
                    },
                },
            ]
        },
    )
    AnonymizeVocab = Annotated[
        VocabAnonymization | None,
        BeforeValidator(_anonymize),
        WithJsonSchema({"anyOf": [{"type": "boolean"}, {"type": "null"}, VocabAnonymization.model_json_schema()]}),
    ]
    """The settings (``true``: the defaults) or None (``false``/``null``: off)."""
    FreshSurrogates = Annotated[
        FreshSettings | None,
        BeforeValidator(FreshSettings.switch),
        WithJsonSchema(
            {
                "anyOf": [
                    {"type": "boolean"},
                    {"type": "array", "items": {"type": "string"}},
                    {
                        "type": "object",
                        "properties": {"labels": {}, "shapes": {"enum": list(SHAPES)}},
                        "additionalProperties": False,
                    },
                ]
            }
        ),
    ]
    """The settings (``true``: every label, generated shapes) or None (``false``/``null``: off)."""


# ---- sections ----------------------------------------------------------------------------------------


class DemoCorpus(Section):
    """The embedded Dutch demo corpus (``corpus.source: demo``)."""

    n_docs: Whole = Field(1000, ge=1, description="notes generated (about 120 whitespace tokens each)")
    seed: Whole = Field(0, ge=0, description="seed of the demo corpus's draws")


class CorpusSection(Section):
    """The real corpus: the embedded demo or the user's files."""

    source: Literal["demo", "files"] = Field("demo", description="demo: the embedded demo corpus; files: corpus.path")
    path: Text = Field(
        "data/raw",
        description="a JSONL file, BRAT folder, CoNLL file, *.inline file, i2b2 or XML folder (with source: files)",
    )
    format: Text = Field(
        "auto",
        description="the reader: auto guesses it from the path; or a corpus format's name (jsonl, brat, ...: "
        "docs/formats.md; `synthdeid plugins` lists those installed)",
    )
    format_options: dict[str, Any] = Field(
        default_factory=dict, description="reader options: xml_inline {labels: [...]}, i2b2 {newlines: keep | xml}"
    )
    test_path: Text | None = Field(
        None, description="a separate real test set in the same format (then prepare.split's test share must be 0)"
    )
    on_invalid: Literal["fail", "reject"] = Field(
        "fail", description="fail: stop on invalid records, listing them all; reject: leave them out, counted by reason"
    )
    demo: DemoCorpus = Field(default_factory=DemoCorpus)


class TagsSection(Section):
    """How the corpus's labels map onto the canonical tags."""

    mapping: LabelMapping = Field(
        default_factory=dict,
        description="corpus label -> canonical tag, or a built-in mapping name (meddocan, "
        "sepr, i2b2_2006, i2b2_2014), or a list of both (later ones win: [sepr, {Date_Full: Date}] "
        "extends sepr); a label onto null is no PHI (its spans are dropped, counted); empty: the language "
        "pack's own",
    )
    keep_unmapped: bool = Field(False, description="true keeps labels outside the canonical set instead of failing")


class PrepareSection(Section):
    """The train / dev / test split."""

    seed: Whole = Field(0, ge=0, description="shuffles the documents before the split")
    split: list[Number] = Field(
        default_factory=lambda: [0.8, 0.1, 0.1],
        description="train / dev / test shares, summing to 1",
        min_length=3,
        max_length=3,
    )
    min_dev_notes: Whole = Field(
        10,
        ge=0,
        description="a dev split of fewer notes is raised to this many from the train split (0: the share as it is)",
    )
    """A dev share above 0 gives at least this many dev notes, taken from the train split: early
    stopping and the prompts rest on them. A corpus too small to keep as many training notes
    beside them is refused with the fix; a dev share of 0 is left as it is."""

    @field_validator("split")
    @classmethod
    def _shares(cls, split: list[float]) -> list[float]:
        if any(r < 0 or not math.isfinite(r) for r in split) or abs(sum(split) - 1) > 1e-6:
            raise PydanticCustomError(
                "split", "must be three non-negative shares summing to 1 (train, dev, test), e.g. [0.8, 0.1, 0.1]", {}
            )
        return split


class AnnotateSection(Configured):
    """Where the PHI spans of the training notes come from."""

    annotator: Text = Field("gold", description="gold keeps the corpus's spans; or an annotator plugin, e.g. deduce")
    config: Config = Field(default_factory=dict, description="the annotator's config")


class HeadWordsSection(Section):
    """Generic head words of institution names (``Apotheek``, ``Gemeente``, ``Ziekenhuis``) that
    surrogates keep (``synthdeid.phi.head_words``)."""

    labels: list[Text] = Field(
        default_factory=lambda: ["Hospital", "Care_Institute", "Organization_Company"],
        min_length=1,
        description="the labels whose spans keep their head words",
    )
    min_spans: Whole = Field(
        5,
        ge=2,
        description="a word is kept when it heads at least this many different names (what is left of a label's "
        "spans without the head words; a name written several ways is one name)",
    )
    min_notes: Whole = Field(5, ge=2, description="... in at least this many training notes")


class PseudonymizeSection(Section):
    """Surrogates for the real PHI before any language model sees the notes."""

    seed: Whole = Field(0, ge=0, description="surrogate draws (per document: from this seed and the document id)")
    head_words: HeadWordsSection | None = Field(
        None,
        description="words heading many different names of a label in many training notes stay in its surrogates, "
        "here and in fresh surrogates (null: every word is replaced)",
    )


class InlineSection(Section):
    """The language models' training text."""

    tokenize: bool = Field(True, description="tokenize with the language pack (word-level LMs); false keeps the text")
    prompt_tokens: Whole = Field(3, ge=0, description="generation prompts: the first N tokens of each dev note")


class GeneratorSection(Configured):
    """One language model (``generators.NAME``; one train_lm@NAME stage)."""

    plugin: Text = Field(description="the generator plugin (`synthdeid plugins`)")
    config: Config = Field(default_factory=dict, description="the plugin's config")
    canaries: CanaryConfig | None = Field(
        None, description="fake-PHI canaries inserted for the exposure audit (null: none)"
    )
    data_canaries: DataCanaryConfig | None = Field(
        None, description="real-note prefix + random suffix canaries for the data-only attack (null: none)"
    )
    tags: bool = Field(True, description="false: learns the notes without PHI tags (for machine annotation)")
    data_share: Number = Field(1.0, gt=0, le=1, description="share of the real training notes it learns from")
    anonymize_vocab: AnonymizeVocab = Field(
        None,
        title="Anonymize Vocab",  # as a plain field's (a settings model's field gets none)
        description="remove PHI tokens from the trained vocabulary (Verkijk et al.): true, or {labels, "
        "min_share, seed}",
    )


class GenerateSection(Section):
    """Generation defaults; each corpus may override the keys in ``GENERATION_OVERRIDES``."""

    seed: Whole = Field(0, ge=0, description="seed of every corpus's generation")
    min_tokens: Length = Field(
        "auto", description="no <EOD> before this many tokens; auto: the training notes' 10th percentile"
    )
    max_tokens: Length = Field("auto", description="tokens per note at most; auto: the training notes' 99th percentile")
    target_tokens: Whole = Field(60000, ge=1, description="whitespace tokens per synthetic corpus")
    batch_size: Whole = Field(64, ge=1, description="notes generated at once")
    tag_safe: bool = Field(True, description="mask logits so every generated tag is well-formed")
    max_span_tokens: SpanLength = Field(
        "auto", description="close a span at its label's longest training span (+2); a number; null: no limit"
    )
    tag_distribution: TagDistribution = Field(
        "real", description="how often each label's span opens: real | uniform | {Label: factor}"
    )
    unknown_words: UnknownWords = Field(
        "auto",
        description="fill: a word-level LM writes <unk> as often as it learned and postprocess fills each "
        "with an ordinary word of the language pack; never: it writes none; auto: fill when the pack has "
        "ordinary words and the training notes hold under 50,000 tokens",
    )


class CorpusSpec(Configured):
    """One synthetic corpus (``corpora.NAME``): a generator, a decoder and overrides of ``generate``."""

    generator: Text = Field(description="a key of generators")
    decoder: Text = Field(description="the decoder plugin: nucleus, temperature, beam, ...")
    config: Config = Field(default_factory=dict, description="the decoder's config")
    fresh_surrogates: FreshSurrogates = Field(
        False,
        validate_default=True,
        title="Fresh Surrogates",
        description="re-draw PHI surface forms from the language pack: true, a list of labels, or "
        "{labels: all | [...], shapes: generated | training}",
    )
    min_tokens: Length = Field(None, description="overrides generate")  # type: ignore[assignment]
    max_tokens: Length = Field(None, description="overrides generate")  # type: ignore[assignment]
    target_tokens: Whole = Field(None, ge=1, description="overrides generate")  # type: ignore[assignment]
    batch_size: Whole = Field(None, ge=1, description="overrides generate")  # type: ignore[assignment]
    tag_safe: bool = Field(None, description="overrides generate")  # type: ignore[assignment]
    max_span_tokens: SpanLength = Field(None, description="overrides generate")
    tag_distribution: TagDistribution = Field(None, description="overrides generate")  # type: ignore[assignment]
    unknown_words: UnknownWords | None = Field(None, description="overrides generate")

    def generation(self, defaults: GenerateSection) -> GenerateSection:
        """``generate`` with this corpus's overrides."""
        given = {k: getattr(self, k) for k in GENERATION_OVERRIDES if k in self.model_fields_set}
        return defaults.model_copy(update=given)


class MachineAnnotatedSpec(Section):
    """An untagged corpus annotated by a tagger (Vakili et al.; ``machine_annotated.NAME``)."""

    corpus: Text = Field(description="a corpus of corpora whose generator has tags: false")
    tagger: Text = Field(
        description="a trained tagger under data/taggers/ (real: the tagger trained on the gold notes)"
    )
    require_phi: bool = Field(False, description="true drops (and counts) notes the tagger finds no PHI in")
    tagger_share: Number = Field(
        1.0,
        gt=0,
        le=1,
        description="below 1: the annotating tagger is trained here on "
        "this share of the real gold notes (tagger must be real)",
    )

    @model_validator(mode="after")
    def _share_needs_real(self) -> MachineAnnotatedSpec:
        if self.tagger_share < 1 and self.tagger != "real":
            raise PydanticCustomError(
                "tagger_share",
                "tagger_share trains a tagger on a share of the real gold notes, so tagger must be real, not {tagger}",
                {"tagger": repr(self.tagger)},
            )
        return self


class TaggerSpec(Configured):
    """A downstream tagger (``taggers.NAME``)."""

    plugin: Text = Field(description="the tagger plugin: torch_bilstm_crf, flair_bilstm_crf, hf_token_classification")
    config: Config = Field(default_factory=dict, description="the plugin's config")


class Significance(Section):
    """Approximate randomization test of each setting against ``real``."""

    trials: Whole = Field(10000, ge=1)
    alpha: Number = Field(0.05, gt=0, lt=1)
    seed: Whole = Field(0, ge=0)


class LearningCurve(Section):
    """Libbi et al.'s Appendix E: the tagger trained on shares of a corpus."""

    corpora: list[Text] = Field(default_factory=list, description="one learning_curve@CORPUS stage each")
    fractions: list[Number] = Field(
        default_factory=lambda: [0.5, 1.0],
        min_length=1,
        description="shares of the corpus's training notes, each in (0, 1]",
    )
    seeds: list[Whole] = Field(
        default_factory=lambda: [0, 1, 2],
        min_length=1,
        description="per fraction: the subset, validation split and tagger seed",
    )
    workers: Whole = Field(
        default=2,
        ge=1,
        description="taggers trained side by side, in processes of their own, each on the tagger's "
        "threads divided by this (at least 1): on 2 cores two 1-thread taggers do 1.4x the work of "
        "one 2-thread tagger. Results do not depend on the order; a tagger without a threads setting "
        "trains one at a time",
    )

    @field_validator("fractions")
    @classmethod
    def _fractions(cls, fractions: list[float]) -> list[float]:
        if any(not 0 < f <= 1 for f in fractions):
            raise PydanticCustomError("fraction", "must each be in (0, 1], e.g. [0.5, 1.0]", {})
        return fractions

    @field_validator("seeds")
    @classmethod
    def _seeds(cls, seeds: list[int]) -> list[int]:
        if any(s < 0 for s in seeds):
            raise PydanticCustomError("seed", "must be whole numbers >= 0", {})
        return seeds


class UtilitySection(Section):
    """Which taggers are trained and scored on the real test notes (Libbi et al.'s Tables 6 and 7)."""

    tagger: Text = Field("bilstm_crf", description="the key of taggers every setting trains")
    seed: Whole = Field(0, ge=0)
    synthetic_validation_share: Number = Field(
        0.1, gt=0, lt=1, description="synthetic-only taggers validate on this share of the synthetic corpus"
    )
    synthetic: list[Text] = Field(default_factory=list, description="corpora trained on alone (synthetic -> real)")
    augmented: list[Text] = Field(default_factory=list, description="corpora added to the real notes")
    surrogate_redraws: Whole = Field(
        1,
        ge=1,
        description="synthetic-only taggers (and the learning curve's) train on the corpus's notes this many "
        "times, each copy with fresh surrogates (mention replacement: the context repeats, the PHI changes)",
    )
    augmented_budget: Literal["scaled", "same"] = Field(
        "scaled",
        description="scaled: an augmented tagger's token budget grows with its notes, so it passes over the real "
        "notes as often as the real tagger; same: the real tagger's budget",
    )
    calibrate_unknown_words: Literal["auto", "synthetic", "all", "off"] = Field(
        "auto",
        description="taggers trained on synthetic notes read ordinary words as unknown so that the words they "
        "read as unknown hold PHI at the real training notes' singleton share (synthetic: synthetic-only taggers "
        "and the learning curve; all: the augmented ones too; auto: synthetic for real training notes under "
        "50,000 tokens; off: none)",
    )
    rule_baseline: Text | None = Field(None, description="an annotator scored without training (null: none)")
    significance: Significance = Field(default_factory=Significance)
    learning_curve: LearningCurve = Field(default_factory=LearningCurve)


class GateChecks(Section):
    """What ``privacy.gate`` (``GateSection``, whose fields are made from the gate's
    ``THRESHOLDS``) checks beyond each key's value, with the gate's own checks, and the gate it builds."""

    @model_validator(mode="before")
    @classmethod
    def _renamed(cls, data: Any) -> Any:
        renamed = former_key(data) if isinstance(data, dict) else None
        if renamed:
            raise PydanticCustomError("renamed", "{message}", {"message": renamed})
        return data

    @model_validator(mode="after")
    def _something(self) -> GateChecks:
        values = self.model_dump()
        nothing = sets_nothing(values, values["override"])
        if nothing:
            raise PydanticCustomError("gate", "{message}", {"message": nothing})
        return self

    def build(self) -> Gate:
        """The gate that judges a corpus's privacy metrics (checked already: built as it is)."""
        values = self.model_dump()
        return Gate({key: float(values[key]) for key in LIMITS if values[key] is not None}, values["override"])


if TYPE_CHECKING:
    GateSection: TypeAlias = GateChecks
else:
    GateSection = create_model(
        "GateSection",
        __base__=GateChecks,
        __doc__="Thresholds a synthetic corpus must stay under to be published (``privacy.gate``).",
        **{t.key: (Number | None, Field(None, ge=0, allow_inf_nan=False, description=t.what)) for t in THRESHOLDS},
        override=(bool, Field(False, description=OVERRIDE_DOC)),
    )
    """``privacy.gate``: one field per threshold of ``synthdeid.privacy.gate.THRESHOLDS`` (a number
    >= 0 or null), and ``override``."""


def _empty() -> Config | None:
    return {}


class PrivacySection(Section):
    """The privacy audit of each synthetic corpus and generator."""

    corpora: list[Text] = Field(default_factory=list, description="one privacy@CORPUS stage each")
    metrics: dict[str, Config | None] = Field(
        default_factory=lambda: {"leakage": _empty()}, description="privacy-metric plugin -> its config"
    )
    model_metrics: dict[str, Config | None] = Field(
        default_factory=dict, description="model-based privacy metrics of each trained generator (audit_lm@NAME)"
    )
    gate: GateSection = Field(default_factory=lambda: GateSection.model_validate({"max_exact_duplicates": 0}))
    _settings: dict[str, dict[str, Any]] = PrivateAttr(default_factory=dict)

    def metric_settings(self, section: str = "metrics") -> dict[str, Any]:
        """``privacy.metrics`` (or ``model_metrics``): each metric's settings as the spec built
        them at load, else its params mapping."""
        built = self._settings.get(section, {})
        return {name: built.get(name, config or {}) for name, config in getattr(self, section).items()}

    def keep_settings(self, section: str, name: str, settings: Any) -> None:
        """Record the settings ``references.check`` built for a metric (once, at load)."""
        if settings is not None:
            self._settings.setdefault(section, {})[name] = settings


class Study(Section):
    """Everything params.yaml holds."""

    corpus: CorpusSection = Field(default_factory=CorpusSection)
    language: Text = Field("nl", description="the language pack: tokenizer, sentence splitter, surrogates")
    tags: TagsSection = Field(default_factory=TagsSection)
    prepare: PrepareSection = Field(default_factory=PrepareSection)
    annotate: AnnotateSection = Field(default_factory=AnnotateSection)
    pseudonymize: PseudonymizeSection = Field(default_factory=PseudonymizeSection)
    inline: InlineSection = Field(default_factory=InlineSection)
    generators: dict[str, GeneratorSection] = Field(
        default_factory=dict, description="language models by name (one train_lm@NAME stage each)"
    )
    generate: GenerateSection = Field(default_factory=GenerateSection)
    corpora: dict[str, CorpusSpec] = Field(
        default_factory=dict,
        description="synthetic corpora by name: generator x decoder (generate@ and postprocess@ stages)",
    )
    machine_annotated: dict[str, MachineAnnotatedSpec] = Field(
        default_factory=dict, description="machine-annotated corpora by name (machine_annotate@NAME)"
    )
    taggers: dict[str, TaggerSpec] = Field(
        default_factory=lambda: {"bilstm_crf": TaggerSpec(plugin="torch_bilstm_crf")},
        description="downstream taggers by name; utility.tagger picks one",
    )
    utility: UtilitySection = Field(default_factory=UtilitySection)
    privacy: PrivacySection = Field(default_factory=PrivacySection)

    def generation(self, corpus: str) -> GenerateSection:
        """The generation settings of ``corpus``: ``generate`` with the corpus's overrides."""
        return self.corpora[corpus].generation(self.generate)

    def corpus_generator(self, corpus: str) -> str | None:
        """The generator whose notes ``corpus`` holds (through a machine_annotated entry); None for none."""
        seen: set[str] = set()
        while corpus not in seen:
            seen.add(corpus)
            if corpus in self.corpora:
                return self.corpora[corpus].generator
            if corpus not in self.machine_annotated:
                return None
            corpus = self.machine_annotated[corpus].corpus
        return None

    def synthetic_corpora(self) -> list[str]:
        """Every corpus a tagger or audit can read: corpora and machine_annotated."""
        return [*self.corpora, *self.machine_annotated]
