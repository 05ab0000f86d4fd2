"""The ``tagger`` annotator: a trained de-identification tagger used as the ``annotate`` stage's
annotator, for any language (Vakili et al. 2025 annotate with a fine-tuned SweDeClin-BERT or
roberta-base-bne; here any directory a tagger plugin wrote: ``data/taggers/real`` of an earlier
study, or an encoder fine-tuned elsewhere with ``hf_token_classification``).

    annotate:
      annotator: tagger
      config: {model: /path/to/tagger_dir, language: sv}

The directory's ``tagger.json`` names the tagger plugin that loads it; ``language`` is the pack
whose tokenizer the tagger was trained with (the same pack as the study's, normally).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from synthdeid import Document, Span, SynthdeidError, hookimpl
from synthdeid.api import RecallTunable, RegisterAnnotator
from synthdeid.toolkit import TAGGER_META_FILE as META_FILE
from synthdeid.toolkit import Settings, read_json, registry, setting


class TaggerAnnotatorConfig(Settings):
    model: str = setting(description="a tagger directory (what Tagger.train wrote)")
    """A tagger directory (what ``Tagger.train`` wrote: ``tagger.json`` plus the weights)."""
    language: str = setting(description="the language pack whose tokenizer splits the notes into words")
    """The language pack whose tokenizer splits the notes into the tagger's words."""
    min_confidence: float | None = setting(
        None, gt=0, le=1, description="a token is PHI when the tagger's PHI probability reaches this (null: best path)"
    )
    """Recall-biased prediction: a token is PHI when the tagger's probability of PHI reaches this
    (taggers with per-token probabilities, ``synthdeid.api.RecallTunable``); None: best path."""


def tagger_plugin(model_dir: Path) -> str:
    """The tagger plugin that wrote ``model_dir`` (from its ``tagger.json``)."""
    meta_path = model_dir / META_FILE
    if not meta_path.exists():
        raise SynthdeidError(
            f"annotator 'tagger': {model_dir} holds no trained tagger ({META_FILE} is missing); "
            "point `annotate.config.model` at a directory a tagger wrote, e.g. data/taggers/real"
        )
    return read_json(
        meta_path,
        "retrain the tagger with this version of synthdeid (its 'tagger' key names "
        "the plugin), or copy the folder again",
        lambda meta: str(meta["tagger"]),
    )


class TaggerAnnotator:
    """Predicts the PHI spans of one note with a loaded tagger."""

    def __init__(self, config: TaggerAnnotatorConfig) -> None:
        model_dir = Path(config.model)
        tokenize = registry("language").create(config.language).tokenize
        name = tagger_plugin(model_dir)
        self.tagger = registry("tagger").create(name, {}).load(model_dir, tokenize)
        self.min_confidence = config.min_confidence
        if self.min_confidence is not None and not isinstance(self.tagger, RecallTunable):
            raise SynthdeidError(
                f"annotator 'tagger': the {name!r} tagger has no per-token probabilities for "
                "min_confidence; drop it (best path) or use a torch_bilstm_crf or "
                "hf_token_classification tagger"
            )

    def annotate(self, text: str) -> list[Span]:
        return self.annotate_many([text])[0]

    def annotate_many(self, texts: Sequence[str]) -> list[list[Span]]:
        """Spans of several notes in one call (the tagger batches their windows)."""
        docs = [Document.create(f"note-{i}", text, []) for i, text in enumerate(texts)]
        if self.min_confidence is not None:
            return [list(spans) for spans in self.tagger.predict_min_confidence(docs, self.min_confidence)]
        return [list(spans) for spans in self.tagger.predict(docs)]


@hookimpl
def register_annotators(register: RegisterAnnotator) -> None:
    register("tagger", TaggerAnnotator, config=TaggerAnnotatorConfig)
