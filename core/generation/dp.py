"""Differentially private training (DP-SGD, Abadi et al. 2016) through Opacus, shared by the
generators: the ``dp`` switch of a generator config, Poisson sampling of training notes, per-sample
clipping and noise (Opacus' ``GradSampleModule`` and ``DPOptimizer``) and the privacy accountant.

The privacy unit is one training note: every sample is one note (truncated to ``max_tokens``),
never a window of the concatenated stream, so the (epsilon, delta) guarantee is per note. What DP
does not cover: the vocabulary (built from the training text before training; use vocabulary
anonymization, ``synthdeid anonymize-vocab``) and the choice of the best epoch on the dev notes.

Known failure modes guarded here: fixed-size shuffled batches with an accountant that assumes
Poisson sampling (we draw Poisson batches ourselves, an empty draw still takes a noisy step);
``nn.LSTM`` has no per-sample gradients (the LSTM computes its own, exactly); global gradient
clipping after the noise; an accountant lost on resume (its history is in the checkpoint).
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Iterator, Mapping
from typing import TYPE_CHECKING, Any

from pydantic import model_validator
from pydantic_core import PydanticCustomError

from synthdeid.errors import SynthdeidError
from synthdeid.phi.seeds import derive_seed
from synthdeid.plugin_system.config import Settings, setting

if TYPE_CHECKING:
    import torch

ACCOUNTANTS = ("rdp", "prv")
RDP_ALPHAS = [1 + x / 10.0 for x in range(1, 100)] + list(range(12, 64)) + list(range(64, 1025, 16))
"""Renyi orders: Opacus' defaults plus large ones, which give the tighter bound at larger epsilon."""
EXAMPLE = "{noise_multiplier: 1.0, max_grad_norm: 1.0}"
"""A ``dp`` setting, as errors show it."""


def require_opacus() -> Any:
    """The opacus module, or an error saying how to install it."""
    try:
        import opacus
    except ImportError:
        raise SynthdeidError(
            "differentially private training (a generator's `dp` setting) needs Opacus: "
            "pip install 'synthdeid[dp]' (or pip install opacus)"
        ) from None
    return opacus


class DPConfig(Settings):
    """The ``dp`` section of a generator config: give ``noise_multiplier`` or ``target_epsilon``.

    ``max_grad_norm`` keeps its name (Opacus' and the DP-SGD literature's): it is the per-note
    clipping bound that scales the noise and the privacy guarantee, not the optimisation-only
    clipping of the whole batch's gradient that the generators call ``grad_clip``."""

    noise_multiplier: float | None = setting(None, gt=0, lt=math.inf)
    """Noise standard deviation relative to ``max_grad_norm``."""
    target_epsilon: float | None = setting(None, gt=0, lt=math.inf)
    """Or: the noise multiplier is chosen so that training ends at this epsilon."""
    delta: float | None = setting(None, gt=0, lt=1)
    """Defaults to 1 / (10 x the number of training notes); keep it well below 1 / the number of notes."""
    max_grad_norm: float = setting(1.0, gt=0, lt=math.inf)
    """Every note's gradient is clipped to this L2 norm before the noise."""
    batch_size: int = setting(64, ge=2)
    """Expected notes per step: each note joins a step's batch with probability batch_size / notes."""
    max_tokens: int = setting(512, ge=2)
    """A note is one sample; longer notes are truncated (counted in the metrics)."""
    accountant: str = setting("rdp", choices=ACCOUNTANTS)
    """``rdp`` (Renyi DP) or ``prv`` (privacy random variables, tighter)."""

    @staticmethod
    def switch(value: Any) -> Any:
        """A generator's ``dp`` setting as given in params: a mapping (DP on, built as ``DPConfig``),
        null or false (off: None). The generator configs call it in a ``mode="before"`` field validator
        of their ``dp`` field."""
        if value is None or value is False:
            return None
        if isinstance(value, (Mapping, DPConfig)):
            return value
        raise PydanticCustomError(
            "dp_switch", "must be a mapping such as {example} or null (false: off)", {"example": EXAMPLE}
        )

    @model_validator(mode="after")
    def _one_noise_setting(self) -> DPConfig:
        if (self.noise_multiplier is None) == (self.target_epsilon is None):
            raise SynthdeidError(
                "dp: give exactly one of noise_multiplier and target_epsilon (the generator's `dp` section in params.yaml)"
            )
        return self


def backward(loss: torch.Tensor) -> None:
    """``loss.backward()`` without Opacus' warning about hooks on layers whose input is token ids."""
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", "Full backward hook is firing")
        loss.backward()


