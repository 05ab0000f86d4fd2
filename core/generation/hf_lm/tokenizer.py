"""Tokenizers for inline-tag text: train a byte-level BPE whose tag tokens are never split, and
``InlineCodec``, which encodes and decodes inline text with any transformers tokenizer.

Spaces around tags are handled deliberately: the text is cut at every special token, each
piece between them is stripped and tokenized as a word that follows a space (``"ĠJan"``, or
``"▁Jan"`` for SentencePiece-style tokenizers), and the special tokens are inserted as their own
ids. So a tag never drags a stray ``Ġ`` token along, and decoding joins pieces and tags with
single spaces: the inline form the rest of synthdeid reads.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Sequence
from typing import Any

from synthdeid import SynthdeidError

EOD = "<EOD>"
_SPACE_MARKS = set("ĠĊĉč▁ \n\t\r")


def special_pattern(special_tokens: Sequence[str]) -> re.Pattern[str]:
    """A regex that splits text at the special tokens (captured)."""
    alts = sorted(set(special_tokens), key=len, reverse=True)
    return re.compile("(" + "|".join(re.escape(s) for s in alts) + ")")


def text_pieces(lines: Iterable[str], special_tokens: Sequence[str]) -> Iterator[str]:
    """The stripped text between special tokens, each with a leading space (BPE training input)."""
    pattern = special_pattern(special_tokens)
    specials = set(special_tokens)
    for line in lines:
        for piece in pattern.split(line):
            piece = piece.strip()
            if piece and piece not in specials:
                yield " " + piece


def train_bpe(lines: Sequence[str], special_tokens: Sequence[str], vocab_size: int, min_frequency: int = 2) -> Any:
    """A byte-level BPE trained on ``lines`` as a ``PreTrainedTokenizerFast``; the special tokens
    come first (ids 0..k-1) and are never split; ``<EOD>`` doubles as end and padding token."""
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers, trainers
    from transformers import PreTrainedTokenizerFast

    specials = list(dict.fromkeys(special_tokens))
    if EOD not in specials:
        raise SynthdeidError("the special tokens must include <EOD>")
    if vocab_size < len(specials) + 256:
        raise SynthdeidError(
            f"vocab_size {vocab_size} is too small: a byte-level BPE needs 256 byte tokens "
            f"plus {len(specials)} special tokens"
        )
    bpe = Tokenizer(models.BPE())
    bpe.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    bpe.decoder = decoders.ByteLevel()
    trainer = trainers.BpeTrainer(
        vocab_size=vocab_size,
        min_frequency=min_frequency,
        special_tokens=specials,
        initial_alphabet=pre_tokenizers.ByteLevel.alphabet(),
        show_progress=False,
    )
    bpe.train_from_iterator(text_pieces(lines, specials), trainer=trainer)
    return PreTrainedTokenizerFast(
        tokenizer_object=bpe, eos_token=EOD, pad_token=EOD, additional_special_tokens=[s for s in specials if s != EOD]
    )


def add_special_tokens(tokenizer: Any, special_tokens: Sequence[str]) -> list[int]:
    """Add the tag tokens to a pretrained tokenizer (never split); returns the ids that are new."""
    old = len(tokenizer)
    have = set(tokenizer.get_vocab())
    missing = [s for s in dict.fromkeys(special_tokens) if s not in have]
    tokenizer.add_special_tokens({"additional_special_tokens": missing}, replace_additional_special_tokens=False)
    return [i for i in tokenizer.convert_tokens_to_ids(list(special_tokens)) if i >= old]


def _needs_space_prefix(tokenizer: Any) -> bool:
    """True for byte-level BPEs where a word after a space is ``Ġword`` but ``word`` alone is not."""
    pieces = tokenizer.tokenize("a")
    return not (pieces and pieces[0][:1] in ("Ġ", "▁"))


class InlineCodec:
    """Inline-tag text <-> token ids for one tokenizer and a set of special tokens."""

    def __init__(self, tokenizer: Any, special_tokens: Sequence[str], start_id: int | None = None) -> None:
        self.tokenizer = tokenizer
        self.special_tokens = list(dict.fromkeys(special_tokens))
        if EOD not in self.special_tokens:
            raise SynthdeidError("the special tokens must include <EOD>")
        ids = tokenizer.convert_tokens_to_ids(self.special_tokens)
        unk = tokenizer.unk_token_id
        for tok, i in zip(self.special_tokens, ids):
            if i is None or (unk is not None and i == unk):
                raise SynthdeidError(f"the tokenizer has no single token for {tok!r}; add the special tokens first")
        self.special_ids = dict(zip(self.special_tokens, ids))
        self.id_to_special = {i: t for t, i in self.special_ids.items()}
        self.eod_id = self.special_ids[EOD]
        self.start_id = self.eod_id if start_id is None else start_id
        self.prefix = " " if _needs_space_prefix(tokenizer) else ""
        self._pattern = special_pattern(self.special_tokens)
        self.start_tag_ids = [i for t, i in self.special_ids.items() if re.fullmatch(r"<\w+START>", t)]
        self.end_tag_ids = [i for t, i in self.special_ids.items() if re.fullmatch(r"<\w+END>", t)]
        own = set(self.special_ids.values())
        self.banned_ids = sorted(i for i in tokenizer.all_special_ids if i not in own)
        """Ids of the tokenizer's own special tokens (bos, pad, unk): never generated."""

    def blank_ids(self) -> list[int]:
        """Ordinary tokens that decode to white space only (``Ġ``, ``Ċ``, ``▁``, ``<0x20>``)."""
        skip = set(self.id_to_special) | set(self.banned_ids)
        strings = self.tokenizer.convert_ids_to_tokens(list(range(len(self.tokenizer))))
        # decode only plausible candidates: short tokens and runs of white-space markers
        candidates = [
            i
            for i, t in enumerate(strings)
            if i not in skip and t is not None and (len(t) <= 8 or set(t) <= _SPACE_MARKS)
        ]
        return [i for i in candidates if not self.tokenizer.decode([i], clean_up_tokenization_spaces=False).strip()]

    def __len__(self) -> int:
        return len(self.tokenizer)

    def vocab(self, width: int) -> list[str]:
        """Token strings for ``width`` logits; the special tokens appear only at their own ids."""
        n = len(self.tokenizer)
        out = [str(t) for t in self.tokenizer.convert_ids_to_tokens(list(range(min(n, width))))]
        for i, tok in enumerate(out):
            if tok in self.special_ids and self.special_ids[tok] != i:
                out[i] = f"{tok}#{i}"
        return out + [f"<unused{i}>" for i in range(n, width)]

    def _parts(self, text: str) -> list[tuple[bool, str]]:
        out = []
        for piece in self._pattern.split(text):
            if piece in self.special_ids:
                out.append((True, piece))
            elif piece.strip():
                out.append((False, self.prefix + piece.strip()))
        return out

    def encode_lines(self, lines: Sequence[str], start: bool = True) -> list[list[int]]:
        """Token ids of many lines at once (one batched tokenizer call); each line begins with
        the start-of-document id when ``start``."""
        parts = [self._parts(line) for line in lines]
        texts = [p for line in parts for special, p in line if not special]
        encoded = iter(self.tokenizer(texts, add_special_tokens=False)["input_ids"] if texts else [])
        out = []
        for line in parts:
            ids = [self.start_id] if start else []
            for special, piece in line:
                ids.extend([self.special_ids[piece]] if special else next(encoded))
            out.append(ids)
        return out

    def stream(self, lines: Sequence[str]) -> list[int]:
        """The lines as one token stream for language-model training: every document starts with
        the start id and ends with ``<EOD>`` (one ``<EOD>`` between documents when they coincide)."""
        out: list[int] = []
        for ids in self.encode_lines(lines, start=False):
            if not ids or ids[-1] != self.eod_id:
                ids.append(self.eod_id)
            if not (out and out[-1] == self.start_id):
                out.append(self.start_id)
            out.extend(ids)
        return out

    def encode(self, text: str, start: bool = True) -> list[int]:
        return self.encode_lines([text], start)[0]

    def decode(self, ids: Sequence[int]) -> str:
        """Inline text: runs of ordinary tokens decoded and stripped, special tokens as
        themselves, all joined by single spaces; the tokenizer's own specials are dropped."""
        words: list[str] = []
        run: list[int] = []

        def flush() -> None:
            if run:
                text = self.tokenizer.decode(run, skip_special_tokens=True, clean_up_tokenization_spaces=False)
                words.extend(text.split())
                run.clear()

        for i in ids:
            i = int(i)
            if i in self.id_to_special:
                flush()
                words.append(self.id_to_special[i])
            else:
                run.append(i)
        flush()
        return " ".join(words)
