"""Canaries (Carlini et al. 2019, "The Secret Sharer"): random inline-tagged sentences with fake
PHI, inserted into a generator's training text a known number of times, so that the audit can
measure how much of them the trained model memorised (``synthdeid.privacy.audit.exposure``).

The randomness space R is a template whose ``{}`` slots are each filled with one token of a
pool: by default a fake phone number of 8 slots, each one of the 10 most frequent numeric tokens
of the training text, so |R| = 10^8. The sentence is the language pack's ``canary_template``
(the built-in one is Dutch). Pool tokens should occur at least ``min_count`` times in the real
training text; a small corpus with fewer such tokens gets a pool down to the generator's own
``min_count`` (so every candidate is in a word-level model's vocabulary and none becomes
``<unk>``; a BPE model encodes any of them), and a smaller pool when even that is short: the
record says what was used, and |R| shrinks with it.

Canaries only ever enter the generator's in-memory training lines; the model directory gets
``canaries.json`` (texts, repetitions, the space and its size) for the audit.
"""

from __future__ import annotations

import itertools
import json
import math
import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from pydantic import field_validator
from pydantic_core import PydanticCustomError

from synthdeid import paths
from synthdeid.corpus.accounting import write_json
from synthdeid.corpus.inline import EOD, decode
from synthdeid.errors import InputError, SynthdeidError
from synthdeid.plugin_system.config import Settings, setting

CANARY_FILE = "canaries.json"
SLOT = "{}"
MIN_POOL = 2
"""The smallest pool of slot tokens: with 8 slots, 2^8 = 256 candidates (the rank of a canary among
them still measures exposure, to at most 8 bits)."""
DEFAULT_TEMPLATE = "Nieuw telefoonnummer : <Phone_faxSTART> {} {} {} {} {} {} {} {} <Phone_faxEND> . <EOD>"


MAX_LINE_SHARE = 0.25
"""The default cap on inserted canary lines, as a share of the training lines (``max_line_share``):
it stops the defaults' 52 lines from doubling a corpus of 50 notes and leaves the 800-note demo
(6.5%) and MEDDOCAN's 450 notes (11.6%) as they were; ``synthdeid check`` warns above 10%."""


class CanaryConfig(Settings):
    """``generators.NAME.canaries`` in params (absent or null: no canaries)."""

    repetitions: tuple[int, ...] = setting(
        (1, 5, 20), description="how often each canary is inserted; per_repetition canaries per count"
    )
    """How often each canary is inserted; ``per_repetition`` canaries per count."""
    per_repetition: int = setting(1, ge=1, description="canaries per repetition count")
    max_line_share: float | None = setting(
        MAX_LINE_SHARE, gt=0, description="inserted lines at most this share of the training lines (null: no cap)"
    )
    """Inserted lines at most this share of the training lines: on a small corpus the largest
    repetition counts are left out first, then canaries per count (``line_budget``; the record says
    what was kept). null: no cap."""
    seed: int = setting(0, ge=0, description="draws the canaries' secrets and their positions among the training lines")
    """Draws the canaries' secrets and their positions among the training lines."""
    template: str | None = setting(
        None,
        description="space-separated inline text ending in <EOD>, each {} one slot (null: the language pack's "
        "canary_template)",
    )
    """Space-separated inline text ending in ``<EOD>``; each ``{}`` is one slot. None: the language
    pack's ``canary_template`` (``DEFAULT_TEMPLATE``, Dutch, when the pack has none)."""
    pool_size: int = setting(
        10, ge=MIN_POOL, description="slot tokens: the most frequent numeric tokens of the training text"
    )
    """Slot tokens: the most frequent numeric tokens of the training text (fewer when the training
    text holds fewer, but at least ``MIN_POOL``)."""
    min_count: int = setting(
        5, ge=1, description="each pool token occurs at least this often in the real training text"
    )
    """Each pool token occurs at least this often in the real training text; when fewer than
    ``pool_size`` tokens do, tokens seen down to the generator's own ``min_count`` fill the pool."""

    @field_validator("repetitions")
    @classmethod
    def _repetitions(cls, value: tuple[int, ...]) -> tuple[int, ...]:
        return repetition_counts(value)

    @field_validator("template")
    @classmethod
    def _template(cls, template: str | None) -> str | None:
        tokens = [] if template is None else template.split(" ")
        if template is not None and (SLOT not in tokens or "" in tokens or tokens[-1] != EOD):
            raise PydanticCustomError(
                "template", "must be single-space separated tokens with at least one {} slot, ending in <EOD>", {}
            )
        return template


