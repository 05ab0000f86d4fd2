"""The masked LM and its tokenizer: built from a config and trained from scratch (a small RoBERTa
with a byte-level BPE vocabulary learnt on the notes) or read from a local directory; plus the
token-level helpers generation and training share."""

from __future__ import annotations

import unicodedata
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import torch

from synthdeid import Document, InputError
from synthdeid.toolkit import from_pretrained, tokenizer_from

from .config import MLMFillConfig
from .notes import Piece, clean_fill

SPECIALS = ["<s>", "<pad>", "</s>", "<unk>", "<mask>"]
# position-embedding rows a model family reserves (RoBERTa counts from padding_idx + 1)
_POSITION_OFFSET = {"roberta": 2, "xlm-roberta": 2, "camembert": 2, "longformer": 2}
FIX = (
    "save the masked LM and its tokenizer with save_pretrained() (safetensors weights; a trained mlm_fill "
    "folder: retrain it); convert pickled weights (pytorch_model.bin) where you trust them: "
    "AutoModelForMaskedLM.from_pretrained(dir).save_pretrained(dir)"
)


def build_tokenizer(texts: Sequence[str], cfg: MLMFillConfig) -> Any:
    """A byte-level BPE tokenizer trained on ``texts`` (lossless: no unknown characters).

    Not WordPiece: the WordPiece trainer of tokenizers 0.22 gives a different vocabulary from run
    to run (hash-map order decides ties, huggingface/tokenizers#1794); byte-level BPE does not."""
    from tokenizers import ByteLevelBPETokenizer
    from transformers import PreTrainedTokenizerFast

    bpe = ByteLevelBPETokenizer(add_prefix_space=False, trim_offsets=True)
    bpe.train_from_iterator(
        list(texts),
        vocab_size=cfg.vocab_size,
        min_frequency=cfg.min_count,
        special_tokens=SPECIALS,
        show_progress=False,
    )
    # wrap the inner Tokenizer (passing the wrapper raises a TypeError in transformers 4.57)
    return PreTrainedTokenizerFast(
        tokenizer_object=bpe._tokenizer,
        bos_token="<s>",
        eos_token="</s>",
        cls_token="<s>",
        sep_token="</s>",
        unk_token="<unk>",
        pad_token="<pad>",
        mask_token="<mask>",
        model_max_length=cfg.block_size,
    )


def build_model(cfg: MLMFillConfig, tokenizer: Any) -> Any:
    """A randomly initialised RoBERTa masked LM sized by ``cfg``, seeded."""
    from transformers import RobertaConfig, RobertaForMaskedLM

    torch.manual_seed(cfg.seed)
    config = RobertaConfig(
        vocab_size=len(tokenizer),
        hidden_size=cfg.hidden_size,
        num_hidden_layers=cfg.layers,
        num_attention_heads=cfg.heads,
        intermediate_size=cfg.intermediate_size,
        hidden_dropout_prob=cfg.dropout,
        attention_probs_dropout_prob=cfg.dropout,
        max_position_embeddings=cfg.block_size + 2,
        type_vocab_size=1,
        pad_token_id=tokenizer.pad_token_id,
        bos_token_id=tokenizer.bos_token_id,
        eos_token_id=tokenizer.eos_token_id,
    )
    return RobertaForMaskedLM(config)


def local_dir(path: str | Path, what: str) -> Path:
    """``path`` as an existing local directory; hub ids are refused (offline by construction)."""
    p = Path(path)
    if not p.is_dir():
        raise InputError(
            f"{what} {str(path)!r} is not a local directory",
            path=p,
            fix="point generators.mlm_fill.pretrained at a folder holding a transformers "
            "masked LM (config.json, weights, tokenizer files); hub ids are not downloaded",
        )
    return p


def load_tokenizer(path: str | Path) -> Any:
    from transformers import AutoTokenizer

    tok = tokenizer_from(AutoTokenizer.from_pretrained, local_dir(path, "tokenizer"), FIX)
    if not tok.is_fast:
        raise InputError(
            "the tokenizer has no fast (Rust) version",
            path=path,
            fix="save the tokenizer with tokenizers/transformers so tokenizer.json exists",
        )
    if tok.mask_token_id is None:
        raise InputError("the tokenizer has no mask token", path=path, fix="use a masked LM's tokenizer")
    return tok


