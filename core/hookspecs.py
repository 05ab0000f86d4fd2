"""The hooks a synthdeid plugin implements: one ``register_*`` hook per kind of plugin.

Each hook receives a ``register(name, factory)`` callback. ``factory`` is called later with the
plugin's config (a mapping from params.yaml) and returns the plugin object; synthdeid owns name
collisions and lookup.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from pluggy import HookimplMarker, HookspecMarker

hookspec = HookspecMarker("synthdeid")
hookimpl = HookimplMarker("synthdeid")

Register = Callable[[str, Callable[..., Any]], None]


@hookspec
def register_annotators(register: Register) -> None:
    """Register PHI annotators: ``factory(config) -> Annotator`` (``annotate(text) -> list[Span]``)."""


@hookspec
def register_generators(register: Register) -> None:
    """Register text generators (language models trained on inline-tag text)."""


@hookspec
def register_decoders(register: Register) -> None:
    """Register decoding strategies (nucleus, temperature, beam, ...) for the generators."""


@hookspec
def register_taggers(register: Register) -> None:
    """Register downstream de-identification taggers (NER models)."""


@hookspec
def register_privacy_metrics(register: Register) -> None:
    """Register privacy metrics comparing synthetic notes with real ones."""


@hookspec
def register_languages(register: Register) -> None:
    """Register language packs: ``factory(config) -> LanguagePack`` (tokenizer, sentence
    splitter, surrogate generator and tag mapping for one language)."""
