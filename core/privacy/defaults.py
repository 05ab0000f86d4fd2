"""The privacy audit's defaults, importable without numpy or scipy: the privacy-metric plugins'
settings classes (``synthdeid.plugins.privacy.config``) take them as their defaults, and the
registry checks those settings without loading the audit math."""

from __future__ import annotations

from synthdeid.corpus.tags import CANONICAL_TAGS

DEFAULT_CHUNK_CELLS = 4_000_000
"""Synthetic x real cells of one dense chunk of the overlap matrix (int64: 32 MB)."""

STRUCTURE_PATTERN = r"<[^<>\s]+>|[\W_]+"
"""Structure tokens: a tag such as ``<PAR>``, or punctuation/whitespace only."""

AGE_BELOW = 90
"""HIPAA Safe Harbor: ages over 89 are identifiers (aggregated into "90 or older")."""
COMMON_NOTES = 3
COMMON_LABELS: tuple[str, ...] = (
    "Age",
    "Date",
    "Profession",
    "Hospital",
    "Care_Institute",
    "Organization_Company",
    "Internal_Location",
    "Other",
)
"""Canonical labels (``synthdeid.corpus.tags``) whose common values identify no one."""
DIRECT_IDENTIFIERS = frozenset(CANONICAL_TAGS) - frozenset(COMMON_LABELS)
"""Name, Initials, Address, Email, Phone_fax, URL_IP, SSN, ID: always identifying."""
