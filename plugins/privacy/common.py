"""What the privacy-metric plugins share: config parsing and the tokenized corpus."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from synthdeid import SynthdeidError
from synthdeid.api import PrivacyInput
from synthdeid.privacy.audit import PAR, AuditCorpus
from synthdeid.privacy.audit.rouge import DEFAULT_CHUNK_CELLS


@dataclass(frozen=True)
class TokenSettings:
    """Settings every privacy metric has."""

    lowercase: bool = True
    """Compare tokens lowercased."""
    paragraph_token: str | None = PAR
    """Each line break becomes this token (None: line breaks are not tokens)."""
    chunk_cells: int = DEFAULT_CHUNK_CELLS
    """Synthetic x real cells per chunk of the all-pairs matrices (bounds memory)."""

    def check(self, name: str) -> None:
        if not isinstance(self.lowercase, bool):
            raise SynthdeidError(f"privacy metric {name!r}: lowercase must be true or false")
        if self.paragraph_token is not None and (not isinstance(self.paragraph_token, str) or not self.paragraph_token):
            raise SynthdeidError(f"privacy metric {name!r}: paragraph_token must be a non-empty string or null")
        if not isinstance(self.chunk_cells, int) or self.chunk_cells < 1:
            raise SynthdeidError(f"privacy metric {name!r}: chunk_cells must be a positive integer")


def ns_setting(name: str, key: str, value: Any) -> tuple[int, ...]:
    """A list of n-gram sizes from params (an int or a list of ints >= 1) as a sorted tuple."""
    values = [value] if isinstance(value, int) and not isinstance(value, bool) else value
    if (not isinstance(values, (list, tuple)) or not values
            or not all(isinstance(v, int) and not isinstance(v, bool) and v >= 1 for v in values)):
        raise SynthdeidError(f"privacy metric {name!r}: {key} must be a list of integers >= 1, not {value!r}")
    return tuple(sorted(set(values)))


def audit_corpus(name: str, data: PrivacyInput, settings: TokenSettings, lowercase: bool | None = None) -> AuditCorpus:
    """The tokenized corpus of ``data``; an error when there are no real notes to compare with."""
    if not len(data.real):
        raise SynthdeidError(f"privacy metric {name!r} needs the real training notes, and got none; "
                             "point the privacy stage at the generator's training split")
    lower = settings.lowercase if lowercase is None else lowercase
    # metrics run on the same input share one tokenized corpus (and its cached matrices)
    cache = data.extra.setdefault("audit_corpora", {})
    key = (lower, settings.paragraph_token)
    if key not in cache:
        cache[key] = AuditCorpus(data.real, data.synthetic, data.tokenize, lower, settings.paragraph_token)
    return cache[key]
