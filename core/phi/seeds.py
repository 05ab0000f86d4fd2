"""Seeds derived per document for a language pack's surrogates. The language-pack contract
(``LanguagePack``, ``DocumentSurrogates``) is declared in ``synthdeid.api``."""

from __future__ import annotations

import hashlib


def derive_seed(seed: int, *parts: object) -> int:
    """A stable 63-bit seed from a base seed and e.g. a document id (independent of order)."""
    h = hashlib.sha256(repr((int(seed), *map(str, parts))).encode("utf-8")).digest()
    return int.from_bytes(h[:8], "big") >> 1
