"""Canaries for the data-only membership inference (Meeus et al. 2025, "The Canary's Echo"): an
attacker who sees only the published synthetic corpus, not the model.

Canaries made for model attacks (``synthdeid.privacy.canaries``: a random phone number after a fixed
sentence) barely reach text generated from in-distribution prompts. These are built to: an
**in-distribution prefix** (the first ``prefix_tokens`` tokens of a random real training note, so
the generator is likely to walk into it) followed by a **high-perplexity suffix** (``suffix_tokens``
words drawn uniformly from the training vocabulary: a made-up phrase no note contains), then
``<EOD>``. ``per_repetition`` *member* canaries per repetition count are inserted into the
generator's training lines that many times; ``nonmembers`` more, drawn the same way, are not. The
audit then asks whether the synthetic corpus treats members differently
(``plugins/privacy/data_membership``).

Only the in-memory training lines get the members; ``data/canaries/NAME.json`` records them all for
the audit (never publish that file with a corpus: it says which canaries were members).
"""

from __future__ import annotations

import json
import random
import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import field_validator

from synthdeid import paths
from synthdeid.corpus.accounting import write_json
from synthdeid.corpus.inline import EOD, PAR
from synthdeid.errors import InputError
from synthdeid.plugin_system.config import Settings, setting
from synthdeid.privacy.canaries import MAX_LINE_SHARE, Canary, insert_canaries, line_budget, repetition_counts

_TAG = re.compile(r"^<[A-Za-z][A-Za-z0-9_]*?(START|END)>$")


class DataCanaryConfig(Settings):
    """``generators.NAME.data_canaries`` in params (absent or null: none)."""

    repetitions: tuple[int, ...] = setting(
        (1, 5, 20), description="how often each member canary is inserted; per_repetition members per count"
    )
    """How often each member canary is inserted; ``per_repetition`` members per count."""
    per_repetition: int = setting(2, ge=1, description="members per repetition count")
    max_line_share: float | None = setting(
        MAX_LINE_SHARE, gt=0, description="inserted lines at most this share of the training lines (null: no cap)"
    )
    """Inserted member lines at most this share of the training lines (``canaries.line_budget``: on
    45 notes the defaults would add 52 lines, +116%; capped, 2). null: no cap."""
    """Members per repetition count. Every inserted line changes the corpus: on the demo, 5 (130
    lines into 800 notes) moved synthetic-lstm_p's tagger F1 from 0.885 to 0.866 (3 seeds); 2 (52
    lines) is the model canaries' budget."""
    nonmembers: int = setting(1000, ge=1, description="canaries drawn the same way and never inserted")
    """Canaries drawn the same way and never inserted (1,000 or more measure the TPR at 0.1% FPR)."""
    prefix_tokens: int = setting(
        10, ge=1, description="the in-distribution prefix: this many first tokens of a real training note"
    )
    """The in-distribution prefix: this many first tokens of a real training note (fewer when the
    note is shorter or a PHI span would be cut)."""
    suffix_tokens: int = setting(
        8, ge=1, description="the high-perplexity suffix: this many words drawn uniformly from the training vocabulary"
    )
    """The high-perplexity suffix: this many words drawn uniformly from the training vocabulary."""
    min_count: int = setting(
        5, ge=1, description="suffix words occur at least this often in the training text (and the generator's own)"
    )
    """Suffix words occur at least this often in the training text (and at least the generator's
    own ``min_count``), so a word-level model knows them."""
    seed: int = setting(0, ge=0, description="seed of the canaries' draws and positions")

    @field_validator("repetitions")
    @classmethod
    def _repetitions(cls, value: tuple[int, ...]) -> tuple[int, ...]:
        return repetition_counts(value)


def prefix_of(line: str, length: int) -> list[str]:
    """The first ``length`` tokens of an inline line, without ``<EOD>`` and cut back to before any
    PHI span the cut would leave open."""
    tokens = line.split(" ")
    if EOD in tokens:
        tokens = tokens[: tokens.index(EOD)]
    out = tokens[:length]
    open_at = None
    for i, t in enumerate(out):
        m = _TAG.match(t)
        if m:
            open_at = i if m.group(1) == "START" else None
    return out[:open_at] if open_at is not None else out


def suffix_pool(lines: Sequence[str], min_count: int) -> list[str]:
    """Plain words of the training text seen at least ``min_count`` times (no tags, paragraph or
    end markers), sorted."""
    counts = Counter(t for line in lines for t in line.split(" ") if t and t not in (PAR, EOD) and not _TAG.match(t))
    return sorted(t for t, c in counts.items() if c >= min_count)


