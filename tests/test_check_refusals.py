"""params.yaml settings ``synthdeid check`` must refuse (issue #41): a DEDUCE ``cache_path`` outside
the environment (DEDUCE unpickles the file it finds there: code run from a params setting) and a
params file with no settings at all (the demo's defaults would run as "ready")."""

from __future__ import annotations

import pickle
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml
from pydantic import ValidationError

from synthdeid.cli import main
from synthdeid.plugins import deduce_cache

REPO = Path(__file__).resolve().parents[1]


class Trap:
    """Unpickled, it creates ``marker``."""

    def __init__(self, marker: Path) -> None:
        self.marker = str(marker)

    def __reduce__(self) -> tuple[Any, tuple[str, str]]:
        return (open, (self.marker, "a"))


def trapped_cache(tmp_path: Path) -> tuple[Path, Path]:
    """A DEDUCE cache folder whose ``lookup_structs.pickle`` creates a marker when unpickled."""
    folder, marker = tmp_path / "cache-folder", tmp_path / "marker"
    (folder / deduce_cache.CACHE_FILE).parent.mkdir(parents=True)
    (folder / deduce_cache.CACHE_FILE).write_bytes(pickle.dumps({"x": Trap(marker)}))
    return folder, marker


def write_params(tmp_path: Path, annotate: dict[str, Any]) -> Path:
    params = yaml.safe_load((REPO / "params.yaml").read_text(encoding="utf-8"))
    params["annotate"] = annotate
    path = tmp_path / "params.yaml"
    path.write_text(yaml.safe_dump(params, sort_keys=False), encoding="utf-8")
    return path


def test_check_refuses_a_deduce_cache_outside_the_environment(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    folder, marker = trapped_cache(tmp_path)
    monkeypatch.chdir(tmp_path)
    path = write_params(tmp_path, {"annotator": "deduce", "config": {"cache_path": str(folder)}})
    assert main(["check", "--params", str(path)]) == 1
    out, err = capsys.readouterr()
    assert "annotate.config.cache_path" in err and "trust_cache: true" in err and "fix: leave cache_path out" in err
    assert "ready" not in out + err and not marker.exists()


def test_the_annotate_stage_refuses_it_and_unpickles_nothing(tmp_path: Path) -> None:
    from synthdeid.plugin_system.config import SettingError
    from synthdeid.plugins import registry

    folder, marker = trapped_cache(tmp_path)
    with pytest.raises(SettingError, match="lies outside this Python environment") as e:
        registry("annotator").create("deduce", {"cache_path": str(folder)}).annotate("Jan Jansen")
    assert "trust_cache" in str(e.value) and not marker.exists()
    with pytest.raises(SettingError):  # a quoted "true" is no trust
        registry("annotator").create("deduce", {"cache_path": str(folder), "trust_cache": "true"})


def test_trust_cache_unpickles_and_says_so(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Trusted, the cache is DEDUCE's to load (the trap goes off), and stderr says it was unpickled."""
    from synthdeid.plugins import registry

    folder, marker = trapped_cache(tmp_path)
    annotator = registry("annotator").create("deduce", {"cache_path": str(folder), "trust_cache": True})
    with pytest.raises(Exception):  # noqa: B017 - the trap is no DEDUCE cache
        annotator.annotate("Jan Jansen")
    assert marker.exists()
    assert f"warning: unpickling {folder / deduce_cache.CACHE_FILE}" in capsys.readouterr().err


def test_a_cache_inside_the_environment_or_trusted_is_accepted(tmp_path: Path) -> None:
    from synthdeid.model_files import trusting_pickles
    from synthdeid.plugins.deduce_annotator import DeduceConfig

    assert DeduceConfig(cache_path=str(Path(sys.prefix) / "deduce-cache")).cache_path
    assert DeduceConfig(cache_path=str(tmp_path), trust_cache=True).trust_cache
    with trusting_pickles():
        DeduceConfig(cache_path=str(tmp_path))
    with pytest.raises(ValidationError, match="lies outside this Python environment"):
        DeduceConfig(cache_path=str(tmp_path))
    assert deduce_cache.untrusted_cache(Path(sys.prefix).resolve() / "x") is None
    assert deduce_cache.untrusted_cache(tmp_path) == tmp_path.resolve()


@pytest.mark.parametrize("text", ["", "{}\n", "# a comment only\n\n# another\n"], ids=["empty", "{}", "comments"])
def test_check_refuses_a_params_file_without_settings(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], text: str
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "params.yaml").write_text(text, encoding="utf-8")
    assert main(["check"]) == 1
    out, err = capsys.readouterr()
    assert "params.yaml: holds no settings" in err and "fix:" in err and "ready" not in out
