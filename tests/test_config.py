"""Typed settings (``synthdeid.plugin_system.config``): one declaration per setting, and every
plugin kind reports a bad setting the same way."""

from __future__ import annotations

import importlib
import inspect
import types
import typing
import warnings

import pytest
from pydantic import ValidationError

from synthdeid import SynthdeidError
from synthdeid.plugin_system.config import SettingError, Settings, load_settings, renames, setting


class Plain(Settings):
    lr: float = 0.1
    epochs: int = 2
    sizes: tuple[int, ...] = (1, 2)
    path: str | None = None
    scale: float | None = None
    on: bool = False


def test_values_are_typed_from_yaml() -> None:
    s = load_settings(Plain, {"lr": 1, "epochs": 3.0, "sizes": [4, 5], "scale": "1e-3", "on": True}, "thing 'x'")
    assert s == Plain(lr=1.0, epochs=3, sizes=(4, 5), scale=1e-3, on=True)
    assert isinstance(s.lr, float) and isinstance(s.epochs, int) and isinstance(s.sizes, tuple)
    assert load_settings(Plain, None, "thing 'x'") == Plain()
    assert load_settings(Plain, {"path": "1e3"}, "thing 'x'").path == "1e3"  # strings stay strings
    assert load_settings(Plain, s, "thing 'x'") is s  # built settings pass as they are
    with pytest.raises(SynthdeidError, match="setting 'path' .*YAML reads an unquoted"):
        load_settings(Plain, {"path": False}, "thing 'x'")  # `path: no` unquoted


def test_unknown_and_junk_settings_name_the_plugin_and_the_valid_keys() -> None:
    with pytest.raises(
        SynthdeidError,
        match=r"thing 'x' has no setting\(s\) lrr \(did you mean lr\?\); its settings are: epochs, lr, on",
    ):
        load_settings(Plain, {"lrr": 1}, "thing 'x'")
    with pytest.raises(SynthdeidError, match="thing 'x': setting 'epochs' must be a whole number, got 'many'"):
        load_settings(Plain, {"epochs": "many"}, "thing 'x'")
    with pytest.raises(SynthdeidError, match="its config must be a mapping"):
        load_settings(Plain, [1], "thing 'x'")  # type: ignore[arg-type]


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
        SynthdeidError, match=rf"{kind.replace('_', ' ')} '{name}' has no setting\(s\) bogus; its settings are: "
    ):
        registry(kind).create(name, {"bogus": 1})


def test_every_plugins_factory_receives_the_settings_its_class_built() -> None:
    """The registry builds a plugin's settings once and hands them to the factory; settings the
    study spec built already are passed on as they are."""
    from synthdeid.plugin_system.manager import registry

    nucleus = registry("decoder").settings("nucleus", {"top_p": 0.5})
    assert registry("decoder").create("nucleus", nucleus) is nucleus
    for kind in ("annotator", "generator", "decoder", "tagger", "privacy_metric"):
        for entry in registry(kind):
            if entry.package == "synthdeid":
                assert entry.config is not None and issubclass(entry.config, Settings), (kind, entry.name)


# ---- renamed settings and declared bounds ------------------------------------------------------


class Bounded(Settings):
    learning_rate: float = setting(0.1, gt=0, renamed_from="lr")
    layers: int = setting(1, ge=1, renamed_from=("n_layer", "num_layers"))
    dropout: float = setting(0.1, ge=0, lt=1)
    share: float = setting(0.5, le=1)
    delta: float | None = setting(None, gt=0, lt=1)
    mode: str = setting("a", choices=("a", "b"))


def test_a_former_name_is_mapped_with_a_deprecation_warning() -> None:
    with pytest.warns(DeprecationWarning, match="thing 'x': setting 'lr' is deprecated, use 'learning_rate'"):
        s = load_settings(Bounded, {"lr": 2}, "thing 'x'")
    assert s == Bounded(learning_rate=2.0)
    with pytest.warns(DeprecationWarning, match="setting 'num_layers' is deprecated, use 'layers'"):
        assert load_settings(Bounded, {"num_layers": 3}, "thing 'x'").layers == 3
    assert renames(Bounded) == {"lr": "learning_rate", "n_layer": "layers", "num_layers": "layers"}


def test_saved_configs_map_former_names_silently() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert load_settings(Bounded, {"lr": 2}, "thing 'x'", saved=True).learning_rate == 2.0
        assert Bounded(mode="b").replace(layers=3) == Bounded(mode="b", layers=3)


def test_a_former_and_a_current_name_together_is_an_error() -> None:
    with pytest.raises(
        SynthdeidError, match="thing 'x': 'lr' and 'learning_rate' are the same setting.*give only 'learning_rate'"
    ):
        load_settings(Bounded, {"lr": 1, "learning_rate": 2}, "thing 'x'")
    with pytest.raises(SynthdeidError, match="'n_layer' and 'num_layers' are the same setting"):
        load_settings(Bounded, {"n_layer": 1, "num_layers": 2}, "thing 'x'")


