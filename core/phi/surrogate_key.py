"""The secret that keys every surrogate choice and date shift of notes that may leave the machine.

``synthdeid deidentify --mode surrogate`` draws a fresh random key per run (kept in memory only,
never written): two runs give different surrogates, and nothing public (the code, params.yaml,
the ids in the output) recomputes a choice. ``--key-file PATH`` keeps one key across runs (the
same notes then get the same surrogates): the file is created with mode 600 and refused when
others can read it. A note's surrogate seed is ``HMAC-SHA256(key, note id)``: without the key the
seed is unpredictable, so a shift or a choice cannot be undone.

The pipeline's own pseudonymized training notes (the ``pseudonymize`` stage) stay seeded from
params (``synthdeid.phi.seeds``): they never leave the project, and DVC needs them reproducible.
"""

from __future__ import annotations

import hashlib
import hmac
import os
import secrets
import stat
from pathlib import Path

from synthdeid.errors import InputError

KEY_BYTES = 32
"""256 bits: as strong as the HMAC-SHA256 it keys."""
_DOMAIN = b"synthdeid-surrogates-v1\x00"
_ID_DOMAIN = b"synthdeid-ids-v1\x00"
_HEADER = "# synthdeid surrogate key: keep it secret; whoever holds it can link surrogates to notes\n"


class SurrogateKey:
    """A secret key; ``seed(doc_id)`` is the note's surrogate seed (63 bits, as the packs take)."""

    def __init__(self, secret: bytes) -> None:
        if len(secret) < KEY_BYTES:
            raise ValueError(f"a surrogate key needs at least {KEY_BYTES} bytes")
        self._secret = bytes(secret)

    @classmethod
    def fresh(cls) -> SurrogateKey:
        """A new random key from the operating system's CSPRNG (``secrets``)."""
        return cls(secrets.token_bytes(KEY_BYTES))

    def seed(self, doc_id: str) -> int:
        digest = hmac.new(self._secret, _DOMAIN + doc_id.encode("utf-8", "surrogatepass"), hashlib.sha256).digest()
        return int.from_bytes(digest[:8], "big") >> 1

    def public_id(self, doc_id: str, digits: int = 16) -> str:
        """The note's id as written out: ``digits`` hex digits of an HMAC under the key (a domain
        of its own: no seed or fingerprint shares it)."""
        data = _ID_DOMAIN + doc_id.encode("utf-8", "surrogatepass")
        return hmac.new(self._secret, data, hashlib.sha256).hexdigest()[:digits]

    def fingerprint(self) -> str:
        """A public name of the key (HMAC of a constant): tells two keys apart, reveals nothing of it."""
        return hmac.new(self._secret, b"synthdeid-key-fingerprint-v1", hashlib.sha256).hexdigest()[:32]

    def __repr__(self) -> str:  # never print the secret (logs, tracebacks, Ray's object store listings)
        return "SurrogateKey(<secret>)"

    def __reduce__(self) -> tuple[type[SurrogateKey], tuple[bytes]]:  # Ray workers get it in memory
        return (SurrogateKey, (self._secret,))


def load_or_create_key(path: str | Path) -> SurrogateKey:
    """The key in ``path``, created (mode 600, 256 random bits) when the file does not exist. A key
    file that others may read or write, that is no regular file, or that holds no valid key is
    refused: whoever reads it can link every surrogate back to its note."""
    p = Path(path)
    try:
        fd = os.open(p, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0), 0o600)
    except FileExistsError:
        return _read_key(p)
    except FileNotFoundError:
        raise InputError(
            "cannot create the key file: its folder does not exist", path=p, fix="create the folder first"
        ) from None
    key = SurrogateKey.fresh()
    with os.fdopen(fd, "w", encoding="ascii") as f:
        f.write(_HEADER + key._secret.hex() + "\n")
    return key


def _read_key(p: Path) -> SurrogateKey:
    info = p.lstat()
    if stat.S_ISLNK(info.st_mode):
        raise InputError(
            "the key file is a symbolic link", path=p, fix="name the key file itself (links can be swapped under you)"
        )
    if not stat.S_ISREG(info.st_mode):
        raise InputError("the key file is not a regular file", path=p, fix="name a key file --key-file created")
    if info.st_mode & 0o077:
        raise InputError(
            f"the key file is readable or writable by others (mode {stat.S_IMODE(info.st_mode):03o}): whoever reads "
            "it can link the surrogates back to the notes",
            path=p,
            fix=f"chmod 600 {p} (and check who may have read it; if in doubt, start a new key file)",
        )
    if hasattr(os, "getuid") and info.st_uid != os.getuid():
        raise InputError(
            "the key file belongs to another user", path=p, fix="use a key file of your own (chown, or a new one)"
        )
    lines = [ln.strip() for ln in p.read_text(encoding="ascii", errors="replace").split("\n")]
    values = [ln for ln in lines if ln and not ln.startswith("#")]
    try:
        secret = bytes.fromhex(values[0]) if len(values) == 1 else b""
    except ValueError:
        secret = b""
    if len(secret) < KEY_BYTES:
        raise InputError(
            f"not a synthdeid key file (one line of at least {2 * KEY_BYTES} hexadecimal digits expected)",
            path=p,
            fix="name the file an earlier --key-file run created, or a path that does not exist yet (it is created)",
        )
    if len(set(secret)) == 1:
        raise InputError(
            f"the key is one byte repeated: no secret ({secret[:1].hex()} x {len(secret)}); anyone can guess it "
            "and recompute every surrogate",
            path=p,
            fix="move this file away and name a path that does not exist yet: a new random key is created there",
        )
    return SurrogateKey(secret)
