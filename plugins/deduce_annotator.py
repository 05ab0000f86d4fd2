"""DEDUCE (Menger et al. 2018), the rule-based Dutch de-identifier, as the ``deduce`` annotator:
the rule-based baseline of the Libbi paper's Table 6. Its tags are mapped onto the canonical set."""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path
from typing import Any, ClassVar

from pydantic import ValidationInfo, field_validator

from synthdeid import Span, SynthdeidError, hookimpl
from synthdeid.api import RegisterAnnotator
from synthdeid.toolkit import SettingError, Settings, pickles_trusted, setting, unpickling

from . import deduce_cache

TRUST_FIX = (
    "leave cache_path out (DEDUCE's cache in this environment is used), or point it inside the "
    "environment; only for a folder you built yourself and no one else can write to, set "
    "`trust_cache: true` beside it"
)


class CachePathRefused(SettingError):
    """A ``cache_path`` outside the environment, not trusted: ``setting``, ``problem`` and ``fix``.
    Raised while the settings are validated, it is the error of the setting ``cache_path`` (the
    study spec names the key ``annotate.config.cache_path``); its text says the fix too."""

    setting = "cache_path"

    def __init__(self, problem: str, fix: str) -> None:
        self.problem, self.fix = problem, fix
        super().__init__(f"{problem}; {fix}")


class DeduceConfig(Settings):
    """DEDUCE's settings. DEDUCE loads its lookup structures from ``<cache_path>/cache/
    lookup_structs.pickle``, a pickle, which runs whatever code it holds: a ``cache_path`` outside
    this Python environment (``sys.prefix``, where DEDUCE keeps its own) is refused unless
    ``trust_cache: true`` says you built that folder (or, from Python, inside
    ``synthdeid.model_files.trusting_pickles``, which ``--trust-model`` sets); trusted, unpickling
    it prints a warning."""

    languages: ClassVar[tuple[str, ...]] = ("nl",)
    """DEDUCE's rules and word lists are Dutch (``synthdeid.api.LanguageSpecific``): declared on the
    settings too, so the study spec checks the language without building the annotator."""

    # trust_cache first: cache_path's check reads it
    trust_cache: bool = setting(False, description="unpickle a cache from a cache_path outside the environment")
    """Unpickle a cache from a ``cache_path`` outside the environment (a folder you built yourself)."""
    cache_path: str | None = setting(None, description="a folder for DEDUCE's lookup cache (null: DEDUCE's own folder)")
    """A folder for DEDUCE's lookup cache (built there on first use); None: DEDUCE's own folder."""

    @field_validator("cache_path")
    @classmethod
    def _inside_or_trusted(cls, cache_path: str | None, info: ValidationInfo) -> str | None:
        outside = deduce_cache.untrusted_cache(cache_path)
        if outside is not None and not (info.data.get("trust_cache") is True or pickles_trusted()):
            raise CachePathRefused(
                f"lies outside this Python environment"
                f"{'' if str(outside) == cache_path else f' (it resolves to {outside})'}: DEDUCE "
                f"would unpickle its {deduce_cache.CACHE_FILE}, which runs whatever code it holds; not loaded",
                fix=TRUST_FIX,
            )
        return cache_path


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


@cache
def _deduce(cache_path: str | None) -> Any:
    """One DEDUCE per process and cache folder (``deduce_cache.load``)."""
    cached = Path(cache_path or ".") / deduce_cache.CACHE_FILE
    if deduce_cache.untrusted_cache(cache_path) is not None and cached.is_file():
        unpickling(cached, "a trusted DEDUCE cache_path")
    return deduce_cache.load(cache_path)


REDACTOR = "redactor"
"""The name of DEDUCE's processor that writes the redacted text, which the annotator does not use."""


class DeduceAnnotator:
    """Runs DEDUCE over a note and returns canonical spans."""

    languages: tuple[str, ...] = DeduceConfig.languages
    """DEDUCE's rules and word lists are Dutch (``synthdeid.api.LanguageSpecific``)."""

    def __init__(self, config: DeduceConfig | None = None) -> None:
        self.config = DeduceConfig() if config is None else config
        self.cache_path = self.config.cache_path

    def annotate(self, text: str) -> list[Span]:
        # the annotations only: DEDUCE's redactor writes a redacted copy of the text by string
        # replacement, which grew faster than the note (a 1.7 MB note: 81 s with it, 20 s without)
        doc = _deduce(self.cache_path).deidentify(text, disabled={REDACTOR})
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
    register("deduce", DeduceAnnotator, config=DeduceConfig)
