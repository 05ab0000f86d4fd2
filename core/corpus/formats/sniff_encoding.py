"""Telling a UTF-16 or UTF-32 file (with or without its byte-order mark) from a UTF-8 one, so that
its error says what the file is and how to convert it: NULs in every other (or three of four)
bytes are ASCII text in UTF-16 (UTF-32), which may even decode as UTF-8, NULs and all."""

from __future__ import annotations

from pathlib import Path

from synthdeid.errors import InputError

SNIFFED = 4096
"""Bytes looked at."""
_BOMS = (  # UTF-32's first: its little-endian mark starts with UTF-16's
    (b"\xff\xfe\x00\x00", "UTF-32", "little-endian"),
    (b"\x00\x00\xfe\xff", "UTF-32", "big-endian"),
    (b"\xff\xfe", "UTF-16", "little-endian"),
    (b"\xfe\xff", "UTF-16", "big-endian"),
)


def wide_encoding(head: bytes) -> tuple[str, str] | None:
    """(``iconv`` name, description) of the encoding ``head`` (a file's first bytes) is in, when it
    is UTF-16 or UTF-32; None otherwise."""
    for bom, name, order in _BOMS:
        if head.startswith(bom):
            return name, f"{name} ({order}, with a byte-order mark)"
    sample = head[:SNIFFED]
    sample = sample[: len(sample) // 4 * 4] if len(sample) >= 4 else sample[: len(sample) // 2 * 2]
    nuls = sample.count(0)
    if len(sample) < 2 or nuls < len(sample) // 4:
        return None
    at = [sum(1 for i in range(r, len(sample), 4) if sample[i] == 0) for r in range(4)]
    quarter = max(len(sample) // 4, 1)
    if len(sample) >= 4 and min(at[1], at[2], at[3]) >= 0.9 * quarter and at[0] < 0.5 * quarter:
        return "UTF-32LE", "UTF-32 (little-endian, without a byte-order mark)"
    if len(sample) >= 4 and min(at[0], at[1], at[2]) >= 0.9 * quarter and at[3] < 0.5 * quarter:
        return "UTF-32BE", "UTF-32 (big-endian, without a byte-order mark)"
    odd, even = sum(1 for b in sample[1::2] if b == 0), sum(1 for b in sample[0::2] if b == 0)
    half = len(sample) // 2
    if odd >= 0.9 * half and even < 0.5 * half:
        return "UTF-16LE", "UTF-16 (little-endian, without a byte-order mark)"
    if even >= 0.9 * half and odd < 0.5 * half:
        return "UTF-16BE", "UTF-16 (big-endian, without a byte-order mark)"
    return None


def check_not_wide(head: bytes, path: str | Path, doc_id: str | None = None) -> None:
    """Refuse a file whose first bytes ``head`` are UTF-16 or UTF-32, with the ``iconv`` line that
    converts it."""
    found = wide_encoding(head)
    if found:
        name, what = found
        raise InputError(
            f"the file is {what}, not UTF-8",
            path=path,
            line=1,
            doc_id=doc_id,
            fix=f"convert it to UTF-8: `iconv -f {name} -t UTF-8 FILE > NEW` (synthdeid reads UTF-8 only)",
        )


def not_utf8(
    data: bytes, start: int, end: int, offset: int, path: str | Path, line: int, doc_id: str | None
) -> InputError:
    """The error for bytes ``data[start:end]`` (at ``offset`` in the file) that are no UTF-8."""
    return InputError(
        f"undecodable bytes {data[start:end]!r} at byte {offset}: the file is not UTF-8",
        path=path,
        line=line,
        doc_id=doc_id,
        fix="re-save the file as UTF-8: `iconv -f CHARSET -t UTF-8 FILE > NEW`, with the charset it is in "
        "(`file -i FILE` may tell; Windows-1252 and latin1 are common in exports)",
    )
