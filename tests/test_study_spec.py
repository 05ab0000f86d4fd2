"""The study spec: params.yaml read once into typed sections, every mistake refused by name (from
``synthdeid check`` and from any stage alike), the params reference and JSON Schema generated from
it, and every key params.yaml, a preset or the docs name known to it."""

from __future__ import annotations

import copy
import json
import re
import typing
from pathlib import Path
from typing import Any

import pytest
import yaml
from pydantic import BaseModel
from spec_mistakes import MISTAKES

from synthdeid.cli import main
from synthdeid.errors import InputError
from synthdeid.spec import load_study
from synthdeid.spec.describe import json_schema, reference
from synthdeid.spec.study import Study
from synthdeid.stages import common

REPO = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def demo_params() -> dict[str, Any]:
    return yaml.safe_load((REPO / "params.yaml").read_text(encoding="utf-8"))


def _write(tmp_path: Path, params: dict[str, Any]) -> Path:
    path = tmp_path / "params.yaml"
    path.write_text(yaml.safe_dump(params, sort_keys=False), encoding="utf-8")
    return path


def test_the_demo_params_and_every_preset_are_accepted(demo_params, tmp_path, monkeypatch):
    study = load_study(REPO / "params.yaml")
    assert study.generation("lstm_p").target_tokens == 200000  # the corpus's override
    assert study.generation("lstm_temp").target_tokens == study.generate.target_tokens
    assert study.corpus_generator("lstm_m") == "lstm_raw"
    from synthdeid.tools.presets import available, load_preset, merge, remove_keys

    for name in available(REPO):
        params = copy.deepcopy(demo_params)
        preset = dict(load_preset(name, REPO))
        removed = preset.pop("remove", [])
        merge(params, preset)
        remove_keys(params, removed, name)
        monkeypatch.chdir(tmp_path)
        for gen in params["generators"].values():  # the paper's pretrained GPT-2: a local folder the user provides
            if "pretrained" in (gen.get("config") or {}):
                Path(gen["config"]["pretrained"]).mkdir(parents=True, exist_ok=True)
                (Path(gen["config"]["pretrained"]) / "config.json").write_text("{}", encoding="utf-8")
        load_study(_write(tmp_path, json.loads(json.dumps(params))))  # raises on any unknown key or bad value


@pytest.mark.parametrize(("name", "edit", "key"), MISTAKES, ids=[m[0] for m in MISTAKES])
def test_every_mistake_is_refused_naming_its_key_and_fix(demo_params, tmp_path, name, edit, key):
    params = copy.deepcopy(demo_params)
    edit(params)
    with pytest.raises(InputError) as e:
        load_study(_write(tmp_path, params))
    message = str(e.value)
    assert key in message, message
    assert "fix:" in message and "Traceback" not in message


@pytest.mark.parametrize(("name", "edit", "key"), MISTAKES[::5], ids=[m[0] for m in MISTAKES[::5]])
def test_check_and_a_stage_refuse_a_mistake_with_the_same_message(
    demo_params, tmp_path, monkeypatch, capsys, name, edit, key
):
    params = copy.deepcopy(demo_params)
    edit(params)
    path = _write(tmp_path, params)
    assert main(["check", "--params", str(path)]) == 1
    from_check = capsys.readouterr().err
    assert key in from_check and "ready: `dvc repro`" not in from_check and "Traceback" not in from_check
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(common, "_STUDY", [])
    from synthdeid.stages import prepare

    with pytest.raises(SystemExit) as exit_:
        prepare.main()
    assert exit_.value.code == 1
    from_stage = capsys.readouterr().err
    assert key in from_stage
    assert from_stage.split(": ", 2)[-1].strip() == from_check.split(": ", 2)[-1].strip().removeprefix(str(path))
    assert not (tmp_path / "data").exists()  # refused before the stage read or wrote anything


def test_a_yaml_boolean_where_text_belongs_says_to_quote_it(demo_params, tmp_path):
    params = copy.deepcopy(demo_params)
    params["language"] = False  # what YAML makes of `language: no`
    with pytest.raises(InputError) as e:
        load_study(_write(tmp_path, params))
    assert 'language: "no"' in str(e.value) and "boolean" in str(e.value)


def test_an_unknown_key_names_the_closest_valid_one_and_its_line(demo_params, tmp_path):
    text = (REPO / "params.yaml").read_text(encoding="utf-8").replace("  min_tokens: auto", "  min_token: auto")
    path = tmp_path / "params.yaml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(InputError) as e:
        load_study(path)
    line = next(i for i, t in enumerate(text.splitlines(), 1) if t.startswith("  min_token:"))
    assert e.value.line == line
    assert "generate.min_token" in e.value.problem and "`min_tokens`" in e.value.problem
    assert e.value.fix == "rename it to `min_tokens`"


