"""Params presets: ``synthdeid preset NAME`` merges ``presets/NAME.yaml`` into params.yaml,
keeping its comments. ``demo`` holds the default value of every key any other preset changes,
and lists under ``remove`` every key another preset adds (a generator, a corpus), so
``synthdeid preset demo`` always goes back to the defaults. A preset may start from another one
(``extends: full``): the other's keys first, then its own on top, as if both were applied in turn."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from synthdeid.errors import InputError

PRESETS_DIR = "presets"
REMOVE = "remove"
"""A preset's list of dotted keys to delete from params.yaml after merging (absent keys are fine)."""
EXTENDS = "extends"
"""The name of the preset a preset starts from."""


def available(root: str | Path = ".") -> list[str]:
    return sorted(p.stem for p in (Path(root) / PRESETS_DIR).glob("*.yaml"))


def _yaml() -> Any:
    from ruamel.yaml import YAML  # DVC's own YAML library: round-trips comments

    y = YAML()
    y.preserve_quotes = True
    y.width = 120
    return y


def _load_mapping(path: Path, what: str, fix: str) -> Any:
    """The YAML mapping in ``path`` (comments kept); an error naming the file when it cannot be
    read, is not UTF-8, is not YAML or holds something other than ``key: value`` pairs."""
    from ruamel.yaml import YAMLError

    if path.is_dir():
        raise InputError(f"{what} is a folder, not a YAML file", path=path, fix=fix)
    try:
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError as e:
        raise InputError(
            f"{what} is not UTF-8 text (byte {e.object[e.start]:#04x} at offset {e.start})",
            path=path,
            line=e.object[: e.start].count(b"\n") + 1,
            fix="save the file as UTF-8",
        ) from None
    except FileNotFoundError:
        raise InputError(f"{what} not found", path=path, fix=fix) from None
    except OSError as e:
        raise InputError(
            f"{what} cannot be read ({e.strerror or e})", path=path, fix="check the file's permissions"
        ) from None
    try:
        data = _yaml().load(text)
    except YAMLError as e:
        mark = getattr(e, "problem_mark", None)
        problem = " ".join(str(getattr(e, "problem", None) or e).split())
        raise InputError(
            f"{what} is not valid YAML ({problem})",
            path=path,
            line=None if mark is None else mark.line + 1,
            fix="fix the YAML syntax",
        ) from None
    if data is None:
        return {}
    if not isinstance(data, dict):
        kind = "list" if isinstance(data, list) else type(data).__name__
        raise InputError(
            f"{what} must be a mapping of `key: value` pairs, not a {kind}",
            path=path,
            fix="write `key: value` pairs at the top level",
        )
    return data


def load_preset(name: str, root: str | Path = ".", _chain: tuple[str, ...] = ()) -> dict[str, Any]:
    """The preset's keys, those of the preset it ``extends`` (and so on) merged under its own; the
    ``remove`` lists of the chain joined."""
    path = Path(root) / PRESETS_DIR / f"{name}.yaml"
    if not isinstance(name, str) or Path(name).name != name or name in ("", ".", "..") or not path.exists():
        names = available(root)
        raise InputError(
            f"no preset {name!r}" + (f" (the one {_chain[-1]!r} extends)" if _chain else ""),
            path=path,
            fix="choose one of: " + ", ".join(names)
            if names
            else f"run from the project folder (the one holding {PRESETS_DIR}/ and params.yaml)",
        )
    if name in _chain:
        raise InputError(
            "presets extend each other in a circle: " + " -> ".join((*_chain, name)),
            path=path,
            fix=f"remove `{EXTENDS}:` from one of them",
        )
    preset = _load_mapping(path, f"preset {name!r}", fix=f"give {PRESETS_DIR}/{name}.yaml `key: value` pairs")
    if EXTENDS not in preset:
        return preset
    own = dict(preset)
    base_name = own.pop(EXTENDS)
    base = load_preset(base_name, root, (*_chain, name))
    # applied in turn, the base's removals come before this preset's keys, which may set them again
    drop = [k for k in _dotted_keys(base.pop(REMOVE, []), str(base_name)) if not _has(own, k)]
    drop += _dotted_keys(own.pop(REMOVE, []), name)
    merge(base, own)
    if drop:
        base[REMOVE] = drop
    return base


def merge(target: Any, overlay: Any, prefix: str = "") -> list[str]:
    """Deep-merge ``overlay`` into ``target`` (mappings merge, anything else replaces; a plugin's
    ``config`` mapping is opaque and replaced whole); returns the dotted keys that were set."""
    changed = []
    for key, value in overlay.items():
        dotted = f"{prefix}{key}"
        if isinstance(value, dict) and isinstance(target.get(key), dict) and key != "config":
            changed += merge(target[key], value, dotted + ".")
        else:
            target[key] = value
            changed.append(dotted)
    return changed


def _has(tree: Any, dotted: str) -> bool:
    for part in dotted.split("."):
        if not isinstance(tree, dict) or part not in tree:
            return False
        tree = tree[part]
    return True


def _dotted_keys(dotted: Any, preset: str) -> list[str]:
    """``dotted`` when it is a list of dotted keys (a preset's ``remove``); an error otherwise."""
    if not isinstance(dotted, list) or not all(isinstance(k, str) and k for k in dotted):
        raise InputError(
            f"preset {preset!r}: {REMOVE!r} must be a list of dotted keys, got {dotted!r}",
            fix="write e.g. remove: [generators.mlm, corpora.mlm_s]",
        )
    return dotted


def remove_keys(target: Any, dotted: Any, preset: str) -> list[str]:
    """Delete each dotted key (``dotted`` must be a list of them) from ``target`` where present;
    returns the keys deleted."""
    removed = []
    for key in _dotted_keys(dotted, preset):
        *parents, last = key.split(".")
        node = target
        for part in parents:
            node = node.get(part) if isinstance(node, dict) else None
        if isinstance(node, dict) and last in node:
            del node[last]
            removed.append(f"-{key}")
    return removed


def apply_preset(name: str, params_path: str | Path = "params.yaml", root: str | Path = ".") -> list[str]:
    """Merge the preset into the params file in place, then delete its ``remove`` keys; returns the
    keys set (and ``-key`` for each deleted). A preset that reads real data (``corpus.source`` other
    than ``demo``) always leaves ``privacy.gate.override`` false."""
    y = _yaml()
    p = Path(params_path)
    preset = dict(load_preset(name, root))  # a wrong preset name is named first, before the params file
    params = _load_mapping(
        p,
        "params file",
        fix="run from the project folder (the one holding params.yaml) or give the params file with --params",
    )
    drop = preset.pop(REMOVE, [])
    changed = merge(params, preset)
    changed += remove_keys(params, drop, name)
    privacy, corpus = params.get("privacy"), params.get("corpus")
    gate = privacy.get("gate") if isinstance(privacy, dict) else None
    gate = gate if isinstance(gate, dict) else {}
    source = corpus.get("source") if isinstance(corpus, dict) else None
    if source != "demo" and gate.get("override"):
        gate["override"] = False  # real data: the privacy gate is never overridden by a preset
        changed.append("privacy.gate.override")
    import json

    from synthdeid.spec import validate

    validate(json.loads(json.dumps(params)), p)  # a preset never writes a key or value the study would refuse
    with open(p, "w", encoding="utf-8") as f:
        y.dump(params, f)
    return changed
