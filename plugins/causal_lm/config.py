"""The ``causal_lm`` generator's settings (params.yaml: ``train.causal_lm``); LoRA defaults from
Vakili et al. 2025, Table 8 (r=8, alpha=32, dropout 0.05, lr 1e-4, weight decay 0.1, 6 epochs)."""

from __future__ import annotations

import importlib.util
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from synthdeid import SynthdeidError
from synthdeid.distributed import DEVICE_HELP, torch_device, valid_device

if TYPE_CHECKING:
    import torch

NAME = "causal_lm"

NO_MODEL = (
    "generator 'causal_lm' needs a local model directory: set `model: /path/to/model` (a folder with "
    "config.json, the weights and the tokenizer files). This workplace has no model hub; on a machine "
    "with network access save one, e.g. `huggingface-cli download AI-Sweden-Models/gpt-sw3-126m "
    "--local-dir models/gpt-sw3-126m` or `AutoModelForCausalLM.from_pretrained(id).save_pretrained(dir)` "
    "plus `AutoTokenizer.from_pretrained(id).save_pretrained(dir)`, and copy the folder here. "
    "Without a pretrained model use the gpt2 or lstm generator."
)
DTYPE_NAMES = ("float32", "bfloat16", "float16")
"""The ``dtype`` settings besides ``auto``: names of torch dtypes."""


@dataclass(frozen=True)
class CausalLMSettings:
    model: str | None = None
    """Local folder of a transformers causal LM (GPT-SW3, FLOR, Llama-style, GPT-2, ...)."""
    lora_r: int = 8
    lora_alpha: int = 32
    lora_dropout: float = 0.05
    target_modules: tuple[str, ...] | str | None = None
    """None: peft's default for the architecture, else every linear layer (``all-linear``)."""
    train_new_tokens: bool = True
    """Train the embedding (and untied output) rows of the added tag tokens."""
    load_in_4bit: bool = False
    """QLoRA: needs bitsandbytes and a CUDA GPU."""
    dtype: str = "float32"
    device: str = "auto"
    """auto: cuda when available, else cpu."""
    epochs: int = 6
    batch_size: int = 16
    block_size: int = 512
    lr: float = 1e-4
    weight_decay: float = 0.1
    schedule: str = "cosine"
    warmup: float = 0.03
    grad_clip: float = 1.0
    merge: bool = True
    """Merge the adapter into the weights when loading (faster generation)."""
    seed: int | None = None
    """None: the seed of the training data (params)."""
    threads: int = 2
    backend: str = "transformers"
    """Generation backend: transformers (the shared decoding loop, any machine) or vllm (vLLM on CUDA
    GPUs; see ``synthdeid.plugins.causal_lm.vllm_backend`` for what it supports)."""
    tensor_parallel_size: int = 1
    """vLLM: GPUs to split the model over."""

    def __post_init__(self) -> None:
        def need(ok: bool, msg: str) -> None:
            if not ok:
                raise SynthdeidError(f"generator 'causal_lm': {msg}")

        if not self.model:
            raise SynthdeidError(NO_MODEL)
        path = Path(self.model)
        need(path.is_dir() and (path / "config.json").is_file(),
             f"model {self.model!r} is not a local model folder with config.json. " + NO_MODEL.split(": ", 1)[1])
        for key in ("lora_r", "lora_alpha", "epochs", "batch_size", "threads"):
            need(isinstance(getattr(self, key), int) and getattr(self, key) >= 1, f"{key} must be a positive integer")
        need(self.block_size >= 2, "block_size must be at least 2")
        need(0 <= self.lora_dropout < 1 and 0 <= self.warmup < 1, "lora_dropout and warmup must be in [0, 1)")
        need(self.lr > 0, "lr must be > 0")
        need(self.backend in ("transformers", "vllm"), "backend must be transformers or vllm")
        need(isinstance(self.tensor_parallel_size, int) and self.tensor_parallel_size >= 1,
             "tensor_parallel_size must be a positive integer")
        need(self.schedule in ("one_cycle", "cosine"), "schedule must be one_cycle or cosine")
        need(self.dtype in (*DTYPE_NAMES, "auto"), f"dtype must be one of {', '.join([*DTYPE_NAMES, 'auto'])}")
        need(valid_device(self.device), f"device must be {DEVICE_HELP}")
        if self.load_in_4bit:
            if importlib.util.find_spec("bitsandbytes") is None:
                raise SynthdeidError("generator 'causal_lm': load_in_4bit (QLoRA) needs the bitsandbytes package "
                                     "(pip install bitsandbytes) and a CUDA GPU; set load_in_4bit: false to train "
                                     "LoRA on full-precision weights")
            import torch

            if not torch.cuda.is_available():
                raise SynthdeidError("generator 'causal_lm': load_in_4bit (QLoRA) needs a CUDA GPU and none is "
                                     "available; set load_in_4bit: false to train LoRA on full-precision weights")

    def torch_device(self) -> torch.device:
        """The ``device`` setting's torch device (``synthdeid.distributed.torch_device``)."""
        return torch_device(self.device)
