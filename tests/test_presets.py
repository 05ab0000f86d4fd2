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


def test_a_preset_that_extends_another_is_both_applied_in_turn(tmp_path, monkeypatch):
    shutil.copytree(ROOT / "presets", tmp_path / "presets")
    shutil.copy(ROOT / "params.yaml", tmp_path / "params.yaml")
    monkeypatch.chdir(tmp_path)
    smoke = (tmp_path / "presets" / "smoke.yaml").read_text()
    assert "extends: full" in smoke
    (tmp_path / "presets" / "smoke_alone.yaml").write_text(smoke.replace("extends: full", ""))
    apply_preset("smoke")
    extended = yaml.safe_load(Path("params.yaml").read_text())
    apply_preset("demo")
    apply_preset("full")
    apply_preset("smoke_alone")
    assert yaml.safe_load(Path("params.yaml").read_text()) == extended
    # the base's keys under the preset's own: full's GPT-2 route with smoke's tiny model
    assert (
        extended["generators"]["gpt2"]["plugin"] == "gpt2" and extended["generators"]["gpt2"]["config"]["layers"] == 1
    )
    assert "gpt_beam" in extended["utility"]["synthetic"] and "lstm_dp_p" in extended["privacy"]["corpora"]


def test_the_demo_leaves_out_what_full_adds_and_full_adds_it_back(tmp_path, monkeypatch):
    shutil.copytree(ROOT / "presets", tmp_path / "presets")
    shutil.copy(ROOT / "params.yaml", tmp_path / "params.yaml")
    monkeypatch.chdir(tmp_path)
    demo = yaml.safe_load(Path("params.yaml").read_text())
    assert {"gpt2", "lstm_dp"}.isdisjoint(demo["generators"]) and "gpt_p" not in demo["corpora"]
    apply_preset("full")
    full = yaml.safe_load(Path("params.yaml").read_text())
    assert {"lstm", "gpt2", "lstm_raw", "lstm_dp"} == set(full["generators"])
    assert (
        {"gpt_p", "gpt_beam", "lstm_dp_p"} <= set(full["corpora"]) <= set(full["privacy"]["corpora"]) | {"lstm_raw_p"}
    )


def test_a_removal_in_the_base_does_not_undo_what_the_preset_sets(tmp_path):
    (tmp_path / "presets").mkdir()
    (tmp_path / "presets" / "base.yaml").write_text("remove: [corpora.x, corpora.y]\nseed: 1\n")
    (tmp_path / "presets" / "child.yaml").write_text("extends: base\nremove: [corpora.z]\ncorpora: {x: {top_p: 0.9}}\n")
    child = load_preset("child", tmp_path)
    assert child[REMOVE] == ["corpora.y", "corpora.z"] and child["seed"] == 1 and "extends" not in child


@pytest.mark.parametrize(
    "files, match",
    [
        ({"a": "extends: b\n", "b": "extends: a\n"}, r"in a circle: a -> b -> a"),
        ({"a": "extends: nope\n"}, r"no preset 'nope' \(the one 'a' extends\)"),
        ({"a": "extends: b\n", "b": "remove: corpora.x\n"}, r"preset 'b': 'remove' must be a list"),
    ],
)
def test_a_bad_extends_is_named(tmp_path, files, match):
    (tmp_path / "presets").mkdir()
    for name, text in files.items():
        (tmp_path / "presets" / f"{name}.yaml").write_text(text)
    with pytest.raises(InputError, match=match):
        load_preset("a", tmp_path)
