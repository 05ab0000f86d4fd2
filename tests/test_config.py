"""The shared plugin-config parser: every plugin kind reports bad settings the same way."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from synthdeid import SynthdeidError
from synthdeid.config import from_mapping


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
    with pytest.raises(SynthdeidError, match=r"thing 'x' has no setting\(s\) lrr; its settings are: epochs, lr, on"):
        from_mapping(Settings, {"lrr": 1}, "thing 'x'")
    with pytest.raises(SynthdeidError, match="thing 'x': epochs must be a number, not 'many'"):
        from_mapping(Settings, {"epochs": "many"}, "thing 'x'")
    with pytest.raises(SynthdeidError, match="has no setting"):
        from_mapping(Settings, {"lr": 1}, "thing 'x'", exclude=["lr"])


@pytest.mark.parametrize("kind, name", [("decoder", "nucleus"), ("decoder", "beam"), ("generator", "lstm"),
                                        ("generator", "gpt2"), ("tagger", "flair_bilstm_crf"),
                                        ("privacy_metric", "rouge")])
def test_every_plugin_kind_uses_it(kind: str, name: str) -> None:
    from synthdeid.plugin_manager import registry

    with pytest.raises(SynthdeidError, match=rf"{kind.split('_')[-1]} '{name}' has no setting\(s\) bogus; its settings are: "):
        registry(kind).create(name, {"bogus": 1})
