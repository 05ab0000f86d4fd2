import shutil
from pathlib import Path

import pytest
import yaml

from synthdeid import InputError
from synthdeid.cli import main
from synthdeid.tools.presets import REMOVE, apply_preset, available, load_preset

ROOT = Path(__file__).resolve().parents[1]


def _keys(d, prefix=""):
    out = set()
    for k, v in d.items():
        if not prefix and k == REMOVE:
            continue
        if isinstance(v, dict) and v and k != "config":  # an empty mapping is a value (tags.mapping: {})
            out |= _keys(v, f"{prefix}{k}.")
        else:
            out.add(f"{prefix}{k}")
    return out


def test_presets_exist_and_demo_covers_every_key_the_others_change():
    assert {"demo", "smoke", "paper"} <= set(available(ROOT))
    demo = _keys(load_preset("demo", ROOT))
    removed = load_preset("demo", ROOT)[REMOVE]
    for name in available(ROOT):
        uncovered = {
            k for k in _keys(load_preset(name, ROOT)) - demo if not any(k.startswith(r + ".") for r in removed)
        }
        assert not uncovered, (name, uncovered)


def _has(tree, dotted):
    for part in dotted.split("."):
        if not isinstance(tree, dict) or part not in tree:
            return False
        tree = tree[part]
    return True


def test_every_key_a_preset_adds_is_removed_by_demo():
    params = yaml.safe_load((ROOT / "params.yaml").read_text())
    removed = load_preset("demo", ROOT)[REMOVE]
    assert removed and not any(_has(params, k) for k in removed)  # params.yaml ships without them
    for name in available(ROOT):
        for key in _keys(load_preset(name, ROOT)):
            if not _has(params, key):
                assert any(key == r or key.startswith(r + ".") for r in removed), (name, key)


def test_demo_undoes_every_preset(tmp_path, monkeypatch):
    shutil.copytree(ROOT / "presets", tmp_path / "presets")
    shutil.copy(ROOT / "params.yaml", tmp_path / "params.yaml")
    monkeypatch.chdir(tmp_path)
    before = yaml.safe_load(Path("params.yaml").read_text())
    for name in available(ROOT):
        changed = apply_preset(name)
        if name == "mlm_fill":
            after = yaml.safe_load(Path("params.yaml").read_text())
            assert after["corpora"]["mlm_s"]["generator"] == "mlm" and "generators.mlm" in changed
        assert "-generators.mlm" not in changed or name == "demo"
        apply_preset("demo")
        assert yaml.safe_load(Path("params.yaml").read_text()) == before, name


def test_remove_must_be_a_list_of_keys(tmp_path, monkeypatch):
    (tmp_path / "presets").mkdir()
    (tmp_path / "presets" / "bad.yaml").write_text("remove: generators.mlm\n")
    shutil.copy(ROOT / "params.yaml", tmp_path / "params.yaml")
    monkeypatch.chdir(tmp_path)
    with pytest.raises(InputError, match="list of dotted keys"):
        apply_preset("bad")


def test_demo_preset_is_what_params_yaml_ships_with():
    params = yaml.safe_load((ROOT / "params.yaml").read_text())
    for key in _keys(load_preset("demo", ROOT)):
        node_p, node_d = params, load_preset("demo", ROOT)
        for part in key.split("."):
            node_p, node_d = node_p[part], node_d[part]
        assert node_p == node_d, key


def test_switching_presets_round_trips_and_keeps_comments(tmp_path, monkeypatch, capsys):
    shutil.copytree(ROOT / "presets", tmp_path / "presets")
    shutil.copy(ROOT / "params.yaml", tmp_path / "params.yaml")
    monkeypatch.chdir(tmp_path)
    before = yaml.safe_load(Path("params.yaml").read_text())
    assert main(["preset", "smoke"]) == 0
    smoke = yaml.safe_load(Path("params.yaml").read_text())
    assert smoke["corpus"]["demo"]["n_docs"] < before["corpus"]["demo"]["n_docs"]
    assert smoke["generators"]["lstm"]["config"]["max_epochs"] == 1
    assert "# language pack" in Path("params.yaml").read_text()
    assert main(["preset", "demo"]) == 0
    assert yaml.safe_load(Path("params.yaml").read_text()) == before
    assert main(["preset", "nope"]) == 1
    assert "no preset 'nope'" in capsys.readouterr().err


def test_cli_errors_keep_their_brackets(tmp_path, monkeypatch, capsys):
    """rich read "[generators.mlm, ...]" (and "synthdeid[export]") as markup and dropped it."""
    (tmp_path / "presets").mkdir()
    (tmp_path / "presets" / "bad.yaml").write_text("remove: generators.mlm\n")
    shutil.copy(ROOT / "params.yaml", tmp_path / "params.yaml")
    monkeypatch.chdir(tmp_path)
    assert main(["preset", "bad"]) == 1
    assert "remove: [generators.mlm, corpora.mlm_s]" in capsys.readouterr().err