def draw_data_canaries(
    config: DataCanaryConfig,
    lines: Sequence[str],
    min_count_floor: int = 1,
) -> tuple[list[Canary], list[Canary], dict[str, Any]]:
    """Member and non-member canaries for the training ``lines``, and facts for the record."""
    min_count = max(config.min_count, min_count_floor)
    pool = suffix_pool(lines, min_count)
    if len(pool) < 20:
        raise InputError(
            f"data_canaries: only {len(pool)} words occur {min_count}+ times in the training text; "
            "a high-perplexity suffix needs at least 20 to draw from",
            path=paths.inline_text("train"),
            fix="lower generators.NAME.data_canaries.min_count (not below the generator's min_count)",
        )
    hosts = [i for i, line in enumerate(lines) if prefix_of(line, config.prefix_tokens)]
    if not hosts:
        raise InputError(
            "data_canaries: no training note has a token before its first PHI span to start a prefix",
            path=paths.inline_text("train"),
            fix="set generators.NAME.data_canaries to null",
        )
    rng = random.Random(f"data-canaries-{config.seed}")
    members = [(reps, f"member-{reps}x-{j + 1}") for reps in config.repetitions for j in range(config.per_repetition)]
    wanted = members + [(0, f"nonmember-{j + 1}") for j in range(config.nonmembers)]
    seen: set[str] = set()
    drawn: list[tuple[Canary, list[str]]] = []
    for reps, cid in wanted:
        while True:
            prefix = prefix_of(lines[rng.choice(hosts)], config.prefix_tokens)
            suffix = [rng.choice(pool) for _ in range(config.suffix_tokens)]
            text = " ".join(prefix + suffix + [EOD])
            if text not in seen:
                break
        seen.add(text)
        drawn.append((Canary(cid, text, (), reps), prefix))
    facts = {
        "suffix_pool_size": len(pool),
        "suffix_min_count": min_count,
        "prefix_tokens": {c.id: len(p) for c, p in drawn},
    }
    return [c for c, _ in drawn if c.repetitions], [c for c, _ in drawn if not c.repetitions], facts


def add_data_canaries(
    config: DataCanaryConfig, real: Sequence[str], lines: Sequence[str], ids: Sequence[str], min_count_floor: int = 1
) -> tuple[list[str], list[str], dict[str, Any]]:
    """Draw the canaries from the ``real`` training lines and insert the members into ``lines``
    (the real lines, or those with other canaries already in); returns the new lines and ids and
    the record to write with ``write_data_canaries``."""
    budget = line_budget(config.repetitions, config.per_repetition, len(real), config.max_line_share)
    fitted = config.model_copy(update={k: budget[k] for k in ("repetitions", "per_repetition")})
    members, nonmembers, facts = draw_data_canaries(fitted, real, min_count_floor)
    new_lines, new_ids = insert_canaries(lines, ids, members, config.seed + 1)
    starts = facts.pop("prefix_tokens")
    record = {
        "config": {**config.model_dump(), "repetitions": list(config.repetitions)},
        **facts,
        "lines_inserted": len(new_lines) - len(lines),
        "line_budget": {**budget, "repetitions": list(budget["repetitions"])},
        "canaries": [
            {"id": c.id, "repetitions": c.repetitions, "suffix_start": starts[c.id], "text": c.text}
            for c in members + nonmembers
        ],
    }
    return new_lines, new_ids, record


@dataclass(frozen=True)
class DataCanary:
    id: str
    repetitions: int
    """0 for a non-member."""
    prefix: str
    """Inline text (tags as in training), without ``<EOD>``."""
    suffix: str


def write_data_canaries(record: dict[str, Any] | None, name: str, root: Path = Path(".")) -> Path:
    """``data/canaries/NAME.json``: the record, or ``{"canaries": null}`` for a generator without them."""
    path = root / paths.data_canaries(name)
    write_json(record if record is not None else {"canaries": None}, path)
    return path


def read_data_canaries(path: Path) -> list[DataCanary] | None:
    """The canaries recorded at ``path``; None when the generator was trained without them."""
    try:
        record = json.loads(Path(path).read_text(encoding="utf-8"))
        if record.get("canaries") is None:
            return None
        out = []
        for c in record["canaries"]:
            tokens = c["text"].split(" ")
            if tokens[-1] != EOD or not 0 <= c["suffix_start"] < len(tokens) - 1:
                raise ValueError(f"canary {c['id']!r} is not prefix + suffix + <EOD>")
            out.append(
                DataCanary(
                    c["id"],
                    int(c["repetitions"]),
                    " ".join(tokens[: c["suffix_start"]]),
                    " ".join(tokens[c["suffix_start"] : -1]),
                )
            )
    except (OSError, ValueError, KeyError, TypeError, AttributeError) as e:
        raise InputError(
            f"cannot read the data canaries ({e})", path=path, fix="train the generator again (dvc repro train_lm@NAME)"
        ) from None
    return out