def test_quoted_booleans_and_numbers_are_not_read_as_other_types(demo_params, tmp_path):
    for dotted, value in (
        ("tags.keep_unmapped", "false"),
        ("generate.tag_safe", "yes"),
        ("prepare.seed", "1"),
        ("inline.tokenize", 1),
    ):
        params = copy.deepcopy(demo_params)
        section, key = dotted.split(".")
        params[section][key] = value
        with pytest.raises(InputError, match=re.escape(dotted)):
            load_study(_write(tmp_path, params))


def test_yaml_number_forms_are_read_as_numbers(demo_params, tmp_path):
    params = copy.deepcopy(demo_params)
    params["utility"]["significance"]["alpha"] = "5e-2"  # PyYAML reads 5e-2 (no dot) as a string
    params["corpus"]["demo"]["n_docs"] = 1000.0
    study = load_study(_write(tmp_path, params))
    assert study.utility.significance.alpha == 0.05 and study.corpus.demo.n_docs == 1000


def test_the_params_reference_and_schema_are_generated_from_the_spec():
    assert (REPO / "docs/params.md").read_text(encoding="utf-8") == reference(), (
        "docs/params.md is stale: run `synthdeid schema --markdown --output docs/params.md`"
    )
    on_disk = json.loads((REPO / "docs/params.schema.json").read_text(encoding="utf-8"))
    assert on_disk == json.loads(json.dumps(json_schema())), (
        "docs/params.schema.json is stale: run `synthdeid schema --output docs/params.schema.json`"
    )


def test_the_schema_accepts_the_demo_params_and_refuses_an_unknown_key(demo_params):
    jsonschema = pytest.importorskip("jsonschema")
    schema = json_schema()
    jsonschema.validate(demo_params, schema)
    bad = copy.deepcopy(demo_params)
    bad["generate"]["min_token"] = 5
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(bad, schema)
    bad = copy.deepcopy(demo_params)
    bad["generators"]["lstm"]["config"]["max_epoch"] = 5  # a plugin config is checked by its plugin's schema
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(bad, schema)


OPEN = ("config", "format_options", "mapping", "metrics", "model_metrics")
"""Keys whose contents another declaration owns (a plugin's config, a reader's options, a label map)."""


def known_key(dotted: str) -> bool:
    """Whether the spec has the key ``dotted``: any name where a section holds named entries
    (``generators.x``), anything below an ``OPEN`` key."""
    return _known(Study, dotted.split("."))


def _known(kind: Any, parts: list[str]) -> bool:
    if not parts or not (isinstance(kind, type) and issubclass(kind, BaseModel)):
        return True
    field = kind.model_fields.get(parts[0])
    if field is None:
        return False
    if parts[0] in OPEN:
        return True
    inner = field.annotation
    if typing.get_origin(inner) is dict:  # named entries: skip the name
        return len(parts) < 3 or _known(typing.get_args(inner)[1], parts[2:])
    args = [a for a in typing.get_args(inner) if a is not type(None)]
    return _known(args[0] if len(args) == 1 else inner, parts[1:])


SECTIONS = tuple(Study.model_fields)
DOTTED = re.compile(r"(?:`|-S )((?:{})(?:\.[A-Za-z_*][\w*]*)+)".format("|".join(SECTIONS)))
"""A dotted key in backticks, or set with ``dvc exp run -S KEY=VALUE``."""


def test_params_presets_and_docs_name_only_keys_the_spec_knows():
    assert not known_key("generate.min_token") and not known_key("corpora.lstm_p.decodr")
    assert known_key("generators.lstm.config.max_epochs") and known_key("utility.learning_curve.fractions")
    unknown = []
    assert DOTTED.findall("run `dvc exp run -S generate.top_p=0.9` or set `corpus.path`") == [
        "generate.top_p",
        "corpus.path",
    ]
    for path in [
        REPO / "README.md",
        *sorted((REPO / "docs").glob("*.md")),
        REPO / "params.yaml",
        *sorted((REPO / "presets").glob("*.yaml")),
    ]:
        if path.name == "params.md":
            continue
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            for key in DOTTED.findall(line):
                key = re.sub(r"\.(NAME|CORPUS|\*)", ".x", key.split("=")[0].removesuffix(".*"))
                if not known_key(key):
                    unknown.append(f"{path.relative_to(REPO)}:{n}: {key}")
    assert not unknown, "keys the study spec does not know:\n" + "\n".join(unknown)


