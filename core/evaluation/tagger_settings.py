"""The settings a utility setting's tagger trains with, from the study spec (the train_tagger and
learning_curve stages; apart from ``evaluation.utility`` so that the stages that only score do not
depend on the tagger plugins)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from synthdeid.api import Tokenize
from synthdeid.corpus.records import Document
from synthdeid.evaluation.utility import unknown_calibrated
from synthdeid.plugin_system.manager import registry


def study_tagger(
    study: Any, kind: str, real_train: Sequence[Document], tokenize: Tokenize
) -> tuple[Any, Any, float | None]:
    """The utility tagger's spec (``taggers.<utility.tagger>``), the settings a ``kind`` setting's
    tagger trains with, and the calibration's share: the spec's settings built by the plugin's
    settings class and calibrated (``unknown_calibrated``, ``utility.calibrate_unknown_words``); a
    plugin without a settings class gets its settings as they are."""
    tagger = study.taggers[study.utility.tagger]
    built = registry("tagger").settings(tagger.plugin, tagger.settings)
    settings, share = unknown_calibrated(
        tagger.settings if built is None else built, real_train, kind, study.utility.calibrate_unknown_words, tokenize
    )
    return tagger, settings, share
