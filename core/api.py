"""The plugin API of synthdeid, declared in one place: the hooks a plugin implements, the factory
each hook registers, the objects those factories return, and the optional capabilities an object
may have (each a ``runtime_checkable`` protocol the caller checks with ``isinstance``, never an
attribute looked up by name).

A plugin module implements one or more of the hooks below with ``@hookimpl`` (in the style of
pluggy's eggsample and tox 4). Each hook receives a typed ``register(name, factory)`` callback;
``factory(config)`` is called later with the object's params section (a plain dict, empty when
there is none) and returns the object. synthdeid owns name collisions and lookup.

Importing this module is cheap (no torch, numpy or transformers): every stage and CLI call loads
every plugin. docs/plugin-hooks.md documents each hook and is held to this module by a test.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, Protocol, TypeVar, runtime_checkable

from pluggy import HookimplMarker, HookspecMarker

from synthdeid.corpus.records import Document, Span
from synthdeid.corpus.tokens import Offsets as Offsets  # defined with the corpus, part of the API
from synthdeid.corpus.tokens import Tokenize as Tokenize

from .errors import InputError

if TYPE_CHECKING:
    import torch

hookspec = HookspecMarker("synthdeid")
hookimpl = HookimplMarker("synthdeid")

Config = Any
"""What a plugin's factory receives: the settings its ``config=`` class built from its params
section (an empty mapping for a plugin that takes none; the params mapping itself for a plugin
registered without ``config=``, deprecated)."""


# ---------------------------------------------------------------------------------------------
# Annotators: find PHI spans in raw text
# ---------------------------------------------------------------------------------------------


class Annotator(Protocol):
    """What an annotator factory returns."""

    def annotate(self, text: str) -> list[Span]:
        """PHI spans of ``text`` with canonical labels (non-overlapping)."""
        ...


@runtime_checkable
class BatchAnnotator(Protocol):
    """Optional: an annotator that predicts a batch of notes at once (a model-based one)."""

    def annotate_many(self, texts: Sequence[str]) -> list[list[Span]]:
        """PHI spans for each text, in order."""
        ...


@runtime_checkable
class LanguageSpecific(Protocol):
    """Optional: an annotator that finds PHI in notes of some languages only (rules or word lists
    of one language, such as DEDUCE's Dutch ones). The study spec checks it on the settings class
    the annotator registers with (``register(name, factory, config=Settings)``), without building
    the annotator: declare ``languages`` there too (a ``ClassVar``)."""

    languages: tuple[str, ...]
    """The language pack codes of the notes it works on, e.g. ``("nl",)``."""


# ---------------------------------------------------------------------------------------------
# Generators: language models trained on inline-tag text
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class TrainingData:
    """The language-model text: one note per line, inline tags, ``<PAR>``, ending in ``<EOD>``."""

    train: list[str]
    dev: list[str]
    special_tokens: list[str]
    """Tag tokens, ``<PAR>`` and ``<EOD>``: a tokenizer must keep each of them whole."""
    seed: int = 0
    pretokenized: bool = True
    """True when tokens are separated by single spaces (the ``inline`` stage's default)."""
    extra: dict[str, Any] = field(default_factory=dict)
    """``train_ids`` / ``dev_ids``: the document id of each line."""


class Generator(Protocol):
    """A kind of language model, configured from params."""

    @property
    def name(self) -> str:  # read-only: an attribute, or a frozen dataclass's field
        ...

    def train(self, data: TrainingData, out_dir: Path) -> dict[str, Any]:
        """Train (resuming from a checkpoint in ``out_dir`` when one is there); returns metrics
        such as validation loss and perplexity, which the stage writes to its metrics JSON."""
        ...

    def load(self, out_dir: Path) -> AutoregressiveLM | CorpusGenerator:
        """The trained model in ``out_dir``: an ``AutoregressiveLM`` the shared decoding loop
        drives, or a ``CorpusGenerator`` that writes a corpus itself."""
        ...


@runtime_checkable
class VocabAnonymizer(Protocol):
    """Optional capability of a generator (Verkijk & Vossen): replace the given tokens of a trained
    model's vocabulary by random ``<unk_N>`` strings it never writes (``synthdeid anonymize-vocab``,
    ``generators.NAME.anonymize_vocab``). Word-level models can; a byte-level BPE cannot."""

    def anonymize_vocab(self, model_dir: Path, tokens: set[str], seed: int) -> int:
        """Replace ``tokens`` in the vocabulary of the model in ``model_dir``; returns how many
        entries were replaced."""
        ...


@runtime_checkable
class AutoregressiveLM(Protocol):
    """A trained left-to-right model, driven step by step by the shared decoding loop.

    ``State`` is whatever the model needs between steps (LSTM hidden state, transformer KV
    cache, attention mask); it has one row per sequence in the batch.
    """

    vocab: list[str]
    """Token strings by id. Every special token (tags, ``<PAR>``, ``<EOD>``) is one id whose string
    is exactly the token, so decoders can find and mask them."""
    eod_id: int

    def encode(self, text: str) -> list[int]:
        """Token ids of a prompt (inline-tag text)."""
        ...

    def decode(self, ids: list[int]) -> str:
        """Inline-tag text for generated ids (special tokens separated by spaces)."""
        ...

    def start(self, prompts: list[list[int]]) -> tuple[Any, torch.Tensor]:
        """Run the prompts (of different lengths) as a batch; returns the state and the
        next-token logits ``[batch, vocab]`` (float32)."""
        ...

    def step(self, state: Any, tokens: torch.Tensor) -> tuple[Any, torch.Tensor]:
        """Feed one chosen token per row ``[batch]``; returns the new state and next logits."""
        ...

    def select(self, state: Any, rows: torch.Tensor) -> Any:
        """The state restricted to (or reordered by) ``rows``: for dropping finished sequences
        and for beam search."""
        ...


@runtime_checkable
class ContextLimited(Protocol):
    """Optional: an ``AutoregressiveLM`` with a fixed context window (a transformer's positions)."""

    max_length: int | None
    """Most tokens (prompt and generated) the model takes at once; None when the model does not say."""


@runtime_checkable
class WritesUnknown(Protocol):
    """Optional: a word-level ``AutoregressiveLM`` with an unknown-word token (the LSTM's ``<unk>``,
    the words it saw too rarely to learn). It writes the token only while ``write_unknown`` is
    true, which the generate stage sets from ``generate.unknown_words``; postprocess then fills
    each one with an ordinary word of the language pack's ``ordinary_words`` (a synthetic note then
    has rare ordinary words, as real notes do, not only rare surrogates). Scoring (the privacy
    audits) runs with it false: the token is never a target a model is judged on."""

    unknown_token: str
    """The token's string in ``vocab`` (``"<unk>"``)."""
    write_unknown: bool


@runtime_checkable
class CorpusGenerator(Protocol):
    """A loaded model that writes a corpus itself instead of being driven token by token (masked-LM
    refill, a vLLM server); the generate stage calls it in place of ``synthdeid.generation.generate.generate_corpus``."""

    def generate_corpus(
        self,
        decoder: Decoder,
        prompts: Sequence[str],
        settings: GenerationSettings,
        target_tokens: int,
        seed: int,
        progress: Callable[[int], None] | None = None,
    ) -> list[tuple[str, str]]:
        """(source, inline text) pairs until ``target_tokens`` tokens (``count_tokens``): the
        source is the prompt, or the id of the real note a refill rewrote."""
        ...


# ---------------------------------------------------------------------------------------------
# Decoders: how a generator picks its next token
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class GenerationSettings:
    """The generate stage's settings a decoder honours (``generate`` in params)."""

    min_tokens: int = 50
    max_tokens: int = 400
    tag_safe: bool = True
    batch_size: int = 32
    span_limits: tuple[tuple[str, int], ...] = ()
    """(label, model tokens): a span of the label still open after this many tokens is closed."""
    start_bias: tuple[tuple[str, float], ...] = ()
    """(label, log-factor) added to the label's START tag where a span may open (``tag_distribution``)."""
    span_labels: tuple[str, ...] | None = None
    """The labels a generated span may carry: those the training notes have spans of. Every other
    label's START tag is masked. ``None``: any tag in the model's vocabulary."""

    def __post_init__(self) -> None:
        if not 0 <= self.min_tokens < self.max_tokens:
            raise InputError(
                f"generation needs 0 <= min_tokens < max_tokens, got {self.min_tokens} and {self.max_tokens}",
                path="params.yaml",
                fix="raise generate.max_tokens or lower generate.min_tokens",
            )
        if self.batch_size < 1:
            raise InputError("generate.batch_size must be at least 1", path="params.yaml", fix="e.g. 32")


class Decoder(Protocol):
    """What a decoder factory returns."""

    @property
    def name(self) -> str:  # read-only: an attribute, or a frozen dataclass's field
        ...

    def check(self, model: Any) -> None:
        """Raise ``SynthdeidError`` naming the generator and decoder when they do not work
        together; called when the stage starts, before any generation."""
        ...

    def generate(
        self, model: Any, prompts: list[list[int]], settings: GenerationSettings, rng: torch.Generator
    ) -> list[list[int]]:
        """Generated token ids for each prompt (without the prompt)."""
        ...


@runtime_checkable
class TokenChooser(Protocol):
    """Optional: a decoder that picks one token per row from masked logits, so models that fill
    slots themselves (``mlm_fill``) can sample with it."""

    def choose(self, logits: torch.Tensor, rng: torch.Generator) -> torch.Tensor:
        """One token id per row of ``logits`` ``[rows, vocab]``."""
        ...


@dataclass(frozen=True)
class SamplingSpec:
    """A sampling decoder's settings in the terms other engines use (vLLM's ``SamplingParams``)."""

    method: Literal["greedy", "temperature", "top_k", "nucleus"]
    temperature: float = 1.0
    top_k: int | None = None
    top_p: float | None = None


@dataclass(frozen=True)
class BeamSpec:
    """A beam decoder's settings in the terms other engines use (vLLM's ``BeamSearchParams``)."""

    num_beams: int
    length_penalty: float = 1.0
    no_repeat_ngram_size: int = 0
    prefer_phi: bool = False


@runtime_checkable
class DescribedDecoder(Protocol):
    """Optional: a decoder that describes its settings, so a generation backend outside the shared
    loop (vLLM) can reproduce it; a backend refuses a decoder without it."""

    def spec(self) -> SamplingSpec | BeamSpec:
        """The decoding settings as a ``SamplingSpec`` (sampling: temperature, top-k, top-p) or a
        ``BeamSpec`` (beam search), for a backend to reproduce."""
        ...


# ---------------------------------------------------------------------------------------------
# Taggers: de-identification (NER) models trained on standoff documents
# ---------------------------------------------------------------------------------------------


class TrainedTagger(Protocol):
    """A trained tagger, as ``Tagger.load`` returns it: finds PHI spans in documents."""

    def predict(self, docs: Sequence[Document]) -> list[list[Span]]:
        """Predicted spans per document (the documents' own spans are ignored). Every document
        gets a prediction, long ones included (windowed, never truncated)."""
        ...


@runtime_checkable
class RecallTunable(Protocol):
    """Optional: a trained tagger with per-token probabilities, which can predict with a threshold
    that favours recall (missing PHI is worse than over-redacting)."""

    def predict_min_confidence(self, docs: Sequence[Document], min_confidence: float) -> list[list[Span]]:
        """Spans per document where each token whose probability of being PHI (1 - P(O)) reaches
        ``min_confidence`` is PHI, with its most probable label; 0.5 is close to the best path,
        lower values find more PHI at some precision."""
        ...


class Tagger(Protocol):
    """What a tagger factory returns. Documents are tokenized with the language pack's tokenizer,
    which the stage passes in, so taggers work for any language."""

    @property
    def name(self) -> str:  # read-only: an attribute, or a frozen dataclass's field
        ...

    def train(
        self, train: Sequence[Document], dev: Sequence[Document], out_dir: Path, tokenize: Tokenize
    ) -> dict[str, Any]:
        """Train on ``train`` (model selection on ``dev``), save to ``out_dir`` (resolved config
        included); returns training metrics."""
        ...

    def load(self, out_dir: Path, tokenize: Tokenize) -> TrainedTagger:
        """The tagger ``train`` saved in ``out_dir``, ready to predict. Read only files that cannot
        run code (JSON, safetensors); a missing or damaged file is an ``InputError`` naming it."""
        ...


# ---------------------------------------------------------------------------------------------
# Privacy metrics: synthetic notes against the real notes the generator learned from
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class PrivacyInput:
    """What a privacy metric may look at."""

    real: Sequence[Document]
    """The (pseudonymized) real training notes of the generator, with their PHI spans."""
    synthetic: Sequence[Document]
    """The synthetic corpus, with its PHI spans."""
    tokenize: Tokenize
    """The language pack's tokenizer."""
    model_dir: Path | None = None
    """The trained generator (for model-based metrics such as canary exposure)."""
    heldout: Sequence[Document] = ()
    """Real notes the generator never saw (membership inference)."""
    sources: Mapping[str, str] = field(default_factory=dict)
    """Synthetic note id -> id of the real training note it was rewritten from, for generators that
    refill real notes (``mlm_fill``: its ``generate_corpus`` returns the source note's id as the
    prompt); empty for generators that write notes from a prompt."""
    data_canaries: Path | None = None
    """The record of the generator's data-only membership canaries (``data/canaries/NAME.json``,
    ``synthdeid.privacy.data_canaries``), or None when the corpus has no generator of its own."""
    original: Sequence[Document] = ()
    """The real training notes before pseudonymization, with their true PHI (``data/annotated``),
    for metrics that compare surrogates with real PHI (``surrogate_realism``); empty where a stage
    does not give them."""
    extra: dict[str, Any] = field(default_factory=dict)
    """In the ``audit_lm`` stage: ``lm``, the loaded generator, and ``lm_text``, its inline
    training and dev lines (``{"train": [...], "dev": [...]}``)."""


@dataclass
class PrivacyResult:
    summary: dict[str, Any]
    rows: list[dict[str, Any]] = field(default_factory=list)
    """One row per synthetic note (``synthetic_id`` first), or empty; or, with ``rows_are_pairs``,
    one row per synthetic/real pair for the reviewers (``synthetic_id``, ``real_id``, ...)."""
    rows_are_pairs: bool = False
    """The rows are the pairs of the review page (``high_risk_pairs``), not per-note rows."""


class PrivacyMetric(Protocol):
    """What a privacy-metric factory returns: ``compute`` gives a JSON-able summary (for ``dvc
    metrics``) and, optionally, per-synthetic-note rows (for the review and report stages)."""

    @property
    def name(self) -> str:  # read-only: an attribute, or a frozen dataclass's field
        ...

    def compute(self, data: PrivacyInput) -> PrivacyResult:
        """The metric on one synthetic corpus against the real notes (and, for a model metric, the
        trained generator in ``data.model_dir``)."""
        ...


# ---------------------------------------------------------------------------------------------
# Language packs: one language's text tools
# ---------------------------------------------------------------------------------------------


class DocumentSurrogates(Protocol):
    """Surrogates for the PHI of one document, consistent within it.

    ``surrogate(original, label)`` returns a realistic replacement of the same kind; the same
    original (and its variants, e.g. "J. Jansen" / "Jan Jansen") always gets the same
    replacement within the document; the replacement never equals the original; a label the
    pack cannot handle raises ``SurrogateError`` (fail closed, never pass PHI through).
    """

    def surrogate(self, original: str, label: str) -> str:
        """The replacement of ``original``, a PHI string of kind ``label`` (see the class)."""
        ...


@runtime_checkable
class KeepsTypeWords(Protocol):
    """Optional, for ``DocumentSurrogates``: institution surrogates that keep the original's type
    words (``Apotheek``, ``Gemeente``, ``Hospital Universitario``) and draw only its name
    (``synthdeid.language_kit.institutions``; ``BaseSurrogates`` implements it). Pseudonymization
    then hands over the whole span with the study's head words of the label as ``keep``, instead of
    cutting the head words off and asking for a surrogate of the rest."""

    def keeps_type_words(self, label: str) -> bool:
        """Whether ``label``'s surrogates are type-aware (the pack has type words for its kind)."""
        ...

    def surrogate(self, original: str, label: str, keep: Collection[str] = ()) -> str:
        """As ``DocumentSurrogates.surrogate``; ``keep``: more words to keep as type words."""
        ...


@dataclass(frozen=True)
class LanguagePack:
    """One language's text tools. Offsets are character ranges ``(start, end)`` into the text."""

    code: str
    name: str
    tokenize: Tokenize
    split_sentences: Callable[[str], Offsets]
    surrogates: Callable[[str, int], DocumentSurrogates]
    """``surrogates(doc_id, seed)``: a fresh, seeded surrogate source for one document."""
    tag_map: Mapping[str, str] = field(default_factory=dict)
    """Labels of this language's annotators or corpora mapped onto the canonical tags."""
    canary_template: str | None = None
    """The model canaries' sentence in this language (``synthdeid.privacy.canaries``): single-space separated
    tokens as the pack tokenizes them, inline tags, ``{}`` slots for the secret, ending in ``<EOD>``.
    None: the built-in (Dutch) sentence."""
    ordinary_words: Callable[[], Sequence[str]] | None = None
    """Optional: a public list of ordinary lower-case words of the language, most frequent first,
    without the names and places the pack draws surrogates from (``synthdeid.toolkit.public_words``
    gives one from ``wordfreq``). Postprocess fills the ``<unk>`` a word-level LM writes with them
    (``synthdeid.generation.unknown_fill``). None: the pack has none, and the LM writes no ``<unk>``."""

    def tokens(self, text: str) -> list[str]:
        """The strings of ``tokenize(text)``."""
        return [text[a:b] for a, b in self.tokenize(text)]


# ---------------------------------------------------------------------------------------------
# Corpus formats: reading and writing corpus files and folders
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class CorpusFormat:
    """A corpus file format, as a format factory returns it: its reader, its writer (None: read
    only), the file-name endings that name it and the reader options it takes."""

    description: str
    """One line for ``--help`` and the docs, e.g. ``"JSONL standoff: one {id, text, spans} object per line"``."""
    reader: Callable[..., Iterator[Document]]
    """``reader(path, tagset=None, errors=None)`` (and ``options=`` when ``options`` names any): the
    documents of ``path``, each checked; an invalid record is an ``InputError`` naming the file and
    line, or, with an ``errors`` list, collected there and skipped. ``tagset`` (a ``TagSet`` or
    None) is what labels are checked against."""
    writer: Callable[[Iterable[Document], Path], int] | None = None
    """``writer(docs, path)``: write the documents (ids are unique), return how many; refuse what the
    format cannot hold before writing anything, so what it writes reads back. None: read only."""
    suffixes: tuple[str, ...] = ()
    """File-name endings (lower case, with the dot) that name this format: ``.jsonl``, ``.inline.txt``.
    The longest ending a name has decides; two formats may not claim one ending."""
    options: tuple[str, ...] = ()
    """The reader options it takes (``corpus.format_options``, ``--format-option``); any other is refused."""

    def __post_init__(self) -> None:
        bad = [s for s in self.suffixes if not s.startswith(".") or s != s.lower() or len(s) < 2]
        if bad:
            raise ValueError(f"format suffixes are lower-case endings with their dot (.jsonl), not {bad[0]!r}")


# ---------------------------------------------------------------------------------------------
# The hooks: one per kind, each with its factory and register types
# ---------------------------------------------------------------------------------------------

AnnotatorFactory = Callable[[Config], Annotator]
GeneratorFactory = Callable[[Config], Generator]
DecoderFactory = Callable[[Config], Decoder]
TaggerFactory = Callable[[Config], Tagger]
PrivacyMetricFactory = Callable[[Config], PrivacyMetric]
LanguageFactory = Callable[[Config], LanguagePack]
FormatFactory = Callable[[Config], CorpusFormat]

FactoryT = TypeVar("FactoryT", contravariant=True)


class Register(Protocol[FactoryT]):
    """``register(name, factory, config=Settings)``, the function every hook of a plugin kind with a
    params config (annotators, generators, decoders, taggers, privacy metrics) receives. ``config``
    names the plugin's settings class (a ``synthdeid.toolkit.Settings`` model), or is None for a
    plugin that takes no settings (the study spec then refuses any). The study spec (``synthdeid
    check`` and every stage's start) validates a params section with that class once, without
    calling the factory, and the factory receives the built settings object: it never parses a
    mapping. So a factory that imports torch or transformers costs nothing until the plugin is
    used; keep the class in a module that imports neither. Registering without ``config=`` is
    deprecated: the factory then receives the params mapping, and the spec builds the plugin to
    check it."""

    def __call__(self, name: str, factory: FactoryT, *, config: type | None) -> None: ...


class RegisterWithoutSettings(Protocol[FactoryT]):
    """``register(name, factory)``, the function the language and format hooks receive: their
    factories take no params section (a language is named by ``language``, a format's reader
    options come with each read)."""

    def __call__(self, name: str, factory: FactoryT, *, config: type | None = None) -> None: ...


RegisterAnnotator = Register[AnnotatorFactory]
RegisterGenerator = Register[GeneratorFactory]
RegisterDecoder = Register[DecoderFactory]
RegisterTagger = Register[TaggerFactory]
RegisterPrivacyMetric = Register[PrivacyMetricFactory]
RegisterLanguage = RegisterWithoutSettings[LanguageFactory]
RegisterFormat = RegisterWithoutSettings[FormatFactory]


@hookspec
def register_annotators(register: RegisterAnnotator) -> None:
    """Register PHI annotators: ``factory(config) -> Annotator`` (``annotate(text) -> list[Span]``;
    optionally ``BatchAnnotator``)."""


@hookspec
def register_generators(register: RegisterGenerator) -> None:
    """Register text generators (language models trained on inline-tag text):
    ``factory(config) -> Generator`` (optionally ``VocabAnonymizer``)."""


@hookspec
def register_decoders(register: RegisterDecoder) -> None:
    """Register decoding strategies (nucleus, temperature, beam, ...) for the generators:
    ``factory(config) -> Decoder`` (optionally ``TokenChooser``, ``DescribedDecoder``)."""


@hookspec
def register_taggers(register: RegisterTagger) -> None:
    """Register downstream de-identification taggers (NER models): ``factory(config) -> Tagger``
    (its trained model optionally ``RecallTunable``)."""


@hookspec
def register_privacy_metrics(register: RegisterPrivacyMetric) -> None:
    """Register privacy metrics comparing synthetic notes with real ones:
    ``factory(config) -> PrivacyMetric``."""


@hookspec
def register_languages(register: RegisterLanguage) -> None:
    """Register language packs: ``factory(config) -> LanguagePack`` (tokenizer, sentence
    splitter, surrogate generator and tag mapping for one language)."""


@hookspec
def register_formats(register: RegisterFormat) -> None:
    """Register corpus file formats: ``factory(config) -> CorpusFormat`` (a reader, optionally a
    writer, the file-name endings it claims and the reader options it takes). ``config`` is empty:
    a reader's options come with each read (``corpus.format_options``)."""


HOOK_KINDS: dict[str, str] = {
    "register_annotators": "annotator",
    "register_generators": "generator",
    "register_decoders": "decoder",
    "register_taggers": "tagger",
    "register_privacy_metrics": "privacy_metric",
    "register_languages": "language",
    "register_formats": "format",
}
"""Hook name -> the kind of object it registers (the registry's name)."""
