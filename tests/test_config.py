"""The shared plugin-config parser: every plugin kind reports bad settings the same way."""

from __future__ import annotations

import warnings
from dataclasses import dataclass

import pytest

from synthdeid import SynthdeidError
from synthdeid.plugin_system.legacy_config import (
    SettingError,
    check_bounds,
    current_names,
    from_mapping,
    renames,
    setting,
)


@dataclass(frozen=True)
class Settings:
    lr: float = 0.1
    epochs: int = 2
    sizes: tuple[int, ...] = (1, 2)
    path: str | None = None
    scale: float | None = None
    on: bool = False


def test_values_are_typed_from_yaml() -> None:
    s = from_mapping(Settings, {"lr": 1, "epochs": 3.0, "sizes": [4, 5], "scale": "1e-3", "on": True}, "thing 'x'")
    assert s == Settings(lr=1.0, epochs=3, sizes=(4, 5), scale=1e-3, on=True)
    assert isinstance(s.lr, float) and isinstance(s.epochs, int) and isinstance(s.sizes, tuple)
    assert from_mapping(Settings, None, "thing 'x'") == Settings()
    assert from_mapping(Settings, {"path": "1e3"}, "thing 'x'").path == "1e3"  # strings stay strings


def test_unknown_and_junk_settings_name_the_plugin_and_the_valid_keys() -> None:
    with pytest.raises(
        SynthdeidError,
        match=r"thing 'x' has no setting\(s\) lrr \(did you mean lr\?\); its settings are: epochs, lr, on",
    ):
        from_mapping(Settings, {"lrr": 1}, "thing 'x'")
    with pytest.raises(SynthdeidError, match="thing 'x': epochs must be a number, not 'many'"):
        from_mapping(Settings, {"epochs": "many"}, "thing 'x'")
    with pytest.raises(SynthdeidError, match="has no setting"):
        from_mapping(Settings, {"lr": 1}, "thing 'x'", exclude=["lr"])


@pytest.mark.parametrize(
    "kind, name",
    [
        ("decoder", "nucleus"),
        ("decoder", "beam"),
        ("generator", "lstm"),
        ("generator", "gpt2"),
        ("tagger", "flair_bilstm_crf"),
        ("privacy_metric", "rouge"),
    ],
)
def test_every_plugin_kind_uses_it(kind: str, name: str) -> None:
    from synthdeid.plugin_system.manager import registry

    with pytest.raises(
        SynthdeidError, match=rf"{kind.split('_')[-1]} '{name}' has no setting\(s\) bogus; its settings are: "
    ):
        registry(kind).create(name, {"bogus": 1})


# ---- renamed settings and declared bounds ------------------------------------------------------


@dataclass(frozen=True)
class Bounded:
    learning_rate: float = setting(0.1, gt=0, renamed_from="lr")
    layers: int = setting(1, ge=1, renamed_from=("n_layer", "num_layers"))
    dropout: float = setting(0.1, ge=0, lt=1)
    share: float = setting(0.5, le=1)
    delta: float | None = setting(None, gt=0, lt=1)
    mode: str = setting("a", choices=("a", "b"))

    def __post_init__(self) -> None:
        check_bounds(self, "thing 'x'")


def test_a_former_name_is_mapped_with_a_deprecation_warning() -> None:
    with pytest.warns(DeprecationWarning, match="thing 'x': setting 'lr' is deprecated, use 'learning_rate'"):
        s = from_mapping(Bounded, {"lr": 2}, "thing 'x'")
    assert s == Bounded(learning_rate=2.0)
    with pytest.warns(DeprecationWarning, match="setting 'num_layers' is deprecated, use 'layers'"):
        assert from_mapping(Bounded, {"num_layers": 3}, "thing 'x'").layers == 3
    assert renames(Bounded) == {"lr": "learning_rate", "n_layer": "layers", "num_layers": "layers"}


