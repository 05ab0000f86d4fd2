"""The tiny tagger of each tagger plugin that the model-folder tests train once a session
(``tiny_taggers`` in conftest.py): plugin name -> config."""

from __future__ import annotations

from typing import Any

TAGGERS: dict[str, dict[str, Any]] = {
    "torch_bilstm_crf": {
        "threads": 1,
        "batch_size": 8,
        "hidden_size": 16,
        "embedding_size": 16,
        "char_filters": 8,
        "max_epochs": 1,
    },
    "flair_bilstm_crf": {
        "threads": 1,
        "batch_size": 8,
        "hidden_size": 16,
        "embedding_size": 16,
        "char_embedding_dim": 8,
        "char_hidden_size": 8,
        "max_epochs": 1,
    },
    "hf_token_classification": {
        "threads": 1,
        "batch_size": 8,
        "hidden_size": 16,
        "layers": 1,
        "heads": 2,
        "intermediate_size": 32,
        "vocab_size": 200,
        "max_epochs": 1,
    },
}
