"""DEDUCE (Menger et al. 2018), the rule-based Dutch de-identifier, as the ``deduce`` annotator:
the rule-based baseline of the Libbi paper's Table 6. Its tags are mapped onto the canonical set."""

from __future__ import annotations

import gc
import getpass
import hashlib
import inspect
import logging
import os
import re
import tempfile
from functools import cache
from pathlib import Path
from typing import Any

from filelock import FileLock

from synthdeid import Span, SynthdeidError, hookimpl
from synthdeid.api import RegisterAnnotator

DEDUCE_TAGS: dict[str, str] = {
    "persoon": "Name",
    "patient": "Name",
    "voornaam": "Name",
    "achternaam": "Name",
    "pseudo_name": "Name",
    "locatie": "Address",
    "straat": "Address",
    "datum": "Date",
    "leeftijd": "Age",
    "telefoonnummer": "Phone_fax",
    "emailadres": "Email",
    "url": "URL_IP",
    "bsn": "SSN",
    "id": "ID",
    "ziekenhuis": "Hospital",
    "zorginstelling": "Care_Institute",
    "instelling": "Organization_Company",
}
# DEDUCE includes titles in person spans ("Dhr. Jan Jansen"); the canonical Name does not.
_TITLE = re.compile(
    r"^(?:(?:dhr|mw|mevr|mr|dr|drs|prof|ir|ing|zr|br)\.?|de heer|mevrouw|meneer|zuster|broeder)\s+", re.I
)


def import_deduce() -> Any:
    """The ``deduce`` module, imported without the logging set-up it does on import (every
    library's debug messages to stdout)."""
    root = logging.getLogger()
    handlers, level = list(root.handlers), root.level
    try:
        import deduce
    finally:
        root.handlers[:] = handlers
        root.setLevel(level)
    return deduce


def build_lock(cache_path: str | Path | None) -> FileLock:
    """The lock every process holds while it builds or loads DEDUCE with this ``cache_path``.

    DEDUCE builds its lookup structures on first use (about a minute) and pickles them into its
    cache folder without an atomic rename, so a process starting meanwhile would read a half-written
    file; two stages or a stage and ``synthdeid deidentify`` at once would. Under the lock the first
    process builds and the others wait, then load the finished cache in a few seconds. One lock
    file per user and cache folder, in the temporary folder (DEDUCE's own folder may be read-only)."""
    user = os.getuid() if hasattr(os, "getuid") else getpass.getuser()
    where = Path(cache_path).resolve() if cache_path else "default"
    key = hashlib.sha256(f"{user}:{where}".encode()).hexdigest()[:16]
    return FileLock(Path(tempfile.gettempdir()) / f"synthdeid-deduce-{key}.lock")


def _default_cache_path(deduce: Any) -> str | None:
    """Where ``deduce.Deduce()`` keeps its cache when given none (its ``cache_path`` default)."""
    parameter = inspect.signature(deduce.Deduce).parameters.get("cache_path")
    default = None if parameter is None else parameter.default
    return None if default in (None, inspect.Parameter.empty) else str(default)


@cache
def _deduce(cache_path: str | None) -> Any:
    deduce = import_deduce()
    gc.disable()  # DEDUCE's lookup structures build ~4x faster without the cyclic GC
    try:
        with build_lock(cache_path or _default_cache_path(deduce)):
            model = deduce.Deduce(**({"cache_path": cache_path} if cache_path else {}))
    finally:
        # They are millions of objects that live as long as the process: frozen, the cyclic GC
        # no longer walks them at every collection while annotating, nor at interpreter exit
        # (which took 11 of a smoke predict_rule's 18 s).
        gc.freeze()
        gc.enable()
    return model


class DeduceAnnotator:
    """Runs DEDUCE over a note and returns canonical spans."""

    languages: tuple[str, ...] = ("nl",)
    """DEDUCE's rules and word lists are Dutch (``synthdeid.api.LanguageSpecific``)."""

    def __init__(self, cache_path: str | None = None) -> None:
        self.cache_path = cache_path

    def annotate(self, text: str) -> list[Span]:
        doc = _deduce(self.cache_path).deidentify(text)
        spans: list[Span] = []
        for a in sorted(doc.annotations, key=lambda a: (a.start_char, -a.end_char)):
            label = DEDUCE_TAGS.get(a.tag)
            if label is None:
                raise SynthdeidError(
                    f"DEDUCE produced the tag {a.tag!r}, which synthdeid does not map; "
                    "add it to synthdeid.plugins.deduce_annotator.DEDUCE_TAGS"
                )
            start, end = a.start_char, a.end_char
            if label == "Name":
                m = _TITLE.match(text[start:end])
                if m and start + m.end() < end:
                    start += m.end()
            if spans and start < spans[-1].end:  # overlapping annotations: keep the first, longer one
                continue
            spans.append(Span(int(start), int(end), label))  # DEDUCE may give numpy integers
        return spans


@hookimpl
def register_annotators(register: RegisterAnnotator) -> None:
    register("deduce", lambda config: DeduceAnnotator(config.get("cache_path")))