@pytest.mark.parametrize(
    "config, message, pydantic_message",
    [
        (
            {"learning_rate": 0.0},
            "thing 'x': setting 'learning_rate' must be > 0, got 0.0; set it above 0",
            "greater than 0",
        ),
        ({"layers": 0}, "setting 'layers' must be >= 1, got 0; set it to 1 or more", "greater than or equal to 1"),
        ({"dropout": 1.0}, r"setting 'dropout' must be in \[0, 1\), got 1.0; set it within \[0, 1\)", "less than 1"),
        ({"share": 1.5}, "setting 'share' must be <= 1, got 1.5; set it to 1 or less", "less than or equal to 1"),
        ({"delta": 1.0}, r"setting 'delta' must be in \(0, 1\), got 1.0; set it within \(0, 1\)", "less than 1"),
        ({"mode": "c"}, "setting 'mode' must be one of a, b, got 'c'; use one of them", "'a' or 'b'"),
        ({"layers": 1.5}, "setting 'layers' must be a whole number >= 1, got 1.5", "valid integer"),
        ({"layers": True}, "setting 'layers' must be a whole number >= 1, got True", "valid integer"),
    ],
)
def test_each_bound_kind_rejects_with_a_clear_message(config, message, pydantic_message) -> None:
    with pytest.raises(SettingError, match=message):
        load_settings(Bounded, config, "thing 'x'")
    with pytest.raises(ValidationError, match=pydantic_message):  # built in Python: the same declaration
        Bounded(**config)


def test_bounds_pass_none_and_name_every_problem() -> None:
    assert load_settings(Bounded, {"delta": None}, "thing 'x'").delta is None
    with pytest.raises(SettingError, match="'layers' must be >= 1.*; setting 'mode' must be one of a, b"):
        load_settings(Bounded, {"layers": 0, "mode": "z"}, "thing 'x'")


def test_the_schema_shows_bounds_choices_and_descriptions_but_no_former_names() -> None:
    class Described(Settings):
        mode: str = setting("a", choices=("a", "b"), description="how", renamed_from="old_mode")

    schema = Described.model_json_schema()["properties"]["mode"]
    assert schema["enum"] == ["a", "b"] and schema["description"] == "how"
    assert "old_mode" not in str(Described.model_json_schema())
    assert Bounded.model_json_schema()["properties"]["dropout"]["exclusiveMaximum"] == 1


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
            got = load_settings(cls, old, "thing 'x'")
        assert got == load_settings(cls, new, "thing 'x'"), cls.__name__


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
    "synthdeid.plugins.deduce_annotator",
    "synthdeid.plugins.privacy.config",
    "synthdeid.generation.dp",
    "synthdeid.privacy.canaries",
    "synthdeid.privacy.data_canaries",
    "synthdeid.spec.vocab_anonymization",
)


def _settings_classes() -> list[type[Settings]]:
    found = []
    for name in PLUGIN_CONFIG_MODULES:
        module = importlib.import_module(name)
        for cls in vars(module).values():
            if inspect.isclass(cls) and issubclass(cls, Settings) and cls.__module__ == name and cls.model_fields:
                found.append(cls)
    return found


def test_every_config_is_a_settings_model() -> None:
    """No config is declared the old way (a dataclass with its own parser) any more."""
    import dataclasses

    for name in PLUGIN_CONFIG_MODULES:
        module = importlib.import_module(name)
        old = [
            n
            for n, cls in vars(module).items()
            if inspect.isclass(cls)
            and dataclasses.is_dataclass(cls)
            and cls.__module__ == name
            and n.endswith(("Config", "Settings"))
        ]
        assert not old, f"{name}: {old} are dataclasses; declare them as Settings"
    assert len(_settings_classes()) >= 20


def test_every_number_setting_of_a_config_declares_its_bounds() -> None:
    """Each int and float setting declares its bounds (``ge``/``gt``/``le``/``lt`` or ``choices``), so a
    bad value is refused with the same clear message everywhere."""
    unbounded = []
    for cls in _settings_classes():
        for name, field in cls.model_fields.items():
            hint = field.annotation
            kinds = typing.get_args(hint) if typing.get_origin(hint) in (typing.Union, types.UnionType) else (hint,)
            bounded = any(getattr(m, k, None) is not None for m in field.metadata for k in ("ge", "gt", "le", "lt"))
            chosen = isinstance(field.json_schema_extra, dict) and "enum" in field.json_schema_extra
            if any(k in (int, float) for k in kinds) and not (bounded or chosen):
                unbounded.append(f"{cls.__module__}.{cls.__qualname__}.{name}")
    assert not unbounded, "declare bounds with setting(default, ge=..., ...) for: " + ", ".join(unbounded)


def test_every_setting_of_a_built_in_plugin_config_has_a_description() -> None:
    """Each setting of a built-in plugin's config says what it means (``setting(description=...)``),
    which the JSON Schema and the params reference (docs/params.md) show."""
    bare = [
        f"{cls.__module__}.{cls.__qualname__}.{name}"
        for cls in _settings_classes()
        if cls.__module__.startswith("synthdeid.plugins.")
        for name, field in cls.model_fields.items()
        if not field.description
    ]
    assert not bare, "describe with setting(default, ..., description='...'): " + ", ".join(bare)