def test_saved_configs_map_former_names_silently() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert from_mapping(Bounded, {"lr": 2}, "thing 'x'", warn=False).learning_rate == 2.0
        mapped = current_names(Bounded, {"mode": "b", "lr": 2}, "thing 'x'", warn=False)
    assert mapped == {"mode": "b", "learning_rate": 2}


def test_a_former_and_a_current_name_together_is_an_error() -> None:
    with pytest.raises(
        SynthdeidError, match="thing 'x': 'lr' and 'learning_rate' are the same setting.*give only 'learning_rate'"
    ):
        from_mapping(Bounded, {"lr": 1, "learning_rate": 2}, "thing 'x'")
    with pytest.raises(SynthdeidError, match="'n_layer' and 'num_layers' are the same setting"):
        from_mapping(Bounded, {"n_layer": 1, "num_layers": 2}, "thing 'x'")


@pytest.mark.parametrize(
    "config, message",
    [
        ({"learning_rate": 0.0}, "thing 'x': setting 'learning_rate' must be > 0, got 0.0; set it above 0"),
        ({"layers": 0}, "setting 'layers' must be >= 1, got 0; set it to 1 or more"),
        ({"dropout": 1.0}, r"setting 'dropout' must be in \[0, 1\), got 1.0; set it within \[0, 1\)"),
        ({"share": 1.5}, "setting 'share' must be <= 1, got 1.5; set it to 1 or less"),
        ({"delta": 1.0}, r"setting 'delta' must be in \(0, 1\), got 1.0; set it within \(0, 1\)"),
        ({"mode": "c"}, "setting 'mode' must be one of a, b, got 'c'; use one of them"),
        ({"layers": 1.5}, "setting 'layers' must be a whole number >= 1, got 1.5"),
        ({"layers": True}, "setting 'layers' must be a number >= 1, got True"),
    ],
)
def test_each_bound_kind_rejects_with_a_clear_message(config, message) -> None:
    with pytest.raises(SettingError, match=message):
        from_mapping(Bounded, config, "thing 'x'")
    with pytest.raises(ValueError, match=message.replace("thing 'x': ", "")):  # built in Python: the same check
        Bounded(**config)


def test_bounds_pass_none_and_name_every_problem() -> None:
    assert from_mapping(Bounded, {"delta": None}, "thing 'x'").delta is None
    with pytest.raises(SettingError, match="'layers' must be >= 1.*; setting 'mode' must be one of a, b"):
        from_mapping(Bounded, {"layers": 0, "mode": "z"}, "thing 'x'")


def test_every_plugin_config_maps_its_former_names() -> None:
    from synthdeid.plugins.flair_tagger.config import FlairTaggerConfig
    from synthdeid.plugins.gpt2.config import GPT2Settings
    from synthdeid.plugins.hf_tagger.config import HFTaggerConfig
    from synthdeid.plugins.lstm.config import LSTMConfig
    from synthdeid.plugins.mlm_fill.config import MLMFillConfig
    from synthdeid.plugins.torch_tagger.config import TorchTaggerConfig

    cases = [
        (LSTMConfig, {"lr": 5.0, "clip": 1.0}, {"learning_rate": 5.0, "grad_clip": 1.0}),
        (
            GPT2Settings,
            {"n_layer": 2, "epochs": 4, "lr": 0.01, "n_embd": 64, "n_head": 2, "n_positions": 128, "min_frequency": 3},
            {
                "layers": 2,
                "max_epochs": 4,
                "learning_rate": 0.01,
                "embedding_size": 64,
                "heads": 2,
                "max_positions": 128,
                "min_count": 3,
            },
        ),
        (
            MLMFillConfig,
            {"epochs": 2, "lr": 0.01, "min_frequency": 3, "max_length": 64},
            {"max_epochs": 2, "learning_rate": 0.01, "min_count": 3, "block_size": 64},
        ),
        (
            FlairTaggerConfig,
            {"mini_batch_size": 8, "word_embedding_dim": 50, "word_min_freq": 3},
            {"batch_size": 8, "embedding_size": 50, "min_count": 3},
        ),
        (TorchTaggerConfig, {"word_dim": 50}, {"embedding_size": 50}),
        (
            HFTaggerConfig,
            {
                "num_layers": 1,
                "epochs": 2,
                "max_grad_norm": 0.5,
                "num_heads": 4,
                "max_position_embeddings": 256,
                "warmup_ratio": 0.2,
            },
            {"layers": 1, "max_epochs": 2, "grad_clip": 0.5, "heads": 4, "max_positions": 256, "warmup": 0.2},
        ),
    ]
    for cls, old, new in cases:
        with pytest.warns(DeprecationWarning):
            got = from_mapping(cls, old, "thing 'x'")
        assert got == from_mapping(cls, new, "thing 'x'"), cls.__name__


