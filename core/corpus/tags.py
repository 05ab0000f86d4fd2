"""The canonical PHI tag set (the Dutch NUT corpus) and label mapping onto it."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from functools import cache
from pathlib import Path
from typing import Any

from synthdeid.errors import InputError

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
    (a corpus that uses its own labels); otherwise such a label is an error. A label mapped onto
    ``None`` (``tags.mapping: {NAME_TITLE: null}``) is no PHI: its spans are dropped, their text
    stays, and ``dropped`` counts them per label.
    """

    def __init__(
        self,
        tags: Iterable[str] = CANONICAL_TAGS,
        mapping: Mapping[str, str | None] | None = None,
        keep_unmapped: bool = False,
    ) -> None:
        self.tags = tuple(tags)
        self.mapping = dict(mapping or {})
        self.keep_unmapped = keep_unmapped
        self.dropped: Counter[str] = Counter()
        bad = sorted({v for v in self.mapping.values() if v is not None and v not in self.tags})
        if bad and not keep_unmapped:
            raise InputError(
                f"the label mapping targets labels outside the tag set: {', '.join(bad)}",
                fix="map onto one of: " + ", ".join(self.tags),
            )

    def map(self, label: str) -> str | None:
        """The tag-set label for ``label``, None for a label mapped onto null (counted in
        ``dropped``); raises InputError when there is none."""
        if label in self.mapping:
            mapped = self.mapping[label]
            if mapped is None:
                self.dropped[label] += 1
            return mapped
        if label in self.tags or self.keep_unmapped:
            return label
        raise InputError(
            f"unknown label {label!r}",
            fix="use one of " + ", ".join(self.tags) + ", or add the label to the mapping"
            " (params: tags.mapping; a built-in one is extended as a list, `[sepr, {LABEL: Tag}]`)"
            " or set tags.keep_unmapped: true",
        )


MAPPINGS_DIR = Path(__file__).parent / "tag_mappings"


def builtin_mappings() -> list[str]:
    """Names of the label mappings shipped with synthdeid (``tags.mapping: NAME``)."""
    return sorted(p.stem for p in MAPPINGS_DIR.glob("*.yaml"))


@cache
def builtin_mapping(name: str) -> dict[str, str]:
    """A shipped label mapping by name ("meddocan", "sepr")."""
    path = MAPPINGS_DIR / f"{name}.yaml"
    if not path.is_file():
        raise InputError(
            f"no built-in tag mapping {name!r}",
            fix="set tags.mapping to one of "
            + ", ".join(builtin_mappings())
            + " or to a mapping of your labels onto the canonical tags",
        )
    import yaml

    data = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
    bad = sorted({str(v) for v in data.values() if v not in CANONICAL_TAGS})
    if bad:
        raise InputError(f"the built-in mapping {name!r} targets unknown tags: {', '.join(bad)}", path=path)
    return {str(k): str(v) for k, v in data.items()}


def label_mapping(value: Any) -> dict[str, str | None]:
    """The label mapping a ``tags.mapping`` param stands for: a mapping as it is (a label onto
    null: not PHI, dropped), the name of a built-in mapping, or nothing (``{}`` / null)."""
    if not value:
        return {}
    if isinstance(value, str):
        return dict(builtin_mapping(value))
    if isinstance(value, Mapping):
        return {str(k): None if v is None else str(v) for k, v in value.items()}
    if isinstance(value, list) and value and all(isinstance(v, str | Mapping) for v in value):
        return {k: v for layer in value for k, v in label_mapping(layer).items()}  # later layers win
    raise InputError(
        f"tags.mapping must be a mapping, the name of a built-in mapping or a list of them, got {value!r}",
        path="params.yaml",
        fix="e.g. `mapping: meddocan`, `mapping: {NOMBRE_SUJETO_ASISTENCIA: Name}` or `mapping: [sepr, {Date_Full: Date}]`",
    )


def tag_labels(mapping: Any) -> list[str]:
    """The canonical tags and every tag the ``tags.mapping`` param maps onto, sorted."""
    return sorted(set(CANONICAL_TAGS) | {v for v in label_mapping(mapping).values() if v is not None})
