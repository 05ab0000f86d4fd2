"""How a ``flair_bilstm_crf`` tagger is built, saved and loaded without pickles.

flair saves a ``SequenceTagger`` as a pickle and ``SequenceTagger.load`` unpickles it in full
(torch's load with ``weights_only`` off): a crafted ``best-model.pt`` runs code. Here a tagger is
saved as its weights (``model.safetensors``) and its embeddings' vocabularies and sizes
(``embeddings.json``); loading rebuilds the network from those and ``tagger.json``'s config, the
way training builds it, with the embedding names of training (see ``embeddings``), and loads the
weights. flair's trainer keeps its best epoch the same way (``SafeTrainer``). A folder holding
only a flair pickle (``best-model.pt``, ``final-model.pt``: an older synthdeid or flair itself)
loads only inside ``trusting_pickles`` (``synthdeid deidentify --trust-model``).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import torch
from flair.models import SequenceTagger
from flair.trainers import ModelTrainer

from synthdeid import InputError
from synthdeid.toolkit import TAGGER_META_FILE as CONFIG_FILE
from synthdeid.toolkit import TAGGER_RETRAIN as RETRAIN
from synthdeid.toolkit import brief_error as brief
from synthdeid.toolkit import check_model_fits as fits
from synthdeid.toolkit import check_model_sizes as check_sizes
from synthdeid.toolkit import (
    load_weights,
    pickles_trusted,
    read_json,
    refuse_pickle,
    stored_weights,
    unpickling,
    write_json,
)

from .config import LABEL_TYPE, FlairTaggerConfig
from .embeddings import describe, dictionary, rebuild, restore_names

WEIGHTS = "model.safetensors"
EMBEDDINGS = "embeddings.json"
PICKLES = ("best-model.pt", "final-model.pt")
"""What flair's own ``save`` wrote (synthdeid before safe saving): pickles."""
FILES = (WEIGHTS, EMBEDDINGS, *PICKLES)
FORMAT = 1
SIZES = dict.fromkeys(("hidden_size", "char_embedding_dim", "char_hidden_size", "embedding_size"), "width")
"""The settings of ``tagger.json`` that size the network (``synthdeid.model_limits``)."""
EMBEDDING_SIZES = dict.fromkeys(("embedding_length", "char_embedding_dim", "hidden_size_char"), "width")
TRUST_FIX = (
    f"retrain the tagger with this version of synthdeid, which saves {WEIGHTS} and {EMBEDDINGS} "
    "instead; only if you trust whoever made the folder, load it anyway with "
    "`synthdeid deidentify --trust-model`"
)


def new_tagger(embeddings: Any, labels: Sequence[str], config: FlairTaggerConfig) -> SequenceTagger:
    """The untrained BiLSTM-CRF over ``embeddings`` for ``labels`` (BIOES tags)."""
    tags = dictionary(labels, add_unk=False)
    tags.span_labels = True
    return SequenceTagger(
        embeddings=embeddings,
        tag_dictionary=tags,
        tag_type=LABEL_TYPE,
        hidden_size=config.hidden_size,
        use_crf=True,
        dropout=config.dropout,
        word_dropout=config.word_dropout,
        locked_dropout=config.locked_dropout,
    )


def state(model: torch.nn.Module) -> dict[str, Any]:
    """The weights as contiguous tensors (safetensors stores no views)."""
    return {k: v.detach().contiguous() for k, v in model.state_dict().items()}


def save(model: SequenceTagger, out_dir: Path) -> None:
    """``model.safetensors`` and ``embeddings.json`` in ``out_dir``."""
    from safetensors.torch import save_file

    out_dir.mkdir(parents=True, exist_ok=True)
    save_file(state(model), str(out_dir / WEIGHTS))
    write_json(
        {"format": FORMAT, "tags": model.label_dictionary.get_items(), "embeddings": describe(model.embeddings)},
        out_dir / EMBEDDINGS,
    )


