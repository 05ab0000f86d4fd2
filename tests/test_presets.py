import shutil
from pathlib import Path

import yaml

from synthdeid.cli import main
from synthdeid.presets import available, load_preset

ROOT = Path(__file__).resolve().parents[1]


def _keys(d, prefix=""):
    out = set()
    for k, v in d.items():
        if isinstance(v, dict) and v and k != "config":  # an empty mapping is a value (tags.mapping: {})
            out |= _keys(v, f"{prefix}{k}.")
        else:
            out.add(f"{prefix}{k}")
    return out


def test_presets_exist_and_demo_covers_every_key_the_others_change():
    assert {"demo", "smoke", "paper"} <= set(available(ROOT))
    demo = _keys(load_preset("demo", ROOT))
    for name in available(ROOT):
        assert _keys(load_preset(name, ROOT)) <= demo, name


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