def load_model(path: str | Path) -> Any:
    from transformers import AutoModelForMaskedLM

    return from_pretrained(AutoModelForMaskedLM.from_pretrained, local_dir(path, "model"), FIX)


def window_length(model: Any, cfg: MLMFillConfig) -> int:
    """Tokens per window ([CLS]/[SEP] included): ``cfg.block_size`` capped by the model's positions."""
    conf = model.config
    cap = getattr(conf, "max_position_embeddings", cfg.block_size) - _POSITION_OFFSET.get(conf.model_type, 0)
    return max(8, min(cfg.block_size, cap))


class Vocab:
    """What filling needs from a tokenizer: special ids, piece encoding, surfaces of ids."""

    def __init__(self, tokenizer: Any, logit_size: int | None = None) -> None:
        self.tok = tokenizer
        self.mask_id: int = tokenizer.mask_token_id
        self.pad_id: int = tokenizer.pad_token_id if tokenizer.pad_token_id is not None else 0
        cls, sep = tokenizer.cls_token_id, tokenizer.sep_token_id
        self.cls_id: int | None = cls if cls is not None else tokenizer.bos_token_id
        self.sep_id: int | None = sep if sep is not None else tokenizer.eos_token_id
        self.special = sorted(set(tokenizer.all_special_ids))
        decoder = tokenizer.backend_tokenizer.decoder
        self.prefix: str = getattr(decoder, "prefix", "") or ""  # WordPiece "##"
        self.size = len(tokenizer)
        self.logit_size = max(self.size, logit_size or 0)
        """Columns of the model's logits (some models pad their vocabulary beyond the tokenizer's)."""
        self._banned: torch.Tensor | None = None

    def encode_pieces(self, doc: Document, pieces: Sequence[Piece]) -> list[list[int]]:
        """Token ids of each piece, tokenized on its own (with a leading space when the piece starts
        a word, so byte-level BPE sees the same tokens as in running text)."""
        texts = [
            (" " if p.start > 0 and doc.text[p.start - 1].isspace() else "") + doc.text[p.start : p.end] for p in pieces
        ]
        if not texts:
            return []
        return self.tok(texts, add_special_tokens=False)["input_ids"]

    def surface(self, ids: Sequence[int]) -> str:
        """The text of refilled ids, on one line, without a word-continuation prefix."""
        text = self.tok.decode(list(ids), skip_special_tokens=False, clean_up_tokenization_spaces=False).strip()
        if self.prefix and text.startswith(self.prefix):
            text = text[len(self.prefix) :]
        return clean_fill(text)

    def fill_surface(self, ids: Sequence[int]) -> str:
        """``surface(ids)``, or when bytes combine into nothing printable, the tokens' own surfaces
        joined (each allowed token has a non-empty one, so a refill is never empty)."""
        return self.surface(ids) or "".join(self.surface([i]) for i in ids)

    @property
    def banned(self) -> torch.Tensor:
        """Ids a refill may not use: special tokens, tokens with an empty surface or a control
        character, byte-level tokens holding part of a character (U+FFFD in their surface) and
        the model's padding ids beyond the tokenizer's vocabulary."""
        if self._banned is None:
            ban = torch.zeros(self.logit_size, dtype=torch.bool)
            ban[self.size :] = True
            ban[self.special] = True
            for i in range(self.size):
                if not ban[i] and _unusable(self.surface([i])):
                    ban[i] = True
            self._banned = ban
        return self._banned


def _unusable(surface: str) -> bool:
    return not surface or any(c == "\ufffd" or unicodedata.category(c) == "Cc" for c in surface)


LogitsAt = Callable[[torch.Tensor, torch.Tensor], torch.Tensor]


def logit_fn(model: Any, input_ids: torch.Tensor, attention: torch.Tensor) -> LogitsAt:
    """Run the encoder once; the returned function gives float32 logits ``[n, vocab]`` at positions
    ``(rows, cols)``, applying the vocabulary head only there (BERT ``cls``, RoBERTa ``lm_head``;
    other masked LMs get the full forward pass)."""
    head = getattr(model, "cls", None) if hasattr(model, "bert") else getattr(model, "lm_head", None)
    if head is not None:
        hidden = model.base_model(input_ids=input_ids, attention_mask=attention)[0]
        return lambda rows, cols: head(hidden[rows, cols]).float()
    logits = model(input_ids=input_ids, attention_mask=attention).logits
    return lambda rows, cols: logits[rows, cols].float()
