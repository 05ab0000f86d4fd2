"""``synthdeid.precision`` (mixed precision on the CPU) and ``synthdeid.dropout``."""

from __future__ import annotations

import pytest
import torch

from synthdeid.dropout import dropout
from synthdeid.precision import autocast, cpu_has_bf16, resolve


def test_auto_follows_the_cpu_and_the_others_stay() -> None:
    assert resolve("auto") == ("bf16" if cpu_has_bf16() else "fp32")
    assert (resolve("fp32"), resolve("bf16")) == ("fp32", "bf16")


def test_an_unknown_precision_names_the_choices() -> None:
    with pytest.raises(ValueError, match="one of auto, fp32, bf16, got 'fp16'"):
        resolve("fp16")


def test_bf16_runs_products_in_bfloat16_and_fp32_does_not() -> None:
    a, b = torch.randn(4, 8), torch.randn(8, 3)
    with autocast("bf16"):
        assert (a @ b).dtype == torch.bfloat16
    with autocast("fp32"):
        assert (a @ b).dtype == torch.float32
    with autocast("auto"):
        assert (a @ b).dtype == (torch.bfloat16 if cpu_has_bf16() else torch.float32)


def test_dropout_keeps_the_expectation_and_zeroes_a_share() -> None:
    torch.manual_seed(0)
    x = torch.ones(200, 500)
    y = dropout(x, 0.3, training=True)
    kept = y != 0
    assert abs(1 - kept.float().mean().item() - 0.3) < 0.01
    assert torch.allclose(y[kept], torch.full_like(y[kept], 1 / 0.7))
    assert abs(y.mean().item() - 1.0) < 0.02


def test_dropout_is_the_identity_when_not_training_or_at_zero() -> None:
    x = torch.randn(5, 7)
    assert dropout(x, 0.5, training=False) is x
    assert dropout(x, 0.0, training=True) is x


def test_dropout_masks_follow_the_seed() -> None:
    x = torch.randn(30, 40)
    torch.manual_seed(3)
    a = dropout(x, 0.5, training=True)
    torch.manual_seed(3)
    assert torch.equal(a, dropout(x, 0.5, training=True))