def repetition_counts(value: tuple[int, ...]) -> tuple[int, ...]:
    """``repetitions`` of a canary config: at least one count, each >= 1 (a bound on every element
    of a list, which ``setting`` cannot declare)."""
    if not value or any(r < 1 for r in value):
        raise PydanticCustomError("repetitions", "must be a list of whole numbers >= 1", {})
    return value


def line_budget(repetitions: tuple[int, ...], per_repetition: int, lines: int, share: float | None) -> dict[str, Any]:
    """The repetitions and canaries per repetition that fit ``share`` of ``lines`` training lines:
    the largest repetition counts go first, then fewer canaries per count, down to one line (a
    canary once). ``share`` None: no cap. The result names what was asked and what was kept."""
    asked = sum(repetitions) * per_repetition
    budget = asked if share is None else max(1, int(share * lines))
    reps, per = sorted(repetitions), per_repetition
    while sum(reps) * per > budget and len(reps) > 1:
        reps.pop()
    while sum(reps) * per > budget and per > 1:
        per -= 1
    if sum(reps) * per > budget:
        reps = [1]
    kept = sum(reps) * per
    return {
        "repetitions": tuple(reps),
        "per_repetition": per,
        "lines_asked": asked,
        "lines": kept,
        "capped": kept < asked,
        "max_line_share": share,
    }


@dataclass(frozen=True)
class CanarySpace:
    """The randomness space R: ``template`` with each slot filled by one ``pool`` token."""

    template: str
    pool: tuple[str, ...]

    @property
    def slots(self) -> int:
        return self.template.split(" ").count(SLOT)

    @property
    def size(self) -> int:
        return len(self.pool) ** self.slots

    def text(self, secret: Sequence[int]) -> str:
        """The candidate whose slots hold the pool tokens ``secret`` (indices into the pool)."""
        fill = iter(secret)
        return " ".join(self.pool[next(fill)] if t == SLOT else t for t in self.template.split(" "))

    def random_secret(self, rng: random.Random) -> tuple[int, ...]:
        return tuple(rng.randrange(len(self.pool)) for _ in range(self.slots))

    def sample(self, n: int, seed: int, exclude: Sequence[Sequence[int]] = ()) -> tuple[list[tuple[int, ...]], bool]:
        """Up to ``n`` distinct candidates of R outside ``exclude``, drawn uniformly; all of them
        (in order) when there are no more than ``n``. Returns the secrets and whether they are all."""
        skip = {tuple(s) for s in exclude}
        if self.size - len(skip) <= n:
            every = itertools.product(range(len(self.pool)), repeat=self.slots)
            return [s for s in every if s not in skip], True
        rng = random.Random(f"canary-candidates-{seed}")
        seen: set[tuple[int, ...]] = set()
        out: list[tuple[int, ...]] = []
        while len(out) < n:
            s = self.random_secret(rng)
            if s not in skip and s not in seen:
                seen.add(s)
                out.append(s)
        return out, False


@dataclass(frozen=True)
class Canary:
    id: str
    text: str
    secret: tuple[int, ...]
    repetitions: int


def numeric_pool(lines: Sequence[str], size: int, min_count: int, floor: int = 1) -> tuple[tuple[str, ...], int]:
    """The ``size`` most frequent numeric tokens of ``lines`` (ties alphabetical), each seen at least
    ``min_count`` times; when fewer are, the threshold is lowered step by step to ``floor`` (a
    word-level model's own ``min_count``) and the pool keeps what reaches it, at least ``MIN_POOL``
    tokens. Returns the pool and the threshold it needed."""
    counts = Counter(t for line in lines for t in line.split(" ") if t.isascii() and t.isdigit())
    ranked = sorted(counts, key=lambda t: (-counts[t], t))
    floor = min(max(floor, 1), min_count)
    for threshold in range(min_count, floor - 1, -1):
        pool = tuple(t for t in ranked if counts[t] >= threshold)[:size]
        if len(pool) == size:
            return pool, threshold
    if len(pool) >= MIN_POOL:
        return pool, floor
    raise InputError(
        f"canaries: the training text holds {len(pool)} numeric token(s) seen {floor}+ times "
        f"(the generator's min_count), and the canaries' secret needs at least {MIN_POOL}",
        path=paths.inline_text("train"),
        fix="set this generator's canaries to null (a corpus this small has no numbers to hide "
        "a secret among), or lower the generator's min_count",
    )


