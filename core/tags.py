"""The canonical PHI tag set (the Dutch NUT corpus) and label mapping onto it."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from .errors import InputError

CANONICAL_TAGS: tuple[str, ...] = (
    "Name",
    "Initials",
    "Date",
    "Age",
    "Address",
    "Email",
    "Phone_fax",
    "URL_IP",
    "SSN",
    "ID",
    "Hospital",
    "Care_Institute",
    "Organization_Company",
    "Internal_Location",
    "Profession",
    "Other",
)


class TagSet:
    """The labels a corpus may use, with an optional mapping of source labels onto them.

    ``keep_unmapped`` keeps labels that are neither in the tag set nor in the mapping
    (a corpus that uses its own labels); otherwise such a label is an error.
    """

    def __init__(
        self,
        tags: Iterable[str] = CANONICAL_TAGS,
        mapping: Mapping[str, str] | None = None,
        keep_unmapped: bool = False,
    ) -> None:
        self.tags = tuple(tags)
        self.mapping = dict(mapping or {})
        self.keep_unmapped = keep_unmapped
        bad = sorted({v for v in self.mapping.values() if v not in self.tags})
        if bad and not keep_unmapped:
            raise InputError(
                f"the label mapping targets labels outside the tag set: {', '.join(bad)}",
                fix="map onto one of: " + ", ".join(self.tags),
            )

    def map(self, label: str) -> str:
        """The tag-set label for ``label``; raises InputError when there is none."""
        if label in self.mapping:
            return self.mapping[label]
        if label in self.tags or self.keep_unmapped:
            return label
        raise InputError(
            f"unknown label {label!r}",
            fix="use one of " + ", ".join(self.tags) + ", or add the label to the mapping"
            " (params: tags.mapping) or set tags.keep_unmapped: true",
        )
