"""What the privacy-metric plugins share: the tokenized corpus."""

from __future__ import annotations

from synthdeid import SynthdeidError
from synthdeid.api import PrivacyInput
from synthdeid.toolkit import AuditCorpus

from .config import TokenSettings


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
