"""What the ``machine_annotate`` stage checks and loads before annotating: that the
``machine_annotated.NAME`` entry does not overwrite its input, and the tagger that annotates (a
trained one, or, with ``tagger_share`` below 1, one trained here on a seeded share of the real gold
training notes, the data-constraint ablation of Vakili et al.)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from synthdeid.api import Tagger, Tokenize, TrainedTagger
from synthdeid.corpus.formats import read_jsonl
from synthdeid.corpus.split import share_indices
from synthdeid.errors import InputError

if TYPE_CHECKING:
    from synthdeid.spec.study import MachineAnnotatedSpec


def check_output(spec: MachineAnnotatedSpec, name: str) -> None:
    """``machine_annotated.NAME`` (``spec``) must not write over its own input corpus."""
    if spec.corpus == name:
        raise InputError(
            f"machine_annotated.{name} would overwrite its own input corpus",
            path="params.yaml",
            fix="give the machine-annotated corpus a new name",
        )


def annotating_tagger(
    spec: MachineAnnotatedSpec,
    tagger: Tagger,
    seed: int,
    tokenize: Tokenize,
    tagger_dir: str,
    gold: Callable[[str], str],
    scratch: Path,
) -> tuple[TrainedTagger, dict[str, Any]]:
    """The ``tagger`` (the utility tagger plugin) of ``tagger_dir``; with ``spec.tagger_share`` below 1
    one trained in ``scratch`` on that share (drawn with ``seed``, ``utility.seed``) of the gold notes
    ``gold("train")`` (validated on ``gold("dev")``), with its ``tagger_training`` figures for the
    metrics (else no figures)."""
    share = spec.tagger_share
    if share >= 1:
        return tagger.load(Path(tagger_dir), tokenize), {}
    notes = list(read_jsonl(gold("train")))
    train = [notes[i] for i in share_indices(len(notes), share, seed)]
    trained = tagger.train(train, list(read_jsonl(gold("dev"))), scratch, tokenize)
    figures = {"tagger_training": {"train_documents": len(train), "of": len(notes), "dev": trained.get("dev")}}
    return tagger.load(scratch, tokenize), figures


def upstream(spec: MachineAnnotatedSpec, figures: dict[str, Any], tagger_dir: str, tagger_metrics: str) -> str:
    """Where the annotating tagger came from, for the error when it found no PHI at all."""
    if spec.tagger_share < 1:
        return f"the tagger trained here on {figures['tagger_training']['train_documents']} real notes"
    return f"the tagger {tagger_dir} (stage train_tagger_{spec.tagger}, {tagger_metrics})"
