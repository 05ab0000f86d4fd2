"""The taggers' shared BIO constraint and constrained Viterbi (``synthdeid.plugins.bio_crf``)
against brute-force enumeration of every BIO-valid tag sequence on tiny inputs."""

from __future__ import annotations

import itertools

import pytest
import torch

from synthdeid.plugins.bio_crf import bio_allowed, bio_scores, viterbi

TAGS = ["O", "B-Name", "I-Name", "B-Date", "I-Date"]


def _may_follow(prev: str | None, cur: str) -> bool:
    """BIO, written from the tag names: ``I-X`` only after ``B-X`` or ``I-X`` (None: at the start)."""
    return not cur.startswith("I-") or (prev is not None and prev[2:] == cur[2:] and prev[0] in "BI")


def _valid(path: tuple[int, ...]) -> bool:
    names = [None, *(TAGS[i] for i in path)]
    return all(_may_follow(prev, cur) for prev, cur in itertools.pairwise(names) if cur is not None)


def _score(emissions: torch.Tensor, trans: torch.Tensor, end: torch.Tensor | None, path: tuple[int, ...]) -> float:
    score = float(emissions[0, path[0]]) + (float(end[path[-1]]) if end is not None else 0.0)
    return score + sum(float(trans[a, b] + emissions[t, b]) for t, (a, b) in enumerate(itertools.pairwise(path), 1))


def test_bio_allowed_and_scores_match_the_tag_names() -> None:
    allowed, may_start = bio_allowed(TAGS)
    for i, j in itertools.product(range(len(TAGS)), repeat=2):
        assert bool(allowed[i, j]) == _may_follow(TAGS[i], TAGS[j]), (TAGS[i], TAGS[j])
    assert [bool(m) for m in may_start] == [_valid((j,)) for j in range(len(TAGS))]
    trans, start = bio_scores(TAGS, -1e9)
    assert trans.dtype == start.dtype == torch.float32
    assert set(trans.flatten().tolist()) == {0.0, float(torch.tensor(-1e9))}
    assert torch.equal(trans == 0, allowed) and torch.equal(start == 0, may_start)


@pytest.mark.parametrize("with_end", [False, True])
@pytest.mark.parametrize("seed", range(4))
def test_viterbi_finds_the_best_bio_valid_path(seed: int, with_end: bool) -> None:
    gen = torch.Generator().manual_seed(seed)
    lengths = [4, 1, 3, 0]
    emissions = torch.randn(len(lengths), max(lengths), len(TAGS), generator=gen) * 3
    emissions[:, :, [TAGS.index("I-Name"), TAGS.index("I-Date")]] += 2.0  # unconstrained, I-X would win
    trans, start = bio_scores(TAGS, -1e4)
    free = torch.randn(len(TAGS), len(TAGS), generator=gen)
    end = torch.randn(len(TAGS), generator=gen) if with_end else None
    paths = viterbi(emissions, lengths, trans + free, start, end)
    for b, n in enumerate(lengths):
        valid = [p for p in itertools.product(range(len(TAGS)), repeat=n) if _valid(p)]
        best = max(valid, key=lambda p: _score(emissions[b], free, end, p)) if n else ()
        assert paths[b] == list(best)
    assert viterbi(torch.tensor(lengths).new_zeros(2, 0, len(TAGS)).float(), [0, 0], trans, start) == [[], []]
