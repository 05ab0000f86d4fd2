"""The first documentation a plugin author reads is the docstring (docs/api.md renders them with
mkdocstrings): every public class, function and method of ``synthdeid.api`` and every class and
function ``synthdeid.toolkit`` exports has one."""

from __future__ import annotations

import inspect

from synthdeid import api, toolkit


def _undocumented() -> list[str]:
    missing = []
    for name, obj in vars(api).items():
        if name.startswith("_") or getattr(obj, "__module__", None) != api.__name__:
            continue
        if inspect.isclass(obj) or inspect.isfunction(obj):
            if not (obj.__doc__ or "").strip():
                missing.append(f"synthdeid.api.{name}")
            for member, f in vars(obj).items() if inspect.isclass(obj) else ():
                if not member.startswith("_") and inspect.isfunction(f) and not (f.__doc__ or "").strip():
                    missing.append(f"synthdeid.api.{name}.{member}")
    for name in toolkit.__all__:
        obj = getattr(toolkit, name)
        if (inspect.isclass(obj) or inspect.isfunction(obj)) and not (obj.__doc__ or "").strip():
            missing.append(f"synthdeid.toolkit.{name}")
    return missing


def test_every_public_api_and_toolkit_name_has_a_docstring() -> None:
    assert len(api.__dict__) > 40 and len(toolkit.__all__) > 40  # both surfaces were read
    assert _undocumented() == []
