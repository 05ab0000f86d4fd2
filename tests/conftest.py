"""Shared pytest fixtures."""

from __future__ import annotations

import inspect
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest


@pytest.fixture
def register_plugin() -> Iterator[Callable[[Any, str], Any]]:
    """Register in-test plugins on the plugin manager; they are unregistered after the test.

    ``register_plugin(obj, name)`` takes a plugin object (a module, an instance whose methods
    carry ``@hookimpl``, or a class, which is instantiated) and returns what was registered.
    """
    from synthdeid.plugin_system.manager import get_plugin_manager

    registered = []

    def register(obj: Any, name: str) -> Any:
        plugin = obj() if inspect.isclass(obj) else obj
        pm = get_plugin_manager()
        pm.register(plugin, name=name)
        registered.append((pm, name))
        return plugin

    yield register
    for pm, name in reversed(registered):
        pm.unregister(name=name)


@pytest.fixture(scope="session")
def tiny_taggers(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """A tiny trained folder of each tagger plugin, and an old-style flair folder (a flair pickle)."""
    import shutil

    from tiny_taggers import TAGGERS
    from toy_notes import toy_docs

    from synthdeid.corpus.formats.conll import default_tokenize
    from synthdeid.plugins import registry

    out = {}
    for name, config in TAGGERS.items():
        folder = tmp_path_factory.mktemp(name)
        registry("tagger").create(name, config).train(
            toy_docs(12, seed=0), toy_docs(3, seed=1), folder, default_tokenize
        )
        out[name] = folder
    legacy = shutil.copytree(out["flair_bilstm_crf"], tmp_path_factory.mktemp("legacy") / "flair")
    model = registry("tagger").create("flair_bilstm_crf", {}).load(legacy, default_tokenize).model
    model.save(legacy / "best-model.pt")  # flair's own format: what synthdeid wrote before
    (legacy / "model.safetensors").unlink()
    (legacy / "embeddings.json").unlink()
    out["legacy_flair"] = legacy
    return out


FIRST = ("tests/test_pipeline.py", "tests/test_deduce_annotator.py")
"""The longest files (two whole smoke studies and DEDUCE's first load): collected first, so that
``make test``'s two workers (pytest-xdist, ``--dist loadfile``) start them at once and share the
other files out while they run."""


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    rank = {f: i for i, f in enumerate(FIRST)}
    items.sort(key=lambda item: rank.get(item.nodeid.split("::")[0], len(FIRST)))


@pytest.fixture(scope="session")
def local_ray() -> Iterator[Any]:
    """One local Ray of 2 CPUs for the session (it takes seconds to start), shut down at the end;
    tests that use it skip when Ray (the ``ray`` extra) is not installed."""
    ray = pytest.importorskip("ray", reason="Ray is an optional extra: pip install -e '.[ray]'")
    import logging

    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, logging_level=logging.WARNING)
    yield ray
    ray.shutdown()
