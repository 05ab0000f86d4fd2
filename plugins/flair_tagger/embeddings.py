"""flair embeddings that need no download, and the repair of stacked embeddings after loading.

flair 0.15.1 saves a ``StackedEmbeddings`` without the ``"0-"``, ``"1-"`` prefixes it gives its
members' names, except for members that store their name (``CharacterEmbeddings``,
``WordEmbeddings``); tokens concatenate their vectors in the sorted order of those names, so a
reloaded one-hot + character stack is fed to the LSTM in the wrong order (0.0 F1 on a real
corpus). ``restore_names`` puts the names saved at training time back.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import torch

from synthdeid import SynthdeidError
from synthdeid.tagging.runtime import quiet

from .config import FlairTaggerConfig


def _dictionary(items: Iterable[str], add_unk: bool = True) -> Any:
    from flair.data import Dictionary

    d = Dictionary(add_unk=add_unk)
    for item in items:
        d.add_item(item)
    return d


def build_embeddings(config: FlairTaggerConfig, train_tokens: Sequence[Sequence[str]]) -> Any:
    """The stacked embeddings of ``config``, built from the training sentences' tokens."""
    from flair.embeddings import (
        CharacterEmbeddings,
        OneHotEmbeddings,
        StackedEmbeddings,
    )

    members: list[Any] = []
    if config.word_embedding_dim:
        counts = Counter(t for sent in train_tokens for t in sent)
        vocab = [w for w, n in counts.most_common() if n >= config.word_min_freq]
        with quiet("flair"):  # OneHotEmbeddings logs the whole vocabulary
            members.append(OneHotEmbeddings(_dictionary(vocab), field="text",
                                            embedding_length=config.word_embedding_dim))
    if config.use_characters:
        chars = sorted({c for sent in train_tokens for t in sent for c in t})
        members.append(CharacterEmbeddings(path_to_char_dict=_dictionary(chars),
                                           char_embedding_dim=config.char_embedding_dim,
                                           hidden_size_char=config.char_hidden_size))
    if config.word_embeddings:
        members.append(local_word_embeddings(Path(config.word_embeddings)))
    return StackedEmbeddings(members)


def embedding_names(stack: Any) -> list[str]:
    return [e.name for e in stack.embeddings]


def restore_names(stack: Any, names: Sequence[str] | None) -> None:
    """Give the members of a reloaded stack their training-time names (saved in
    ``tagger.json``); without saved names, re-add the ``"<i>-"`` prefixes."""
    members = list(stack.embeddings)
    if names is not None and len(names) != len(members):
        raise SynthdeidError(f"the saved model has {len(members)} embeddings but its tagger.json "
                             f"names {len(names)}: retrain the tagger")
    for i, emb in enumerate(members):
        if names is not None:
            emb.name = names[i]
        elif not emb.name.startswith(f"{i}-"):
            emb.name = f"{i}-{emb.name}"
    stack._StackedEmbeddings__names = [n for e in members for n in e.get_names()]


def read_vectors(path: Path) -> tuple[list[str], np.ndarray]:
    """Words and vectors of a word2vec file: text (``.txt``/``.vec``, header optional) or binary
    (``.bin``); any other suffix is read with gensim's ``KeyedVectors.load``."""
    if not path.exists():
        raise SynthdeidError(f"word_embeddings file {path} does not exist; give the path of a "
                             "local word2vec (.txt/.vec/.bin) or gensim KeyedVectors file")
    if path.suffix == ".bin":
        return _read_binary(path)
    if path.suffix in (".txt", ".vec"):
        return _read_text(path)
    try:
        from gensim.models import KeyedVectors
    except ImportError:
        raise SynthdeidError(f"reading {path} needs gensim (pip install gensim), or convert "
                             "the vectors to word2vec text format (.txt/.vec)") from None
    kv = KeyedVectors.load(str(path))
    return list(kv.index_to_key), np.asarray(kv.vectors, dtype=np.float32)


def _read_text(path: Path) -> tuple[list[str], np.ndarray]:
    words: list[str] = []
    rows: list[list[float]] = []
    with open(path, encoding="utf-8", errors="replace") as f:
        for i, line in enumerate(f):
            parts = line.rstrip("\n").rstrip(" ").split(" ")
            if i == 0 and len(parts) == 2 and all(p.isdigit() for p in parts):
                continue  # header: count and dimension
            if len(parts) < 2:
                continue
            if rows and len(parts) - 1 != len(rows[0]):
                raise SynthdeidError(f"{path}:{i + 1}: expected {len(rows[0])} numbers after the word")
            words.append(parts[0])
            rows.append([float(x) for x in parts[1:]])
    if not rows:
        raise SynthdeidError(f"{path} holds no word vectors")
    return words, np.asarray(rows, dtype=np.float32)


def _read_binary(path: Path) -> tuple[list[str], np.ndarray]:
    with open(path, "rb") as f:
        count, dim = (int(x) for x in f.readline().split())
        words, vectors = [], np.empty((count, dim), dtype=np.float32)
        for i in range(count):
            word = bytearray()
            while (ch := f.read(1)) not in (b" ", b""):
                if ch != b"\n":
                    word += ch
            words.append(word.decode("utf-8", errors="replace"))
            vectors[i] = np.frombuffer(f.read(4 * dim), dtype="<f4")
    return words, vectors


def local_word_embeddings(path: Path) -> Any:
    """Fixed flair ``WordEmbeddings`` from a local file (the first occurrence of a word wins)."""
    from flair.embeddings import WordEmbeddings

    words, vectors = read_vectors(path)
    first: dict[str, int] = {}
    for i, w in enumerate(words):
        first.setdefault(w, i)
    vocab = {w: j for j, w in enumerate(first)}
    emb = WordEmbeddings(None, vocab=vocab, embedding_length=vectors.shape[1], name=f"vectors-{path.stem}")
    weight = np.vstack([vectors[list(first.values())], np.zeros((1, vectors.shape[1]), dtype=np.float32)])
    with torch.no_grad():
        emb.embedding.weight.copy_(torch.from_numpy(weight))
    return emb
