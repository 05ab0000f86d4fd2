"""The ``causal_lm`` generator's settings (params.yaml: ``train.causal_lm``); LoRA defaults from
Vakili et al. 2025, Table 8 (r=8, alpha=32, dropout 0.05, lr 1e-4, weight decay 0.1, 6 epochs)."""

from __future__ import annotations

import importlib.util
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pydantic import model_validator

from synthdeid import SynthdeidError
from synthdeid.toolkit import DEVICE_HELP, Settings, setting, torch_device, valid_device

if TYPE_CHECKING:
    import torch

NAME = "causal_lm"
WHAT = f"generator {NAME!r}"

NO_MODEL = (
    "generator 'causal_lm' needs a local model directory: set `model: /path/to/model` (a folder with "
    "config.json, the weights and the tokenizer files). This workplace has no model hub; on a machine "
    "with network access save one, e.g. `huggingface-cli download AI-Sweden-Models/gpt-sw3-126m "
    "--local-dir models/gpt-sw3-126m` or `AutoModelForCausalLM.from_pretrained(id).save_pretrained(dir)` "
    "plus `AutoTokenizer.from_pretrained(id).save_pretrained(dir)`, and copy the folder here. "
    "Without a pretrained model use the gpt2 or lstm generator."
)
MODEL_FIX = (
    "save the model and its tokenizer with save_pretrained() (safetensors weights); convert pickled "
    "weights (pytorch_model.bin) where you trust them: AutoModelForCausalLM.from_pretrained(dir)"
    ".save_pretrained(dir)"
)
NO_DP = (
    f"generator {NAME!r}: dp is not supported. DP-SGD through peft's LoRA layers needs per-sample "
    "gradients of the adapters only, and Opacus with PEFT LoRA has been reported to corrupt updates "
    "silently (hooks on wrapped base layers, frozen weights receiving noise); no tested path exists "
    "here yet. Train the `gpt2` or `lstm` generator with dp instead, or remove dp"
)
RETRAIN = "retrain the generator (dvc repro its train_lm stage), or copy the folder again"
DTYPE_NAMES = ("float32", "bfloat16", "float16")
"""The ``dtype`` settings besides ``auto``: names of torch dtypes."""


class CausalLMSettings(Settings):
    """Renamed settings (the old names still work for one release, with a ``DeprecationWarning``):
    ``epochs`` is now ``max_epochs`` (here every epoch runs; other generators may stop earlier), ``lr``
    is ``learning_rate``."""

    model: str | None = setting(None, description="local folder of a transformers causal LM to fine-tune")
    """Local folder of a transformers causal LM (GPT-SW3, FLOR, Llama-style, GPT-2, ...)."""
    lora_r: int = setting(8, ge=1, description="rank of the LoRA adapters")
    lora_alpha: int = setting(32, ge=1, description="scaling of the LoRA adapters")
    lora_dropout: float = setting(0.05, ge=0, lt=1, description="dropout of the LoRA adapters")
    target_modules: tuple[str, ...] | str | None = setting(
        None, description="modules that get adapters (null: peft's default, all-linear: every linear layer)"
    )
    """None: peft's default for the architecture, else every linear layer (``all-linear``)."""
    train_new_tokens: bool = setting(True, description="train the embedding rows of the added tag tokens")
    """Train the embedding (and untied output) rows of the added tag tokens."""
    load_in_4bit: bool = setting(False, description="QLoRA: needs bitsandbytes and a CUDA GPU")
    dtype: str = setting("float32", choices=(*DTYPE_NAMES, "auto"), description="the weights' dtype")
    device: str = setting("auto", description="auto: cuda when available, else cpu")
    max_epochs: int = setting(6, ge=1, renamed_from="epochs", description="epochs to train")
    batch_size: int = setting(16, ge=1, description="blocks per optimizer step")
    block_size: int = setting(512, ge=2, description="training sequence length in tokens")
    learning_rate: float = setting(1e-4, gt=0, renamed_from="lr", description="peak learning rate")
    weight_decay: float = setting(0.1, ge=0, description="AdamW's weight decay")
    schedule: str = setting("cosine", choices=("one_cycle", "cosine"), description="the learning-rate schedule")
    warmup: float = setting(
        0.03, ge=0, lt=1, description="share of the steps over which the learning rate rises from 0"
    )
    grad_clip: float = setting(1.0, gt=0, description="gradient norm clipping")
    merge: bool = setting(True, description="merge the adapter into the weights when loading (faster generation)")
    seed: int | None = setting(None, ge=0, description="null: the seed of the training data (params)")
    """None: the seed of the training data (params)."""
    threads: int = setting(2, ge=1, description="torch threads")
    backend: str = setting(
        "transformers", choices=("transformers", "vllm"), description="generation backend: transformers or vllm (CUDA)"
    )
    """Generation backend: transformers (the shared decoding loop, any machine) or vllm (vLLM on CUDA
    GPUs; see ``synthdeid.plugins.causal_lm.vllm_backend`` for what it supports)."""
    tensor_parallel_size: int = setting(1, ge=1, description="vLLM: GPUs to split the model over")

    @model_validator(mode="before")
    @classmethod
    def _no_dp(cls, data: Any) -> Any:
        """A ``dp`` setting (as the other generators take) is refused with the reason."""
        if isinstance(data, Mapping) and data.get("dp"):
            raise SynthdeidError(NO_DP)
        return data

    @model_validator(mode="after")
    def _usable(self) -> CausalLMSettings:
        def need(ok: bool, msg: str) -> None:
            if not ok:
                raise SynthdeidError(f"{WHAT}: {msg}")

        if not self.model:
            raise SynthdeidError(NO_MODEL)
        path = Path(self.model)
        need(
            path.is_dir() and (path / "config.json").is_file(),
            f"model {self.model!r} is not a local model folder with config.json. " + NO_MODEL.split(": ", 1)[1],
        )
        need(valid_device(self.device), f"device must be {DEVICE_HELP}")
        if self.load_in_4bit:
            if importlib.util.find_spec("bitsandbytes") is None:
                raise SynthdeidError(
                    "generator 'causal_lm': load_in_4bit (QLoRA) needs the bitsandbytes package "
                    "(pip install bitsandbytes) and a CUDA GPU; set load_in_4bit: false to train "
                    "LoRA on full-precision weights"
                )
            import torch

            if not torch.cuda.is_available():
                raise SynthdeidError(
                    "generator 'causal_lm': load_in_4bit (QLoRA) needs a CUDA GPU and none is "
                    "available; set load_in_4bit: false to train LoRA on full-precision weights"
                )
        return self

    def torch_device(self) -> torch.device:
        """The ``device`` setting's torch device (``synthdeid.generation.distributed.torch_device``)."""
        return torch_device(self.device)
