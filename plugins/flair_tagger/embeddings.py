"""flair embeddings that need no download, described in JSON and rebuilt from it (``storage``),
and the repair of stacked embeddings loaded from a flair pickle.

flair 0.15.1 saves a ``StackedEmbeddings`` without the ``"0-"``, ``"1-"`` prefixes it gives its
members' names, except for members that store their name (``CharacterEmbeddings``,
``WordEmbeddings``); tokens concatenate their vectors in the sorted order of those names, so a
reloaded one-hot + character stack is fed to the LSTM in the wrong order (0.0 F1 on a real
corpus). ``describe`` records each member's name with its vocabulary and sizes, and ``rebuild``
gives the members those names again; ``restore_names`` puts the names saved at training time back
on a stack flair unpickled.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
import torch

from synthdeid import InputError, SynthdeidError
from synthdeid.toolkit import quiet_loggers as quiet

from .config import FlairTaggerConfig

if TYPE_CHECKING:
    from flair.embeddings import TokenEmbeddings


def dictionary(items: Iterable[str], add_unk: bool = True) -> Any:
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
    if config.embedding_size:
        counts = Counter(t for sent in train_tokens for t in sent)
        vocab = [w for w, n in counts.most_common() if n >= config.min_count]
        with quiet("flair"):  # OneHotEmbeddings logs the whole vocabulary
            members.append(OneHotEmbeddings(dictionary(vocab), field="text", embedding_length=config.embedding_size))
    if config.use_characters:
        chars = sorted({c for sent in train_tokens for t in sent for c in t})
        members.append(
            CharacterEmbeddings(
                path_to_char_dict=dictionary(chars),
                char_embedding_dim=config.char_embedding_dim,
                hidden_size_char=config.char_hidden_size,
            )
        )
    if config.word_embeddings:
        members.append(local_word_embeddings(Path(config.word_embeddings)))
    return StackedEmbeddings(members)


def embedding_names(stack: Any) -> list[str]:
    return [e.name for e in stack.embeddings]


def describe(stack: Any) -> list[dict[str, Any]]:
    """What ``rebuild`` needs of each member of a stack ``build_embeddings`` made (JSON)."""
    from flair.embeddings import CharacterEmbeddings, OneHotEmbeddings, WordEmbeddings

    out: list[dict[str, Any]] = []
    for e in stack.embeddings:
        if isinstance(e, OneHotEmbeddings):
            out.append(
                {
                    "kind": "one_hot",
                    "name": e.name,
                    "field": e.field,
                    "embedding_length": e.embedding_length,
                    "vocab": e.vocab_dictionary.get_items(),
                }
            )
        elif isinstance(e, CharacterEmbeddings):
            out.append(
                {
                    "kind": "characters",
                    "name": e.name,
                    "chars": e.char_dictionary.get_items(),
                    "char_embedding_dim": e.char_embedding_dim,
                    "hidden_size_char": e.hidden_size_char,
                }
            )
        elif isinstance(e, WordEmbeddings):
            out.append(
                {
                    "kind": "word_vectors",
                    "name": e.name,
                    "embedding_length": e.embedding_length,
                    "words": sorted(e.vocab, key=e.vocab.__getitem__),
                }
            )
        else:
            raise SynthdeidError(f"cannot save flair {type(e).__name__} embeddings")
    return out


def _saved_dictionary(items: Sequence[str]) -> Any:
    d = dictionary(items)  # the "<unk>" saved first is the one the dictionary starts with
    if d.get_items() != list(items):
        raise ValueError("a saved vocabulary is not a flair dictionary's (duplicates, or <unk> not first)")
    return d


def rebuild(specs: Sequence[dict[str, Any]]) -> Any:
    """The stack ``describe`` described, its members named as in training (untrained weights)."""
    from flair.embeddings import CharacterEmbeddings, OneHotEmbeddings, StackedEmbeddings, WordEmbeddings

    members: list[Any] = []
    for spec in specs:
        kind = spec["kind"]
        emb: TokenEmbeddings
        if kind == "one_hot":
            with quiet("flair"):
                emb = OneHotEmbeddings(
                    _saved_dictionary(spec["vocab"]),
                    field=str(spec["field"]),
                    embedding_length=int(spec["embedding_length"]),
                )
        elif kind == "characters":
            emb = CharacterEmbeddings(
                path_to_char_dict=_saved_dictionary(spec["chars"]),
                char_embedding_dim=int(spec["char_embedding_dim"]),
                hidden_size_char=int(spec["hidden_size_char"]),
            )
        elif kind == "word_vectors":
            vocab = {str(w): i for i, w in enumerate(spec["words"])}
            emb = WordEmbeddings(None, vocab=vocab, embedding_length=int(spec["embedding_length"]), name="vectors")
        else:
            raise ValueError(f"unknown embedding kind {kind!r}")
        emb.name = str(spec["name"])
        members.append(emb)
    if not members:
        raise ValueError("no embeddings")
    return StackedEmbeddings(members, overwrite_names=False)


def restore_names(stack: Any, names: Sequence[str] | None) -> None:
    """Give the members of a reloaded stack their training-time names (saved in
    ``tagger.json``); without saved names, re-add the ``"<i>-"`` prefixes."""
    members = list(stack.embeddings)
    if names is not None and len(names) != len(members):
        raise SynthdeidError(
            f"the saved model has {len(members)} embeddings but its tagger.json names {len(names)}: retrain the tagger"
        )
    for i, emb in enumerate(members):
        if names is not None:
            emb.name = names[i]
        elif not emb.name.startswith(f"{i}-"):
            emb.name = f"{i}-{emb.name}"
    stack._StackedEmbeddings__names = [n for e in members for n in e.get_names()]


def read_vectors(path: Path) -> tuple[list[str], np.ndarray]:
    """Words and vectors of a word2vec file: text (``.txt``/``.vec``, header optional) or binary
    (``.bin``). gensim's own files are pickles (they can run code when loaded): not read."""
    if not path.exists():
        raise InputError(
            "word_embeddings file does not exist",
            path=path,
            fix="give the path of a local word2vec file (.txt/.vec/.bin)",
        )
    if path.suffix == ".bin":
        return _read_binary(path)
    if path.suffix in (".txt", ".vec"):
        return _read_text(path)
    raise InputError(
        "is not a word2vec file (.txt/.vec/.bin); gensim's files are pickles, which run the code "
        "they hold when loaded, and are not read",
        path=path,
        fix="convert it where you trust it: gensim's KeyedVectors.load(path)"
        ".save_word2vec_format('vectors.bin', binary=True)",
    )


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
