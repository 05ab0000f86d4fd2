"""Loading a local causal LM, adding the tag tokens, and wrapping it with LoRA (peft)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, cast

import torch

from synthdeid.toolkit import from_pretrained

from .config import MODEL_FIX, CausalLMSettings


def load_base(cfg: CausalLMSettings) -> Any:
    """The pretrained model from ``cfg.model`` (4-bit quantized for QLoRA)."""
    from transformers import AutoModelForCausalLM

    kwargs: dict[str, Any] = {"dtype": "auto" if cfg.dtype == "auto" else getattr(torch, cfg.dtype)}
    if cfg.load_in_4bit:
        from transformers import BitsAndBytesConfig

        kwargs["quantization_config"] = BitsAndBytesConfig(
            load_in_4bit=True,
            bnb_4bit_quant_type="nf4",
            bnb_4bit_use_double_quant=True,
            bnb_4bit_compute_dtype=torch.bfloat16,
        )
        kwargs["device_map"] = {"": cfg.torch_device().index or 0}
    model = from_pretrained(AutoModelForCausalLM.from_pretrained, str(cfg.model), MODEL_FIX, **kwargs)
    if not cfg.load_in_4bit:
        model.to(cfg.torch_device())  # type: ignore[arg-type]  # transformers types its @wraps'd .to() as unbound
    return model


def tied(model: Any) -> bool:
    out = model.get_output_embeddings()
    return out is not None and out.weight is model.get_input_embeddings().weight


def add_token_rows(model: Any, new_ids: Sequence[int], n_old: int, total: int) -> None:
    """Grow the embeddings to ``total`` rows when needed and start the new tokens' rows (input,
    and output when untied) at the mean of the first ``n_old`` rows: deterministic, no RNG."""
    rows = model.get_input_embeddings().weight.shape[0]
    if total > rows:
        model.resize_token_embeddings(total, mean_resizing=False)
    if not new_ids:
        return
    ids = torch.tensor(list(new_ids))
    mats = [model.get_input_embeddings().weight]
    if not tied(model) and model.get_output_embeddings() is not None:
        mats.append(model.get_output_embeddings().weight)
    with torch.no_grad():
        for w in mats:
            w[ids.to(w.device)] = w[:n_old].float().mean(dim=0).to(w.dtype)


def _module_name(model: Any, module: Any) -> str:
    return next(name for name, m in model.named_modules() if m is module)


def lora_config(model: Any, cfg: CausalLMSettings, new_ids: Sequence[int]) -> Any:
    """The peft ``LoraConfig``: target modules from the settings, peft's default for the
    architecture, or every linear layer; the new token rows trainable."""
    import dataclasses

    from peft import LoraConfig
    from peft.utils import TRANSFORMERS_MODELS_TO_LORA_TARGET_MODULES_MAPPING as DEFAULTS

    target: tuple[str, ...] | list[str] | str | None = cfg.target_modules
    if target is None:
        # peft's table holds lists of module names (typed as Sequence[str])
        target = cast("list[str] | None", DEFAULTS.get(model.config.model_type)) or "all-linear"
    kwargs: dict[str, Any] = {}
    if cfg.train_new_tokens and new_ids:
        emb = _module_name(model, model.get_input_embeddings())
        if "trainable_token_indices" in {f.name for f in dataclasses.fields(LoraConfig)}:
            if tied(model) or model.get_output_embeddings() is None:
                kwargs["trainable_token_indices"] = {emb: list(new_ids)}
            else:
                head = _module_name(model, model.get_output_embeddings())
                kwargs["trainable_token_indices"] = {emb: list(new_ids), head: list(new_ids)}
        else:  # older peft: train the whole embedding (and head) matrices
            names = [emb] if tied(model) else [emb, _module_name(model, model.get_output_embeddings())]
            kwargs["modules_to_save"] = [n.split(".")[-1] for n in names]
    return LoraConfig(
        task_type="CAUSAL_LM",
        r=cfg.lora_r,
        lora_alpha=cfg.lora_alpha,
        lora_dropout=cfg.lora_dropout,
        target_modules=list(target) if isinstance(target, tuple) else target,
        **kwargs,
    )


def peft_model(model: Any, cfg: CausalLMSettings, new_ids: Sequence[int], seed: int) -> Any:
    """``model`` wrapped with LoRA (seeded initialisation); QLoRA models are prepared first."""
    from peft import get_peft_model, prepare_model_for_kbit_training

    if cfg.load_in_4bit:
        model = prepare_model_for_kbit_training(model)
    torch.manual_seed(seed)
    return get_peft_model(model, lora_config(model, cfg, new_ids))