def test_check_names_a_key_dvc_tracks_that_the_params_file_lacks(demo_params, tmp_path, monkeypatch, capsys):
    params = copy.deepcopy(demo_params)
    del params["prepare"]["seed"]  # the spec's default would do, but `dvc repro` stops on a tracked key
    path = _write(tmp_path, params)
    monkeypatch.chdir(tmp_path)
    (tmp_path / "dvc.yaml").write_text((REPO / "dvc.yaml").read_text(encoding="utf-8"), encoding="utf-8")
    assert main(["check", "--params", str(path)]) == 1
    err = " ".join(capsys.readouterr().err.split())
    assert "missing key prepare.seed, which dvc.yaml's stage report tracks" in err and "fix:" in err


def test_the_spec_knows_the_fresh_surrogate_shapes_the_code_draws():
    from synthdeid.spec.fresh_settings import SHAPES, FreshSettings
    from synthdeid.spec.study import CorpusSpec

    # one declaration: the spec's field is the settings class the code draws with
    assert CorpusSpec.model_validate({"generator": "g", "decoder": "d", "fresh_surrogates": True}).fresh_surrogates == (
        FreshSettings()
    )
    assert FreshSettings.model_json_schema()["properties"]["shapes"]["enum"] == list(SHAPES)


def test_checking_the_demo_study_imports_no_heavy_library() -> None:
    """Every stage checks the whole spec first: with the plugins' declared settings classes that
    costs no torch, transformers, flair or scipy.stats import (about 2 s a stage otherwise)."""
    import subprocess
    import sys

    code = (
        "import sys; from synthdeid.spec import load_study; load_study('params.yaml'); "
        "print(' '.join(m for m in ('torch', 'transformers', 'flair', 'scipy.stats') if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == ""


# ---- a plugin's settings are checked against the class it registered with, never by building it ------


def test_the_spec_checks_a_plugins_settings_without_calling_its_factory(demo_params, tmp_path, register_plugin):
    from synthdeid import hookimpl
    from synthdeid.spec.references import check
    from synthdeid.toolkit import Settings, setting

    class StrictSettings(Settings):
        top_p: float = setting(0.9, gt=0, le=1, description="a bounded setting")

    def explode(config):
        raise AssertionError("the spec called the factory")

    class Declared:
        @hookimpl
        def register_decoders(self, register):
            register("intest_strict", explode, config=StrictSettings)
            register("intest_bare", explode, config=None)

    register_plugin(Declared, "intest-declared")
    params = copy.deepcopy(demo_params)
    params["corpora"]["lstm_p"].update(decoder="intest_strict", config={"top_p": 0.5})
    params["corpora"]["lstm_temp"].update(decoder="intest_bare", config={})
    unchecked = load_study(_write(tmp_path, params), check_plugins=False)
    assert unchecked.corpora["lstm_p"].settings == {"top_p": 0.5}  # not checked: the params mapping
    assert check(unchecked) == []  # explode never ran
    # the settings the spec built are what the stage hands the factory: nothing parses them again
    assert unchecked.corpora["lstm_p"].settings == StrictSettings(top_p=0.5)
    assert load_study(_write(tmp_path, params)).corpora["lstm_p"].settings == StrictSettings(top_p=0.5)
    params["corpora"]["lstm_p"]["config"] = {"top_p": 2}
    params["corpora"]["lstm_temp"]["config"] = {"top_k": 5}
    with pytest.raises(InputError) as err:
        load_study(_write(tmp_path, params))
    message = str(err.value)
    assert "corpora.lstm_p.config.top_p" in message
    assert "corpora.lstm_temp.config" in message and "decoder 'intest_bare' takes no settings, got: top_k" in message


def test_a_decoders_settings_are_built_once_from_params_to_the_stage(demo_params, tmp_path, monkeypatch):
    """``corpora.NAME.config`` is validated once, when the spec is loaded; the stage hands those
    settings to the registry, whose factory returns the decoder without parsing anything again."""
    from synthdeid.plugin_system.manager import registry
    from synthdeid.plugins.decoders import Nucleus

    built = []
    validate = Nucleus.model_validate.__func__  # type: ignore[attr-defined]
    monkeypatch.setattr(
        Nucleus, "model_validate", classmethod(lambda cls, *a, **k: built.append(a) or validate(cls, *a, **k))
    )
    params = copy.deepcopy(demo_params)
    params["corpora"]["lstm_p"].update(decoder="nucleus", config={"top_p": 0.8})
    study = load_study(_write(tmp_path, params))
    spec = study.corpora["lstm_p"]
    decoder = registry("decoder").create(spec.decoder, spec.settings)  # what stages/generate.py does
    assert decoder is spec.settings and decoder.top_p == 0.8
    assert built.count(({"top_p": 0.8},)) == 1  # once, at load
    assert len(built) == sum(c.decoder == "nucleus" for c in study.corpora.values())  # once per corpus