def draw_canaries(config: CanaryConfig, space: CanarySpace) -> list[Canary]:
    """``per_repetition`` canaries for each repetition count, with distinct random secrets."""
    rng = random.Random(f"canary-secrets-{config.seed}")
    if space.size < len(config.repetitions) * config.per_repetition:
        raise SynthdeidError(f"canaries: the space has {space.size} candidates, fewer than the canaries asked for")
    out: list[Canary] = []
    seen: set[tuple[int, ...]] = set()
    for reps in config.repetitions:
        for _ in range(config.per_repetition):
            secret = space.random_secret(rng)
            while secret in seen:
                secret = space.random_secret(rng)
            seen.add(secret)
            out.append(Canary(f"canary-{len(out) + 1}", space.text(secret), secret, reps))
    return out


def insert_canaries(
    lines: Sequence[str], ids: Sequence[str], canaries: Sequence[Canary], seed: int
) -> tuple[list[str], list[str]]:
    """New training lines and ids with each canary inserted ``repetitions`` times as its own line
    at seeded random positions (copy ``j`` of ``canary-k`` has id ``canary-k-copy-j``); the real
    lines keep their order and the inputs are not changed."""
    if len(ids) != len(lines):
        raise SynthdeidError(f"{len(ids)} document ids for {len(lines)} training lines")
    copies = [(c.text, f"{c.id}-copy-{j + 1}") for c in canaries for j in range(c.repetitions)]
    rng = random.Random(f"canary-positions-{seed}")
    rng.shuffle(copies)
    at = set(rng.sample(range(len(lines) + len(copies)), len(copies)))
    real, extra = iter(zip(lines, ids)), iter(copies)
    merged = [next(extra) if i in at else next(real) for i in range(len(lines) + len(copies))]
    return [m[0] for m in merged], [m[1] for m in merged]


def check_template(template: str, labels: Sequence[str]) -> None:
    """The template's tags are known and well-formed."""
    decoded = decode(template.replace(SLOT, "0"), "canary", labels)
    bad = {k: decoded.count(k) for k in ("unclosed", "unopened", "nested", "crossing", "empty", "unknown")}
    if any(bad.values()):
        raise SynthdeidError(
            f"canaries: the template's tags are malformed or unknown "
            f"({', '.join(f'{k}: {v}' for k, v in bad.items() if v)}): {template!r}"
        )


def add_canaries(
    config: CanaryConfig, lines: Sequence[str], ids: Sequence[str], labels: Sequence[str], min_count_floor: int = 1
) -> tuple[list[str], list[str], dict[str, Any]]:
    """Draw the canaries of ``config`` for the training ``lines`` and insert them; returns the new
    lines and ids and the record to save as ``canaries.json``."""
    if config.template is None:
        raise SynthdeidError("canaries: no template (resolve it with the language pack's canary_template first)")
    check_template(config.template, labels)
    pool, min_count = numeric_pool(lines, config.pool_size, max(config.min_count, min_count_floor), min_count_floor)
    space = CanarySpace(config.template, pool)
    budget = line_budget(config.repetitions, config.per_repetition, len(lines), config.max_line_share)
    fitted = config.model_copy(update={k: budget[k] for k in ("repetitions", "per_repetition")})
    canaries = draw_canaries(fitted, space)
    new_lines, new_ids = insert_canaries(lines, ids, canaries, config.seed)
    record = {
        "config": {**config.model_dump(), "repetitions": list(config.repetitions)},
        "template": space.template,
        "pool": list(space.pool),
        "pool_min_count": min_count,
        "slots": space.slots,
        "space_size": space.size,
        "log2_space_size": math.log2(space.size),
        "canaries": [{**asdict(c), "secret": list(c.secret)} for c in canaries],
        "lines_inserted": len(new_lines) - len(lines),
        "line_budget": {**budget, "repetitions": list(budget["repetitions"])},
    }
    return new_lines, new_ids, record


def write_canaries(record: dict[str, Any], model_dir: Path) -> None:
    write_json(record, Path(model_dir) / CANARY_FILE)


def read_canaries(model_dir: Path) -> tuple[CanarySpace, list[Canary]] | None:
    """The space and canaries saved in ``model_dir``, or None when it was trained without canaries."""
    path = Path(model_dir) / CANARY_FILE
    if not path.exists():
        return None
    try:
        record = json.loads(path.read_text(encoding="utf-8"))
        space = CanarySpace(record["template"], tuple(record["pool"]))
        canaries = [Canary(c["id"], c["text"], tuple(c["secret"]), int(c["repetitions"])) for c in record["canaries"]]
    except (ValueError, KeyError, TypeError) as e:
        raise InputError(
            f"cannot read the canaries ({e})", path=path, fix="train the generator again (dvc repro train_lm@NAME)"
        ) from None
    return space, canaries
