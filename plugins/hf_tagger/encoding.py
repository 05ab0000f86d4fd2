"""Subword encoding for the transformers tagger: a WordPiece tokenizer trained offline on the
training notes, local tokenizers, and windows of words encoded with the label on each word's
first subword (-100 elsewhere), split further when they exceed the model's positions."""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from synthdeid import SynthdeidError
from synthdeid.toolkit import Word, tokenizer_from

IGNORE = -100
SPECIALS = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"]
# encoders whose position ids start after the padding index (RoBERTa style)
_OFFSET_POSITIONS = {
    "roberta",
    "xlm-roberta",
    "xlm-roberta-xl",
    "camembert",
    "longformer",
    "data2vec-text",
    "mpnet",
    "luke",
    "xmod",
    "roberta-prelayernorm",
}


def train_wordpiece(texts: Iterable[str], vocab_size: int, model_max_length: int) -> Any:
    """A cased BERT-style WordPiece tokenizer (``tokenizers``) for ``texts``. Its vocabulary is
    built deterministically: the special tokens, every character (alone and as ``##`` suffix),
    then the most frequent words (ties alphabetical) up to ``vocab_size``; rarer words are
    split into the longest known pieces. (tokenizers' ``WordPieceTrainer`` breaks ties
    differently from run to run, so the same data gave different vocabularies.)"""
    from tokenizers import (
        Tokenizer,
        decoders,
        models,
        normalizers,
        pre_tokenizers,
        processors,
    )
    from transformers import PreTrainedTokenizerFast

    normalizer = normalizers.BertNormalizer(clean_text=True, lowercase=False, strip_accents=False)
    pre = pre_tokenizers.BertPreTokenizer()
    counts: Counter[str] = Counter()
    for text in texts:
        counts.update(w for w, _ in pre.pre_tokenize_str(normalizer.normalize_str(text)))
    chars = sorted({c for w in counts for c in w})
    vocab = list(dict.fromkeys([*SPECIALS, *chars, *(f"##{c}" for c in chars)]))
    known = set(vocab)
    for word, _ in sorted(counts.items(), key=lambda x: (-x[1], x[0])):
        if len(vocab) >= vocab_size:
            break
        if word not in known:
            vocab.append(word)
            known.add(word)
    tok = Tokenizer(
        models.WordPiece({t: i for i, t in enumerate(vocab)}, unk_token="[UNK]", max_input_chars_per_word=100)
    )
    tok.normalizer = normalizer
    tok.pre_tokenizer = pre
    tok.decoder = decoders.WordPiece()
    cls_id, sep_id = tok.token_to_id("[CLS]"), tok.token_to_id("[SEP]")
    tok.post_processor = processors.TemplateProcessing(
        single="[CLS] $A [SEP]",
        pair="[CLS] $A [SEP] $B:1 [SEP]:1",
        special_tokens=[("[CLS]", cls_id), ("[SEP]", sep_id)],
    )
    return PreTrainedTokenizerFast(
        tokenizer_object=tok,
        unk_token="[UNK]",
        pad_token="[PAD]",
        cls_token="[CLS]",
        sep_token="[SEP]",
        mask_token="[MASK]",
        model_max_length=model_max_length,
    )


def load_tokenizer(path: Path, fix: str = "save the tokenizer with save_pretrained() into the folder") -> Any:
    """A fast tokenizer from a local directory that accepts pre-split words (byte-level BPE
    tokenizers are reloaded with ``add_prefix_space=True``); no code from the folder runs."""
    from transformers import AutoTokenizer

    tok = tokenizer_from(AutoTokenizer.from_pretrained, path, fix)
    if not tok.is_fast:
        raise SynthdeidError(
            f"the tokenizer in {path} is not a fast tokenizer; word alignment needs one (save it with a tokenizer.json)"
        )
    try:
        tok(["a", "b"], is_split_into_words=True)
    except (ValueError, AssertionError):
        tok = tokenizer_from(AutoTokenizer.from_pretrained, path, fix, add_prefix_space=True)
    if tok.pad_token is None:
        tok.pad_token = tok.eos_token or tok.unk_token
    return tok


def max_length(model_config: Any, tokenizer: Any) -> int:
    """Subword positions per window, special tokens included."""
    n = int(getattr(model_config, "max_position_embeddings", 512) or 512)
    if model_config.model_type in _OFFSET_POSITIONS:
        n -= int(model_config.pad_token_id or 0) + 1
    if 0 < tokenizer.model_max_length < 1_000_000:
        n = min(n, int(tokenizer.model_max_length))
    return max(n, 3)