PLUGIN_CONFIG_MODULES = (
    "synthdeid.plugins.lstm.config",
    "synthdeid.plugins.gpt2.config",
    "synthdeid.plugins.causal_lm.config",
    "synthdeid.plugins.mlm_fill.config",
    "synthdeid.plugins.flair_tagger.config",
    "synthdeid.plugins.torch_tagger.config",
    "synthdeid.plugins.hf_tagger.config",
    "synthdeid.plugins.decoders",
    "synthdeid.plugins.beam",
    "synthdeid.plugins.tagger_annotator",
    "synthdeid.plugins.privacy.config",
    "synthdeid.generation.dp",
    "synthdeid.generation.vocab_anonymize",
)


def test_every_number_setting_of_a_plugin_config_declares_its_bounds() -> None:
    """A plugin config (a dataclass declaring settings with ``setting``) bounds each of its int and
    float settings (``ge``/``gt``/``le``/``lt`` or ``choices``), so a bad value is refused with the
    same clear message everywhere."""
    import dataclasses
    import importlib
    import inspect
    import types
    import typing

    from synthdeid.plugin_system.legacy_config import BOUNDS

    unbounded, configs = [], 0
    for name in PLUGIN_CONFIG_MODULES:
        module = importlib.import_module(name)
        for cls in vars(module).values():
            if not (inspect.isclass(cls) and dataclasses.is_dataclass(cls) and cls.__module__ == name):
                continue
            fields = dataclasses.fields(cls)
            if not any(BOUNDS in f.metadata for f in fields):
                continue  # not a config
            configs += 1
            hints = typing.get_type_hints(cls)
            for f in fields:
                hint = hints[f.name]
                kinds = typing.get_args(hint) if typing.get_origin(hint) in (typing.Union, types.UnionType) else (hint,)
                if any(k in (int, float) for k in kinds) and BOUNDS not in f.metadata:
                    unbounded.append(f"{cls.__module__}.{cls.__qualname__}.{f.name}")
    assert configs >= 15
    assert not unbounded, "declare bounds with setting(default, ge=..., ...) for: " + ", ".join(unbounded)


def test_every_setting_of_a_built_in_plugin_config_has_a_description() -> None:
    """Each setting of a built-in plugin's config says what it means (``setting(description=...)``),
    which the JSON Schema and the params reference (docs/params.md) show."""
    import dataclasses
    import importlib
    import inspect

    from synthdeid.plugin_system.legacy_config import DESCRIPTION, setting

    assert setting(1, description="d").metadata[DESCRIPTION] == "d"
    bare, configs = [], 0
    for name in (*PLUGIN_CONFIG_MODULES, "synthdeid.plugins.deduce_annotator"):
        if not name.startswith("synthdeid.plugins."):
            continue  # core settings (dp, vocab_anonymize) are described by the study spec
        module = importlib.import_module(name)
        for cls in vars(module).values():
            if not (inspect.isclass(cls) and dataclasses.is_dataclass(cls) and cls.__module__ == name):
                continue
            fields = [f for f in dataclasses.fields(cls) if f.init]
            if not any(f.metadata for f in fields):
                continue  # not a config
            configs += 1
            bare += [f"{name}.{cls.__qualname__}.{f.name}" for f in fields if not f.metadata.get(DESCRIPTION)]
    assert configs >= 18
    assert not bare, "describe with setting(default, ..., description='...'): " + ", ".join(bare)
