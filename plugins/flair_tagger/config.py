"""Settings of the ``flair_bilstm_crf`` tagger (the ``taggers.<name>.config`` section of params)."""

from __future__ import annotations

from pydantic import model_validator

from synthdeid import SynthdeidError
from synthdeid.toolkit import Settings, setting

NAME = "flair_bilstm_crf"
LABEL_TYPE = "ner"
"""The flair label type of the PHI spans."""


class FlairTaggerConfig(Settings):
    """A BiLSTM-CRF as in nedap's "deidentify" (Trienes et al. 2020), with embeddings that need
    no download: word embeddings trained from scratch on the training corpus, optionally
    character embeddings and/or fixed vectors from a local file.

    Defaults are demo-sized (``max_epochs``); the deidentify setting is ``hidden_size: 256``,
    ``max_epochs: 150`` with learning-rate annealing on dev F1 (flair's default schedule).

    Renamed settings (the old names still work for one release, with a ``DeprecationWarning``):
    ``mini_batch_size`` is now ``batch_size``, ``word_embedding_dim`` is ``embedding_size``,
    ``word_min_freq`` is ``min_count``.
    """

    hidden_size: int = setting(128, ge=1, description="LSTM units per direction")
    use_characters: bool = setting(True, description="add a character BiLSTM over the corpus's characters")
    """Add a character BiLSTM (flair ``CharacterEmbeddings``) over the corpus's characters."""
    char_embedding_dim: int = setting(25, ge=1, description="width of the character embeddings")
    char_hidden_size: int = setting(25, ge=1, description="units of the character BiLSTM")
    embedding_size: int = setting(
        100,
        ge=0,
        renamed_from="word_embedding_dim",
        description="size of the word embeddings trained from scratch (0: none)",
    )
    """Size of the word embeddings trained from scratch (flair ``OneHotEmbeddings``); 0 for none."""
    min_count: int = setting(
        2,
        ge=1,
        renamed_from="word_min_freq",
        description="words seen fewer times in training share the unknown-word vector",
    )
    """Words seen fewer times in training share the unknown-word vector (which thereby learns)."""
    word_embeddings: str | None = setting(
        None, description="a local word2vec file, stacked with the others and kept fixed"
    )
    """A local word2vec file (.txt/.vec/.bin), stacked with the others and kept fixed (gensim's
    own files are pickles, not read: convert them with ``save_word2vec_format``)."""
    learning_rate: float = setting(0.1, gt=0, description="initial learning rate of SGD")
    batch_size: int = setting(32, ge=1, renamed_from="mini_batch_size", description="sentences per update")
    """Sentences per update (flair's ``mini_batch_size``)."""
    max_epochs: int = setting(5, ge=1, description="epochs to train at most")
    """Demo corpus (1,600 notes, 192k tokens, 16 labels; 1 thread): ~170 s/epoch with characters
    (dev F1 0.86 after 4 epochs, 0.90 after 5), ~30-60 s/epoch one-hot only (0.77 / 0.90 after
    5 / 10 epochs)."""
    anneal_patience: int = setting(
        3, ge=0, description="epochs without dev improvement before the learning rate is halved"
    )
    """Epochs without dev improvement before the learning rate is halved (flair's annealing)."""
    dropout: float = setting(0.0, ge=0, lt=1, description="dropout of the tagger")
    word_dropout: float = setting(0.05, ge=0, lt=1, description="share of the words dropped whole in training")
    locked_dropout: float = setting(0.5, ge=0, lt=1, description="dropout of whole embedding dimensions per sentence")
    max_tokens: int = setting(
        128, ge=1, description="sentences are a note's lines, cut into windows of at most this many tokens"
    )
    """Sentences are the lines of a note, cut into windows of at most this many tokens."""
    seed: int = setting(0, ge=0, description="null: the seed of the training data (params)")
    threads: int = setting(2, ge=0, description="torch threads (0: leave torch's setting)")
    """torch threads while training and predicting (0: leave torch's setting)."""
    embeddings_storage_mode: str = setting(
        "none", choices=("none", "cpu", "gpu"), description="flair's embedding cache"
    )
    """flair's embedding cache: none | cpu | gpu."""
    predict_batch_size: int = setting(64, ge=1, description="sentences per batch when predicting")

    @model_validator(mode="after")
    def _some_embeddings(self) -> FlairTaggerConfig:
        if not (self.embedding_size or self.use_characters or self.word_embeddings):
            raise SynthdeidError(
                f"tagger {NAME!r}: bad settings (need some embeddings (embedding_size > 0, use_characters or "
                "word_embeddings))"
            )
        return self
