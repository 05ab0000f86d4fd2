"""What the privacy-metric plugins share: config parsing and the tokenized corpus."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from synthdeid import SynthdeidError
from synthdeid.api import PrivacyInput
from synthdeid.toolkit import DEFAULT_CHUNK_CELLS, PAR, AuditCorpus, check_bounds, setting


@dataclass(frozen=True)
class TokenSettings:
    """Settings every privacy metric has."""

    lowercase: bool = setting(True, description="compare tokens lowercased")
    """Compare tokens lowercased."""
    paragraph_token: str | None = setting(
        PAR, description="each line break becomes this token (null: line breaks are not tokens)"
    )
    """Each line break becomes this token (None: line breaks are not tokens)."""
    chunk_cells: int = setting(
        DEFAULT_CHUNK_CELLS,
        ge=1,
        description="synthetic x real cells per chunk of the all-pairs matrices (bounds memory)",
    )
    """Synthetic x real cells per chunk of the all-pairs matrices (bounds memory)."""

    def check(self, name: str) -> None:
        """Check the declared bounds of every field of the metric's config (its own too) and the
        settings a bound cannot express; for the config's ``__post_init__``."""
        what = f"privacy metric {name!r}"
        check_bounds(self, what)
        if not isinstance(self.lowercase, bool):  # from_mapping does not check bools
            raise SynthdeidError(f"{what}: lowercase must be true or false")
        if self.paragraph_token is not None and (not isinstance(self.paragraph_token, str) or not self.paragraph_token):
            raise SynthdeidError(f"{what}: paragraph_token must be a non-empty string or null")


def ns_setting(name: str, key: str, value: Any) -> tuple[int, ...]:
    """A list of n-gram sizes from params (an int or a list of ints >= 1) as a sorted tuple (a
    bound on every element of a list, which ``setting`` cannot declare)."""
    values = [value] if isinstance(value, int) and not isinstance(value, bool) else value
    if (
        not isinstance(values, (list, tuple))
        or not values
        or not all(isinstance(v, int) and not isinstance(v, bool) and v >= 1 for v in values)
    ):
        raise SynthdeidError(
            f"privacy metric {name!r}: setting {key!r} must be a list of whole numbers >= 1, got {value!r}"
        )
    return tuple(sorted(set(values)))


def audit_corpus(name: str, data: PrivacyInput, settings: TokenSettings, lowercase: bool | None = None) -> AuditCorpus:
    """The tokenized corpus of ``data``; an error when there are no real notes to compare with."""
    if not len(data.real):
        raise SynthdeidError(
            f"privacy metric {name!r} needs the real training notes, and got none; "
            "point the privacy stage at the generator's training split"
        )
    lower = settings.lowercase if lowercase is None else lowercase
    # metrics run on the same input share one tokenized corpus (and its cached matrices)
    cache = data.extra.setdefault("audit_corpora", {})
    key = (lower, settings.paragraph_token)
    if key not in cache:
        cache[key] = AuditCorpus(data.real, data.synthetic, data.tokenize, lower, settings.paragraph_token)
    return cache[key]
