"""The language a command's notes are in: ``--language``, else the project's params.yaml."""

from __future__ import annotations

from pathlib import Path

from .errors import InputError


def command_language(given_language: str | None) -> str:
    """``--language`` (``given_language``), else params.yaml's ``language``: an installed language pack's code."""
    from synthdeid.plugin_system.manager import registry

    from .params import PARAMS_FILE, load_params

    language: object
    if given_language:
        language, given, where = given_language, f"--language {given_language!r}", None
    elif Path(PARAMS_FILE).exists():
        language = load_params(PARAMS_FILE).get("language")
        if not language:
            raise InputError(
                "which language are the notes in? params.yaml sets no `language`",
                path=PARAMS_FILE,
                fix="pass --language (e.g. nl, es, sv), the pack the tagger was trained with",
            )
        given, where = f"language {language!r}", PARAMS_FILE
    else:
        raise InputError(
            "which language are the notes in?",
            fix="pass --language (e.g. nl, es, sv), the pack the "
            "tagger was trained with; in a synthdeid project it is params.yaml's `language`",
        )
    packs = registry("language")
    if not isinstance(language, str) or language not in packs:
        raise InputError(
            f"{given} is not an installed language pack",
            path=where,
            fix=f"use one of {', '.join(packs.names())} (`synthdeid plugins` lists them), or install "
            "the pack's package (`synthdeid new-plugin language` writes a new one)",
        )
    return language


def check_annotator_language(annotator: object, name: str | None, language: str) -> None:
    """An annotator that declares its languages (``LanguageSpecific``: deduce is Dutch) is refused
    for notes in another one: it would find little PHI and say nothing about it."""
    from synthdeid.api import LanguageSpecific

    if isinstance(annotator, LanguageSpecific) and language not in annotator.languages:
        raise InputError(
            f"the annotator {name!r} works on {', '.join(annotator.languages)} notes only, not on {language!r} ones",
            fix=f"pass --language {annotator.languages[0]} if the notes are in that "
            "language; otherwise use a tagger trained on notes in this language (--model DIR)",
        )
