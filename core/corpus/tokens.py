"""The types of a text's token (or sentence) offsets, defined with the corpus so that its modules
need not import the plugin API; ``synthdeid.api`` (and ``synthdeid.toolkit``) re-export them."""

from __future__ import annotations

from collections.abc import Callable

Offsets = list[tuple[int, int]]
"""Character ranges ``(start, end)`` into a text."""
Tokenize = Callable[[str], Offsets]
"""A language pack's tokenizer: the character ranges of a text's tokens."""
