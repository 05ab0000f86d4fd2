"""The ``gpt2`` generator's model code: build (from scratch, or from a local pretrained GPT-2 with
the vocabulary adapted), train (packed blocks, gradual unfreezing or DP-SGD) and load."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any, cast

import torch

from synthdeid import SynthdeidError
from synthdeid.api import TrainingData
from synthdeid.toolkit import LM_META_FILE as META_FILE
from synthdeid.toolkit import (
    HFCausalLM,
    InlineCodec,
    LoopSettings,
    from_pretrained,
    note_samples,
    pack_blocks,
    split_timing,
    tokenizer_from,
    torch_device,
    train_bpe,
    train_dp,
    train_stages,
    write_json,
)
from synthdeid.toolkit import LMStage as Stage
from synthdeid.toolkit import check_lm_data as check_data
from synthdeid.toolkit import lm_config_dict as config_dict
from synthdeid.toolkit import lm_fingerprint as fingerprint
from synthdeid.toolkit import read_lm_meta as read_meta
from synthdeid.toolkit import set_lm_threads as set_threads

from .config import NAME, GPT2Settings
from .unfreezing import unfreezing_stages
from .vocab_transfer import transfer_embeddings

DEFAULT_VOCAB = 8000
PRETRAINED_FIX = (
    "save the pretrained GPT-2 with save_pretrained() (safetensors weights); convert pickled weights "
    "(pytorch_model.bin) where you trust them: GPT2LMHeadModel.from_pretrained(dir).save_pretrained(dir)"
)
RETRAIN = "retrain the generator (dvc repro its train_lm stage), or copy the folder again"


class GPT2Generator:
    name = NAME

    def __init__(self, config: GPT2Settings) -> None:
        self.config = config
        if config.pretrained is not None and not (Path(config.pretrained) / "config.json").is_file():
            raise SynthdeidError(
                f"generator 'gpt2': pretrained {config.pretrained!r} is not a local model folder "
                "(no config.json); save one with save_pretrained() or remove the setting"
            )

    def resolved(
        self, data: TrainingData, pretrained_vocab: int | None = None, max_positions: int | None = None
    ) -> GPT2Settings:
        """The settings with every ``None`` default filled in (written to ``generator.json``)."""
        c = self.config
        vocab = c.vocab_size or pretrained_vocab or DEFAULT_VOCAB
        # model_copy, not the validated replace: a pretrained model's own sizes (a vocabulary under
        # the 300 a BPE needs, ...) are facts to record, not settings to bound
        return c.model_copy(
            update={
                "vocab_size": vocab,
                "seed": data.seed if c.seed is None else c.seed,
                "block_size": c.block_size or max_positions or c.max_positions,
            }
        )

    def build(self, data: TrainingData) -> tuple[Any, Any, GPT2Settings, dict[str, int]]:
        """The untrained model, its BPE tokenizer, the resolved settings and the vocabulary-transfer
        counts (deterministic for the same data and settings)."""
        from transformers import AutoTokenizer, GPT2Config, GPT2LMHeadModel

        c = self.config
        if c.pretrained is None:
            cfg = self.resolved(data)
            tok = train_bpe(data.train, data.special_tokens, cast(int, cfg.vocab_size), cfg.min_count)
            torch.manual_seed(cfg.seed)
            eod = tok.convert_tokens_to_ids("<EOD>")
            model = GPT2LMHeadModel(
                GPT2Config(
                    vocab_size=len(tok),
                    n_positions=c.max_positions,
                    n_embd=c.embedding_size,
                    n_layer=c.layers,
                    n_head=c.heads,
                    resid_pdrop=c.dropout,
                    embd_pdrop=c.dropout,
                    attn_pdrop=c.dropout,
                    bos_token_id=eod,
                    eos_token_id=eod,
                    pad_token_id=eod,
                )
            )
            return model, tok, cfg, {}
        old_tok = tokenizer_from(AutoTokenizer.from_pretrained, c.pretrained, PRETRAINED_FIX)
        model = from_pretrained(GPT2LMHeadModel.from_pretrained, c.pretrained, PRETRAINED_FIX)
        m = model.config
        cfg = self.resolved(data, len(old_tok), m.n_positions).model_copy(
            update={"layers": m.n_layer, "embedding_size": m.n_embd, "heads": m.n_head, "max_positions": m.n_positions}
        )
        if cfg.block_size > m.n_positions:
            raise SynthdeidError(
                f"generator 'gpt2': block_size {cfg.block_size} exceeds the pretrained model's "
                f"{m.n_positions} positions"
            )
        tok = train_bpe(data.train, data.special_tokens, cast(int, cfg.vocab_size), cfg.min_count)
        aliases = {"<EOD>": old_tok.eos_token} if old_tok.eos_token else {}
        info = transfer_embeddings(model, old_tok, tok, aliases)
        eod = tok.convert_tokens_to_ids("<EOD>")
        model.config.bos_token_id = model.config.eos_token_id = model.config.pad_token_id = eod
        return model, tok, cfg, info

    def stages(self, model: Any, cfg: GPT2Settings) -> list[Stage]:
        """One stage over all weights, or the gradual-unfreezing stages."""
        if cfg.gradual_unfreezing:
            return unfreezing_stages(model, cfg.unfreeze_epochs, cfg.unfreeze_lrs, cfg.lr_decay)
        return [Stage(cfg.max_epochs, ((tuple(n for n, _ in model.named_parameters()), cfg.learning_rate),))]

    def train(self, data: TrainingData, out_dir: Path) -> dict[str, Any]:
        """Train (resuming from ``out_dir/checkpoint.pt``); returns val loss, perplexity, tokens/s."""
        check_data(data, NAME)
        out_dir = Path(out_dir)
        set_threads(self.config.threads)
        model, tok, cfg, info = self.build(data)
        model.to(torch_device(cfg.device))  # built on the CPU (seeded), then moved: the same initial weights
        codec = InlineCodec(tok, data.special_tokens)
        train_blocks = pack_blocks(codec.stream(data.train), cast(int, cfg.block_size))  # resolved: not None
        cfg = budget_epochs(cfg, sum(len(b) for b in train_blocks))
        meta = {
            "generator": NAME,
            "config": config_dict(cfg),
            "special_tokens": list(data.special_tokens),
            "vocab_transfer": info,
        }
        write_json(meta, out_dir / META_FILE)
        dev_blocks = pack_blocks(codec.stream(data.dev), cast(int, cfg.block_size)) if data.dev else []
        loop = LoopSettings(
            batch_size=cfg.batch_size,
            weight_decay=cfg.weight_decay,
            schedule=cfg.schedule,
            warmup=cfg.warmup,
            grad_clip=cfg.grad_clip,
            seed=cast(int, cfg.seed),
            precision=cfg.precision,
        )
        if cfg.dp is not None:  # one note per sample instead of packed blocks (see hf_lm.dp_loop)
            notes, cut = note_samples(
                [codec.stream([line]) for line in data.train], min(cfg.dp.max_tokens, cast(int, cfg.block_size))
            )
            metrics = train_dp(
                model,
                notes,
                dev_blocks,
                cfg.max_epochs,
                cfg.learning_rate,
                loop,
                cfg.dp,
                out_dir,
                fingerprint(cfg, data, cast(int, cfg.seed)),
                cut,
            )
        else:
            metrics = train_stages(
                model,
                train_blocks,
                dev_blocks,
                self.stages(model, cfg),
                loop,
                out_dir,
                fingerprint(cfg, data, cast(int, cfg.seed)),
            )
        model.save_pretrained(out_dir / "model")
        tok.save_pretrained(out_dir / "model")
        metrics = {"generator": NAME, "vocab_size": len(tok), **info, **metrics}
        write_json(split_timing(metrics)[0], out_dir / "metrics.json")  # no wall-clock: byte-stable
        return metrics

    def load(self, out_dir: Path) -> HFCausalLM:
        """The trained model as an ``AutoregressiveLM`` (eval mode)."""
        from transformers import GPT2LMHeadModel, PreTrainedTokenizerFast

        out_dir = Path(out_dir)
        meta = read_meta(out_dir, NAME)
        set_threads(self.config.threads)
        model = from_pretrained(GPT2LMHeadModel.from_pretrained, out_dir / "model", RETRAIN)
        model.to(torch_device(self.config.device))
        tok = tokenizer_from(PreTrainedTokenizerFast.from_pretrained, out_dir / "model", RETRAIN)
        return HFCausalLM(model, InlineCodec(tok, meta["special_tokens"]))


def budget_epochs(cfg: GPT2Settings, epoch_tokens: int) -> GPT2Settings:
    """``cfg`` with the epochs its ``max_train_tokens`` budget needs over ``epoch_tokens`` tokens an
    epoch (rounded up, at least 1, at most ``max_epochs``); unchanged without a budget, with gradual
    unfreezing or DP."""
    if not cfg.max_train_tokens or cfg.gradual_unfreezing or cfg.dp is not None or epoch_tokens < 1:
        return cfg
    epochs = max(1, math.ceil(cfg.max_train_tokens / epoch_tokens))
    return cfg.replace(max_epochs=min(cfg.max_epochs, epochs))