def load(
    out_dir: Path, labels: Sequence[str], config: FlairTaggerConfig, embedding_names: Sequence[str] | None
) -> SequenceTagger:
    """The tagger saved in ``out_dir``: safetensors and JSON, or (trusted only) a flair pickle."""
    if (out_dir / WEIGHTS).exists():
        return _load_safe(out_dir, labels, config)
    pickle = next((out_dir / f for f in PICKLES if (out_dir / f).exists()), None)
    if pickle is None:
        raise InputError(f"has no {WEIGHTS}", path=out_dir, fix=RETRAIN)
    if not pickles_trusted():
        refuse_pickle(pickle, TRUST_FIX)
    return _load_pickle(pickle, embedding_names)


def parse(data: dict[str, Any]) -> tuple[list[str], Any]:
    """The tags and rebuilt (untrained) embeddings of ``embeddings.json``."""
    if data.get("format") != FORMAT:
        raise ValueError(f"format {data.get('format')!r}; this version reads format {FORMAT}")
    return list(data["tags"]), rebuild(data["embeddings"])


def _on_meta(out_dir: Path, labels: Sequence[str], config: FlairTaggerConfig) -> SequenceTagger:
    """The tagger built on torch's ``meta`` device (flair moves every model to ``flair.device``)."""
    import flair

    device, flair.device = flair.device, torch.device("meta")
    try:
        _, embeddings = read_json(out_dir / EMBEDDINGS, RETRAIN, parse)
        return new_tagger(embeddings, labels, config)
    finally:
        flair.device = device


def _load_safe(out_dir: Path, labels: Sequence[str], config: FlairTaggerConfig) -> SequenceTagger:
    check_sizes(config.model_dump(), SIZES, out_dir / CONFIG_FILE, RETRAIN)
    specs = read_json(out_dir / EMBEDDINGS, RETRAIN, lambda data: data.get("embeddings"))
    for spec in specs if isinstance(specs, list) else []:
        if isinstance(spec, dict):
            check_sizes(spec, EMBEDDING_SIZES, out_dir / EMBEDDINGS, RETRAIN)
    stored = stored_weights([out_dir / WEIGHTS], RETRAIN)
    fits(lambda: _on_meta(out_dir, labels, config), stored, out_dir / CONFIG_FILE, RETRAIN, WEIGHTS)
    tags, embeddings = read_json(out_dir / EMBEDDINGS, RETRAIN, parse)
    model = new_tagger(embeddings, labels, config)
    if model.label_dictionary.get_items() != tags:
        raise InputError("lists other tags than tagger.json's labels give", path=out_dir / EMBEDDINGS, fix=RETRAIN)
    load_weights(model, out_dir / WEIGHTS, RETRAIN, f"{CONFIG_FILE} and {EMBEDDINGS}")
    return model.eval()


def _load_pickle(path: Path, embedding_names: Sequence[str] | None) -> SequenceTagger:
    """A flair pickle (runs whatever code it holds: trusted folders only)."""
    unpickling(path)
    try:
        model = SequenceTagger.load(path)
    except Exception as e:  # noqa: BLE001 - a damaged pickle fails in any of many ways
        raise InputError(
            f"cannot be loaded as a flair model ({type(e).__name__}: {brief(e)})", path=path, fix=RETRAIN
        ) from None
    if not isinstance(model, SequenceTagger):
        raise InputError(f"holds a flair {type(model).__name__}, not a SequenceTagger", path=path, fix=RETRAIN)
    restore_names(model.embeddings, embedding_names)
    return model


class SafeTrainer(ModelTrainer):
    """flair's ``ModelTrainer`` keeping its best epoch as safetensors weights, not a pickle."""

    def _save_model(self, model_file: str | Path, checkpoint: bool = False) -> None:
        from flair.distributed_utils import is_main_process
        from safetensors.torch import save_file

        if is_main_process():
            save_file(state(self.model), str(model_file))

    def _load_model(self, model_file: str | Path) -> None:
        from safetensors.torch import load_file

        self.model.load_state_dict(load_file(str(model_file)))
