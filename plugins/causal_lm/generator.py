"""The ``causal_lm`` generator's model code: add the tag tokens, wrap the base model with LoRA,
fine-tune, and load the adapter back (merged, 4-bit, or served by vLLM)."""

from __future__ import annotations

import atexit
import shutil
import tempfile
from pathlib import Path
from typing import Any, cast

from synthdeid.api import TrainingData
from synthdeid.toolkit import LM_META_FILE as META_FILE
from synthdeid.toolkit import (
    HFCausalLM,
    InlineCodec,
    LoopSettings,
    adapter_folder,
    add_special_tokens,
    pack_blocks,
    split_timing,
    tokenizer_from,
    train_stages,
    write_json,
)
from synthdeid.toolkit import LMStage as Stage
from synthdeid.toolkit import check_lm_data as check_data
from synthdeid.toolkit import lm_config_dict as config_dict
from synthdeid.toolkit import lm_fingerprint as fingerprint
from synthdeid.toolkit import read_lm_meta as read_meta
from synthdeid.toolkit import set_lm_threads as set_threads

from .config import MODEL_FIX, NAME, RETRAIN, CausalLMSettings
from .lora import add_token_rows, load_base, peft_model
from .vllm_backend import VLLMCausalLM, import_vllm


class CausalLMGenerator:
    name = NAME

    def __init__(self, config: CausalLMSettings) -> None:
        self.config = config

    def prepare(self, data: TrainingData) -> tuple[Any, Any, CausalLMSettings, dict[str, Any]]:
        """The LoRA-wrapped model, the extended tokenizer, the resolved config and the token facts
        (deterministic: the same data and settings give the same initial model)."""
        from transformers import AutoTokenizer

        cfg = self.config
        cfg = cfg.replace(seed=data.seed if cfg.seed is None else cfg.seed)
        tok = tokenizer_from(AutoTokenizer.from_pretrained, str(cfg.model), MODEL_FIX)
        n_old = len(tok)
        new_ids = add_special_tokens(tok, data.special_tokens)
        base = load_base(cfg)
        add_token_rows(base, new_ids, n_old, len(tok))
        model = peft_model(base, cfg, new_ids, cast(int, cfg.seed))  # resolved above: not None
        tokens = {
            "n_old_tokens": n_old,
            "new_token_ids": new_ids,
            "special_tokens": list(data.special_tokens),
            "start_id": tok.bos_token_id,
        }
        return model, tok, cfg, tokens

    def train(self, data: TrainingData, out_dir: Path) -> dict[str, Any]:
        """Fine-tune with LoRA (resuming from ``out_dir/checkpoint.pt``); returns val loss,
        perplexity and tokens/s."""
        check_data(data, NAME)
        out_dir = Path(out_dir)
        set_threads(self.config.threads)
        model, tok, cfg, tokens = self.prepare(data)
        write_json({"generator": NAME, "config": config_dict(cfg), **tokens}, out_dir / META_FILE)
        codec = InlineCodec(tok, data.special_tokens, tokens["start_id"])
        train_blocks = pack_blocks(codec.stream(data.train), cfg.block_size)
        dev_blocks = pack_blocks(codec.stream(data.dev), cfg.block_size) if data.dev else []
        names = tuple(n for n, p in model.named_parameters() if p.requires_grad)
        loop = LoopSettings(
            batch_size=cfg.batch_size,
            weight_decay=cfg.weight_decay,
            schedule=cfg.schedule,
            warmup=cfg.warmup,
            grad_clip=cfg.grad_clip,
            seed=cast(int, cfg.seed),
        )
        metrics = train_stages(
            model,
            train_blocks,
            dev_blocks,
            [Stage(cfg.max_epochs, ((names, cfg.learning_rate),))],
            loop,
            out_dir,
            fingerprint(cfg, data, cast(int, cfg.seed)),
        )
        save_kwargs = {"save_embedding_layers": False} if cfg.train_new_tokens and tokens["new_token_ids"] else {}
        model.save_pretrained(out_dir / "adapter", **save_kwargs)
        tok.save_pretrained(out_dir / "adapter")
        metrics = {"generator": NAME, "vocab_size": len(tok), "new_tokens": len(tokens["new_token_ids"]), **metrics}
        write_json(split_timing(metrics)[0], out_dir / "metrics.json")  # no wall-clock: byte-stable
        return metrics

    def load(self, out_dir: Path) -> HFCausalLM | VLLMCausalLM:
        """The base model with the trained adapter (merged unless ``merge: false`` or 4-bit) as an
        ``AutoregressiveLM`` in eval mode; with ``backend: vllm`` the merged model saved to a
        temporary folder and served by vLLM."""
        from peft import PeftModel
        from transformers import AutoTokenizer

        out_dir = Path(out_dir)
        meta = read_meta(out_dir, NAME)
        cfg = self.config  # the load-time settings (model folder, dtype, device, merge, threads)
        set_threads(cfg.threads)
        tok = tokenizer_from(AutoTokenizer.from_pretrained, out_dir / "adapter", RETRAIN)
        adapter_folder(out_dir / "adapter", RETRAIN)  # peft would unpickle an adapter_model.bin
        base = load_base(cfg)
        add_token_rows(base, meta["new_token_ids"], meta["n_old_tokens"], len(tok))
        model = PeftModel.from_pretrained(base, out_dir / "adapter")
        codec = InlineCodec(tok, meta["special_tokens"], meta["start_id"])
        if cfg.backend == "vllm":
            import_vllm()  # fail before merging a large model
            folder = tempfile.mkdtemp(prefix="synthdeid-vllm-")
            atexit.register(shutil.rmtree, folder, True)
            model.merge_and_unload().save_pretrained(folder)
            tok.save_pretrained(folder)
            return VLLMCausalLM(folder, codec, cfg.tensor_parallel_size, cfg.dtype)
        if cfg.merge and not cfg.load_in_4bit:
            model = model.merge_and_unload()
        return HFCausalLM(model, codec)
