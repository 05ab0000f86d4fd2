"""What the ``machine_annotate`` stage checks and loads before annotating: the ``machine_annotated.NAME``
spec, and the tagger that annotates (a trained one, or, with ``tagger_share`` below 1, one trained
here on a seeded share of the real gold training notes, the data-constraint ablation of Vakili et al.)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from synthdeid.api import Tokenize, TrainedTagger
from synthdeid.corpus.formats import read_jsonl
from synthdeid.corpus.split import check_share, share_indices
from synthdeid.errors import InputError
from synthdeid.evaluation.utility import tagger_from
from synthdeid.params import get

KEYS = ("corpus", "tagger", "require_phi", "tagger_share")


def spec_of(params: dict, name: str) -> dict:
    """``machine_annotated.NAME`` with its keys checked (``corpus`` and ``tagger`` are required) and
    ``tagger_share`` filled in (1.0 when absent)."""
    spec = get(params, f"machine_annotated.{name}")
    if not isinstance(spec, dict) or set(spec) - set(KEYS) or not {"corpus", "tagger"} <= set(spec):
        raise InputError(f"machine_annotated.{name} must be a mapping with corpus and tagger (and optionally "
                         f"require_phi, tagger_share), got {spec!r}", path="params.yaml",
                         fix=f"e.g. machine_annotated: {{{name}: {{corpus: lstm_raw_p, tagger: real}}}}")
    if not isinstance(spec.get("require_phi", False), bool):
        raise InputError(f"machine_annotated.{name}.require_phi must be true or false, not {spec['require_phi']!r}",
                         path="params.yaml", fix="true drops (and counts) the notes the tagger finds no PHI in")
    share = check_share(spec.get("tagger_share", 1.0), f"machine_annotated.{name}.tagger_share")
    if share < 1 and spec["tagger"] != "real":
        raise InputError(f"machine_annotated.{name}.tagger_share trains a tagger on a share of the real gold notes, "
                         f"so its tagger must be real, not {spec['tagger']!r}", path="params.yaml",
                         fix="set tagger: real, or drop tagger_share to use the trained tagger as it is")
    if spec["corpus"] == name:
        raise InputError(f"machine_annotated.{name} would overwrite its own input corpus", path="params.yaml",
                         fix="give the machine-annotated corpus a new name")
    return {**spec, "tagger_share": share}


def annotating_tagger(params: dict, spec: dict, tokenize: Tokenize, tagger_dir: str, gold: Callable[[str], str],
                      scratch: Path) -> tuple[TrainedTagger, dict[str, Any]]:
    """The tagger of ``tagger_dir``; with ``tagger_share`` below 1 one trained in ``scratch`` on that
    share of the gold notes ``gold("train")`` (validated on ``gold("dev")``), with its
    ``tagger_training`` figures for the metrics (else no figures)."""
    share = spec["tagger_share"]
    if share >= 1:
        return tagger_from(params).load(Path(tagger_dir), tokenize), {}
    notes = list(read_jsonl(gold("train")))
    train = [notes[i] for i in share_indices(len(notes), share, int(get(params, "utility.seed")))]
    trained = tagger_from(params).train(train, list(read_jsonl(gold("dev"))), scratch, tokenize)
    figures = {"tagger_training": {"train_documents": len(train), "of": len(notes), "dev": trained.get("dev")}}
    return tagger_from(params).load(scratch, tokenize), figures


def upstream(spec: dict, figures: dict[str, Any], tagger_dir: str, tagger_metrics: str) -> str:
    """Where the annotating tagger came from, for the error when it found no PHI at all."""
    if spec["tagger_share"] < 1:
        return f"the tagger trained here on {figures['tagger_training']['train_documents']} real notes"
    return f"the tagger {tagger_dir} (stage train_tagger_{spec['tagger']}, {tagger_metrics})"