class DPTraining:
    """One DP-SGD training run: Poisson batches, the wrapped model and optimizer, the accountant."""

    def __init__(self, config: DPConfig, n_samples: int, epochs: int, seed: int) -> None:
        import torch

        opacus = require_opacus()
        if n_samples < config.batch_size:
            raise SynthdeidError(
                f"dp: {n_samples} training notes are fewer than dp.batch_size {config.batch_size}; lower dp.batch_size"
            )
        self.config, self.n_samples, self.seed = config, n_samples, seed
        self.sample_rate = config.batch_size / n_samples
        self.steps_per_epoch = max(1, round(1 / self.sample_rate))
        self.delta = config.delta if config.delta is not None else 1 / (10 * n_samples)
        if config.noise_multiplier is not None:
            self.noise_multiplier = config.noise_multiplier
        else:
            from opacus.accountants.utils import get_noise_multiplier

            self.noise_multiplier = float(
                get_noise_multiplier(
                    target_epsilon=config.target_epsilon,
                    target_delta=self.delta,
                    sample_rate=self.sample_rate,
                    steps=self.steps_per_epoch * epochs,
                    accountant=config.accountant,
                    **self._orders(),
                )
            )
        self.accountant = opacus.accountants.create_accountant(config.accountant)
        self.noise = torch.Generator().manual_seed(derive_seed(seed, "dp-noise") % 2**63)
        self.optimizer: Any = None

    def make_optimizer(self, optimizer: torch.optim.Optimizer) -> Any:
        """The Opacus ``DPOptimizer`` around ``optimizer``: ``step`` clips every sample's gradient
        (``p.grad_sample``) to ``max_grad_norm``, sums, adds Gaussian noise of standard deviation
        ``noise_multiplier x max_grad_norm`` and divides by the expected batch size."""
        from opacus.optimizers import DPOptimizer

        self.optimizer = DPOptimizer(
            optimizer,
            noise_multiplier=self.noise_multiplier,
            max_grad_norm=self.config.max_grad_norm,
            expected_batch_size=self.config.batch_size,
            loss_reduction="mean",
            generator=self.noise,
        )
        return self.optimizer

    def wrap_model(self, model: torch.nn.Module, batch_first: bool = True) -> Any:
        """The model with per-sample gradients (Opacus ``GradSampleModule``; layers without an Opacus
        grad sampler, such as transformers' ``Conv1D``, get functorch's)."""
        from opacus import GradSampleModule
        from opacus.validators import ModuleValidator

        errors = ModuleValidator.validate(model, strict=False)
        if errors:
            raise SynthdeidError(
                "dp: this model has layers Opacus cannot train privately: " + "; ".join(map(str, errors[:3]))
            )
        return GradSampleModule(model, batch_first=batch_first, loss_reduction="mean")

    def batches(self, epoch: int) -> Iterator[list[int]]:
        """The Poisson batches of an epoch: each note joins each step independently with
        probability ``sample_rate`` (seeded by the run's seed, the epoch and the step)."""
        import torch

        for step in range(self.steps_per_epoch):
            g = torch.Generator().manual_seed(derive_seed(self.seed, "poisson", epoch, step) % 2**63)
            yield torch.nonzero(torch.rand(self.n_samples, generator=g) < self.sample_rate).flatten().tolist()

    def empty_step(self) -> None:
        """A step for an empty Poisson draw: no sample, but the noise all the same (skipping it
        would break the accounting)."""
        for p in self.optimizer.params:
            p.grad_sample = p.new_zeros((0, *p.shape))
        self.step()

    def step(self) -> None:
        """Clip, noise and apply the gradients; count the step in the accountant."""
        self.optimizer.step()
        self.accountant.step(noise_multiplier=self.noise_multiplier, sample_rate=self.sample_rate)

    def epsilon(self) -> float | None:
        """Epsilon spent so far at ``delta`` (None before the first step)."""
        if not len(self.accountant.history):
            return None
        return float(self.accountant.get_epsilon(delta=self.delta, **self._orders()))

    def _orders(self) -> dict[str, Any]:
        return {"alphas": RDP_ALPHAS} if self.config.accountant == "rdp" else {}

    def state_dict(self) -> dict[str, Any]:
        return {
            "accountant": [list(h) for h in self.accountant.history],
            "noise": self.noise.get_state(),
            "noise_multiplier": self.noise_multiplier,
        }

    def load_state_dict(self, state: Mapping[str, Any]) -> None:
        """Resume: the accountant's history and the noise generator. The noise multiplier must be
        the one the checkpoint was trained with (with ``target_epsilon`` it depends on the epochs)."""
        if abs(state["noise_multiplier"] - self.noise_multiplier) > 1e-12:
            raise SynthdeidError(
                f"dp: the checkpoint was trained with noise multiplier {state['noise_multiplier']:.4g}, these "
                f"settings give {self.noise_multiplier:.4g} (target_epsilon chooses it for the total number of "
                "epochs); restore the epochs or set dp.noise_multiplier to resume, or delete the model "
                "directory to start over"
            )
        self.accountant.history = [tuple(h) for h in state["accountant"]]
        self.noise.set_state(state["noise"])

    def metrics(self, truncated: int = 0) -> dict[str, Any]:
        """What the generator's training metrics report."""
        eps = self.epsilon()
        return {
            "epsilon": eps,
            "delta": self.delta,
            "noise_multiplier": self.noise_multiplier,
            "max_grad_norm": self.config.max_grad_norm,
            "sample_rate": self.sample_rate,
            "expected_batch_size": self.config.batch_size,
            "steps": sum(int(h[2]) for h in self.accountant.history),
            "accountant": self.config.accountant,
            "privacy_unit": "note",
            "notes_truncated": truncated,
            "max_tokens": self.config.max_tokens,
        }