@dataclass
class Piece:
    """One encoded window: ``first[i]`` is the position of word ``i``'s first subword (-1 when
    the tokenizer gave the word none, e.g. a control character)."""

    doc: int
    words: list[Word]
    input_ids: list[int]
    first: list[int]
    labels: list[int] | None = None


def line_marker(tokenizer: Any) -> str | None:
    """The pseudo-word put between two lines of one window: the tokenizer's separator token
    (without it, a window's lines would read as one run-on sentence)."""
    return tokenizer.sep_token or tokenizer.eos_token


def encode(
    tokenizer: Any,
    text: str,
    windows: Sequence[list[Word]],
    doc: int,
    limit: int,
    line_starts: Collection[int] = (),
    marker: str | None = None,
) -> list[Piece]:
    """Encode the word windows of one document, with ``marker`` before each word that starts a
    line (offsets in ``line_starts``) except a window's first; a window whose subwords exceed
    ``limit`` is halved until it fits (a single over-long word keeps its first subwords)."""
    pieces: list[Piece] = []
    todo = [w for w in windows if w]
    while todo:
        batch, todo = todo, []
        items = [_items(text, w, line_starts, marker) for w in batch]
        enc = tokenizer(
            [words for words, _ in items], is_split_into_words=True, add_special_tokens=True, truncation=False
        )
        for i, win in enumerate(batch):
            ids = enc["input_ids"][i]
            if len(ids) > limit and len(win) > 1:
                half = len(win) // 2
                todo += [win[:half], win[half:]]
                continue
            if len(ids) > limit:  # one word with more subwords than positions
                one = tokenizer([items[i][0]], is_split_into_words=True, truncation=True, max_length=limit)
                pieces.append(_piece(doc, win, one["input_ids"][0], one.word_ids(0), items[i][1]))
            else:
                pieces.append(_piece(doc, win, ids, enc.word_ids(i), items[i][1]))
    pieces.sort(key=lambda p: p.words[0])
    return pieces


def _items(text: str, win: list[Word], line_starts: Collection[int], marker: str | None) -> tuple[list[str], list[int]]:
    """The tokenizer's pre-split input for a window, and the input index of each real word."""
    items: list[str] = []
    real: list[int] = []
    for k, (a, b) in enumerate(win):
        if marker and k and a in line_starts:
            items.append(marker)
        real.append(len(items))
        items.append(text[a:b])
    return items, real


def _piece(doc: int, win: list[Word], ids: list[int], word_ids: list[int | None], real: list[int]) -> Piece:
    position: dict[int, int] = {}
    for pos, w in enumerate(word_ids):
        if w is not None and w not in position:
            position[w] = pos
    return Piece(doc, win, list(ids), [position.get(r, -1) for r in real])


def add_labels(piece: Piece, tags: Sequence[str], label2id: dict[str, int]) -> Piece:
    """Set the training labels: each word's tag on its first subword, -100 elsewhere."""
    labels = [IGNORE] * len(piece.input_ids)
    for pos, tag in zip(piece.first, tags, strict=True):
        if pos >= 0:
            labels[pos] = label2id[tag]
    piece.labels = labels
    return piece


def batches(
    pieces: Sequence[Piece], size: int, pad_id: int, order: Sequence[int] | None = None, device: Any = None
) -> Iterable[tuple[list[Piece], dict[str, Any]]]:
    """Padded tensors for ``size`` pieces at a time, in ``order`` (default: as given), on
    ``device`` (default: the CPU)."""
    import torch

    order = list(range(len(pieces))) if order is None else list(order)
    for i in range(0, len(order), size):
        chunk = [pieces[j] for j in order[i : i + size]]
        width = max(len(p.input_ids) for p in chunk)
        ids = torch.full((len(chunk), width), pad_id, dtype=torch.long)
        mask = torch.zeros((len(chunk), width), dtype=torch.long)
        labels = torch.full((len(chunk), width), IGNORE, dtype=torch.long)
        for r, p in enumerate(chunk):
            n = len(p.input_ids)
            ids[r, :n] = torch.tensor(p.input_ids)
            mask[r, :n] = 1
            if p.labels is not None:
                labels[r, :n] = torch.tensor(p.labels)
        tensors = {"input_ids": ids, "attention_mask": mask}
        if all(p.labels is not None for p in chunk):
            tensors["labels"] = labels
        yield chunk, {k: v.to(device) for k, v in tensors.items()} if device is not None else tensors
