"""``keep_freed_memory``: glibc's thresholds are set where glibc is, nothing happens elsewhere."""

from __future__ import annotations

import ctypes
import platform

import pytest

from synthdeid import allocator


@pytest.mark.skipif(platform.system() != "Linux" or platform.libc_ver()[0] != "glibc", reason="glibc only")
def test_sets_the_thresholds_on_glibc() -> None:
    assert allocator.keep_freed_memory() is True


def test_without_glibc_it_does_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    def missing(name: str) -> None:
        raise OSError(f"{name}: cannot open shared object file")

    monkeypatch.setattr(ctypes, "CDLL", missing)
    assert allocator.keep_freed_memory() is False


def test_every_stage_keeps_freed_memory(monkeypatch: pytest.MonkeyPatch) -> None:
    from synthdeid.stages import common

    calls: list[str] = []
    monkeypatch.setattr(common, "keep_freed_memory", lambda: calls.append("kept") or True)
    common.stage_main(lambda: calls.append("ran"))()
    assert calls == ["kept", "ran"]
