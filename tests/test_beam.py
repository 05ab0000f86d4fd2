"""The ``beam`` decoder: search quality, n-gram ban, tag safety, budgets, PHI preference, batching."""

from __future__ import annotations

import math
from typing import Any

import pytest
import torch

from synthdeid import SynthdeidError
from synthdeid.api import GenerationSettings
from synthdeid.corpus import inline
from synthdeid.generation.generate import generate_corpus
from synthdeid.generation.toy_lm import BigramLM
from synthdeid.plugins import registry
from synthdeid.plugins.beam import BeamSearch, ban_tokens, repeated_ngram_bans

NEG = float("-inf")
MALFORMED = ("unclosed", "unopened", "nested", "crossing", "empty")
WORDS = [f"w{i}" for i in range(30)]
LABELS = ("Name", "Date", "Age", "Address")
RNG = torch.Generator().manual_seed(0)


def beam(**config: Any) -> BeamSearch:
    return registry("decoder").create("beam", config)


def table_lm(
    words: list[str], edges: dict[str, dict[str, float]], labels: tuple[str, ...] = ("Name", "Date"), eod: str = "<EOD>"
) -> BigramLM:
    """A BigramLM whose ``edges[a][b]`` are next-token probabilities (everything else ~ e**-30)."""
    lm = BigramLM(words, labels)
    table = torch.full((len(lm.vocab),) * 2, -30.0)
    for a, nxt in edges.items():
        for b, p in nxt.items():
            table[lm.index[a], lm.index[b]] = math.log(p)
    lm.table = table
    return lm


def random_lm(seed: int = 0, labels: tuple[str, ...] = LABELS, scale: float = 2.0) -> BigramLM:
    lm = BigramLM(WORDS, labels, seed=seed)
    lm.table = lm.table * scale
    return lm


def logprob(lm: BigramLM, prompt: list[int], gen: list[int]) -> float:
    """Log-probability of ``gen`` after ``prompt`` under the raw table."""
    prev = [prompt[-1], *gen[:-1]]
    logp = torch.log_softmax(lm.table, -1)
    return sum(float(logp[a, b]) for a, b in zip(prev, gen))


def random_prompts(lm: BigramLM, n: int, seed: int = 1) -> list[list[int]]:
    g = torch.Generator().manual_seed(seed)
    words = [lm.index[w] for w in WORDS]
    return [[words[int(i)] for i in torch.randint(len(words), (1 + k % 4,), generator=g)] for k in range(n)]


def malformed(lm: BigramLM, prompt: list[int], gen: list[int]) -> int:
    decoded = inline.decode(lm.decode(prompt + gen), "note")
    return sum(decoded.count(kind) for kind in MALFORMED)


def test_registered_with_defaults_and_config_errors() -> None:
    dec = beam()
    assert (dec.name, dec.num_beams, dec.no_repeat_ngram_size, dec.length_penalty) == ("beam", 5, 2, 1.0)
    assert dec.prefer_phi is False and dec.require_phi is False
    assert beam(require_phi=True).require_phi is True
    with pytest.raises(
        SynthdeidError, match=r"no setting\(s\) beams \(did you mean num_beams\?\);.*num_beams.*require_phi"
    ):
        beam(beams=3)
    for bad, message in [
        ({"num_beams": 0}, "decoder 'beam': setting 'num_beams' must be >= 1, got 0"),
        ({"num_beams": 2.5}, "setting 'num_beams' must be a whole number >= 1, got 2.5"),
        ({"no_repeat_ngram_size": -1}, "setting 'no_repeat_ngram_size' must be >= 0, got -1"),
        ({"length_penalty": float("nan")}, "setting 'length_penalty' must be finite, got nan"),
        ({"length_penalty": math.inf}, "setting 'length_penalty' must be finite, got inf"),
        ({"length_penalty": -math.inf}, "setting 'length_penalty' must be finite, got -inf"),
        ({"length_penalty": "-inf"}, "setting 'length_penalty' must be finite, got -inf"),
        ({"prefer_phi": "yes"}, "setting 'prefer_phi' must be true or false \\(unquoted\\), got 'yes'"),
    ]:
        with pytest.raises(SynthdeidError, match=message):
            beam(**bad)
    assert beam(length_penalty=-2).length_penalty == -2.0  # any finite number
    with pytest.raises(ValueError, match=r"num_beams\n.*greater than or equal to 1"):
        BeamSearch(num_beams=0)  # direct construction: the same declared bounds


def test_one_beam_equals_greedy() -> None:
    lm = random_lm()
    lm.table[lm.index["w3"], lm.eod_id] += 20.0  # notes whose path meets w3 end before the budget
    prompts = random_prompts(lm, 40)
    settings = GenerationSettings(min_tokens=3, max_tokens=40)
    greedy = registry("decoder").create("greedy").generate(lm, prompts, settings, RNG)
    assert beam(num_beams=1, no_repeat_ngram_size=0).generate(lm, prompts, settings, RNG) == greedy
    assert any(g[-1] == lm.eod_id for g in greedy) and any(g[-1] != lm.eod_id for g in greedy)


def test_beam_escapes_the_greedy_trap() -> None:
    # greedy takes "a" (0.5) and then one of ten words (0.1 each); "b c" has 0.4 * 1.0
    flat = [f"f{i}" for i in range(10)]
    edges: dict[str, dict[str, float]] = {
        "x": {"a": 0.5, "b": 0.4, "z": 0.1},
        "a": {f: 0.1 for f in flat},
        "b": {"c": 1.0},
        "c": {"<EOD>": 1.0},
        "z": {"<EOD>": 1.0},
    }
    edges.update({f: {"<EOD>": 1.0} for f in flat})
    lm = table_lm(["x", "a", "b", "c", "z", *flat], edges)
    prompt = [lm.encode("x")]
    settings = GenerationSettings(min_tokens=0, max_tokens=10)
    greedy = registry("decoder").create("greedy").generate(lm, prompt, settings, RNG)[0]
    found = beam(num_beams=2).generate(lm, prompt, settings, RNG)[0]
    assert lm.decode(greedy).startswith("a f")
    assert lm.decode(found) == "b c <EOD>"
    assert logprob(lm, prompt[0], found) > logprob(lm, prompt[0], greedy) + 1.0


def test_length_penalty_trades_length_for_probability() -> None:
    lm = table_lm(
        ["x", "a", "b", "c"], {"x": {"<EOD>": 0.6, "a": 0.4}, "a": {"b": 1.0}, "b": {"c": 1.0}, "c": {"<EOD>": 1.0}}
    )
    settings = GenerationSettings(min_tokens=0, max_tokens=10)
    short, long_ = [lm.eod_id], lm.encode("a b c <EOD>")
    assert beam(num_beams=2, length_penalty=0.0).generate(lm, [lm.encode("x")], settings, RNG) == [short]
    assert beam(num_beams=2, length_penalty=1.0).generate(lm, [lm.encode("x")], settings, RNG) == [long_]


def bans(seqs: torch.Tensor, n: int) -> list[set[int]]:
    rows, tokens = repeated_ngram_bans(seqs, n)
    out: list[set[int]] = [set() for _ in range(len(seqs))]
    for r, t in zip(rows.tolist(), tokens.tolist()):
        out[r].add(t)
    return out


def test_repeated_ngram_bans() -> None:
    seqs = torch.tensor([[1, 2, 3, 1, 2], [-1, -1, 4, 5, 4]])
    assert bans(seqs, 3) == [{3}, set()]
    assert bans(seqs, 2) == [{3}, {5}]
    assert bans(seqs, 1) == [{1, 2, 3}, {4, 5}]
    assert bans(seqs[:, :1], 2) == [set(), set()]


def test_ban_keeps_a_row_its_only_token() -> None:
    logp = torch.tensor([[0.0, NEG, NEG], [-1.0, -0.5, NEG]])
    ban_tokens(logp, torch.tensor([0, 1]), torch.tensor([0, 1]))
    assert logp.tolist() == [[0.0, NEG, NEG], [-1.0, NEG, NEG]]


@pytest.mark.parametrize("size", [2, 3])
def test_no_repeated_ngrams(size: int) -> None:
    words = [f"v{i}" for i in range(12)]
    # a strong loop v0 -> v1 -> v0 ..., which plain beam search would follow
    edges = {
        w: {words[(i + 1) % 2]: 0.9, **{v: 0.1 / 11 for v in words if v != words[(i + 1) % 2]}}
        for i, w in enumerate(words)
    }
    lm = table_lm(words, edges, labels=())
    settings = GenerationSettings(min_tokens=30, max_tokens=40)
    prompts = [lm.encode("v0 v1"), lm.encode("v3"), lm.encode("v0 v1 v0")]
    looped = beam(no_repeat_ngram_size=0).generate(lm, prompts, settings, RNG)
    assert lm.decode(looped[1]).startswith("v0 v1 v0 v1")
    for prompt, gen in zip(prompts, beam(no_repeat_ngram_size=size).generate(lm, prompts, settings, RNG)):
        seq = prompt + gen
        grams = [tuple(seq[i : i + size]) for i in range(len(seq) - size + 1)]
        assert len(grams) == len(set(grams)) and len(gen) > 30


def test_tag_mask_wins_over_ngram_ban() -> None:
    lm = random_lm()
    prompt = lm.encode("<NameSTART> w1 <NameEND> w2 <NameSTART> w1")
    out = beam().generate(lm, [prompt], GenerationSettings(min_tokens=0, max_tokens=1), RNG)
    assert lm.decode(out[0]) == "<NameEND>"


@pytest.mark.parametrize("seed", range(3))
def test_tag_safe_gives_well_formed_tags(seed: int) -> None:
    lm = random_lm(seed)
    lm.table[:, lm.eod_id] -= 3.0  # long notes, many tags
    prompts = random_prompts(lm, 24, seed) + [lm.encode("w1 <NameSTART> w2"), lm.encode("<DateSTART> w3")]
    settings = GenerationSettings(min_tokens=5, max_tokens=40)
    outs = beam(num_beams=3).generate(lm, prompts, settings, RNG)
    starts = sum(lm.decode(g).count("START>") for g in outs)
    assert starts >= 10
    assert sum(malformed(lm, p, g) for p, g in zip(prompts, outs)) == 0
    unsafe = GenerationSettings(min_tokens=5, max_tokens=40, tag_safe=False)
    outs = beam(num_beams=3).generate(lm, prompts, unsafe, RNG)
    assert sum(malformed(lm, p, g) for p, g in zip(prompts, outs)) > 0


def test_min_and_max_tokens() -> None:
    lm = random_lm()
    prompts = random_prompts(lm, 12)
    lm.table[:, lm.eod_id] += 10.0  # EOD is by far the likeliest token
    outs = beam().generate(lm, prompts, GenerationSettings(min_tokens=7, max_tokens=20), RNG)
    assert all(lm.eod_id not in g[:7] and g[-1] == lm.eod_id for g in outs)
    assert sum(len(g) == 8 for g in outs) >= 8  # most end at once (the others first close a tag)
    lm.table[:, lm.eod_id] -= 40.0  # now EOD never wins
    outs = beam().generate(lm, prompts, GenerationSettings(min_tokens=7, max_tokens=20), RNG)
    assert all(len(g) == 20 and lm.eod_id not in g for g in outs)


def test_prefer_phi_picks_the_beam_with_most_start_tags() -> None:
    edges = {
        "x": {"<EOD>": 0.55, "<NameSTART>": 0.3, "<DateSTART>": 0.1, "y": 0.05},
        "<NameSTART>": {"jan": 1.0},
        "jan": {"<NameEND>": 1.0},
        "<NameEND>": {"<EOD>": 1.0},
        "<DateSTART>": {"mei": 1.0},
        "mei": {"<DateEND>": 1.0},
        "<DateEND>": {"<EOD>": 1.0},
        "y": {"<EOD>": 1.0},
    }
    lm = table_lm(["x", "y", "jan", "mei"], edges)
    settings = GenerationSettings(min_tokens=0, max_tokens=10)
    plain = beam(num_beams=3, length_penalty=0.0).generate(lm, [lm.encode("x")], settings, RNG)
    assert lm.decode(plain[0]) == "<EOD>"
    phi = beam(num_beams=3, length_penalty=0.0, prefer_phi=True).generate(lm, [lm.encode("x")], settings, RNG)
    assert lm.decode(phi[0]) == "<NameSTART> jan <NameEND> <EOD>"  # Date has one START too, lower score


class TrigramLM(BigramLM):
    """Logits depend on the last two tokens: checks that beams reorder the whole state."""

    def start(self, prompts: list[list[int]]) -> tuple[Any, torch.Tensor]:
        par = self.index["<PAR>"]
        prev = torch.tensor([p[-2] if len(p) > 1 else par for p in prompts], dtype=torch.long)
        last = torch.tensor([p[-1] if p else par for p in prompts], dtype=torch.long)
        return (prev, last), self._logits(prev, last)

    def _logits(self, prev: torch.Tensor, last: torch.Tensor) -> torch.Tensor:
        return self.table[last] + self.table.T[prev]

    def step(self, state: Any, tokens: torch.Tensor) -> tuple[Any, torch.Tensor]:
        return (state[1], tokens), self._logits(state[1], tokens)

    def select(self, state: Any, rows: torch.Tensor) -> Any:
        return state[0][rows], state[1][rows]


def test_batched_prompts_equal_one_at_a_time() -> None:
    lm = TrigramLM(WORDS, LABELS, seed=4)
    lm.table = lm.table * 2
    prompts = random_prompts(lm, 10) + [[], lm.encode("w3 <AgeSTART>"), lm.encode("<NameSTART> w1 w2 w3 w4")]
    settings = GenerationSettings(min_tokens=4, max_tokens=25)
    dec = beam(num_beams=4)
    together = dec.generate(lm, prompts, settings, RNG)
    assert together == [dec.generate(lm, [p], settings, RNG)[0] for p in prompts]
    assert len(set(map(tuple, together))) > 5


def test_deterministic_regardless_of_rng() -> None:
    lm = random_lm()
    prompts = random_prompts(lm, 6)
    settings = GenerationSettings(min_tokens=3, max_tokens=20)
    a = beam().generate(lm, prompts, settings, torch.Generator().manual_seed(1))
    assert a == beam().generate(lm, prompts, settings, torch.Generator().manual_seed(2))


class MaskedFill:
    """Looks like the masked-LM refill generator: no step-by-step interface."""

    def generate_corpus(self, *args: Any) -> list[str]:
        return []


def test_check_rejects_models_without_select() -> None:
    with pytest.raises(SynthdeidError, match=r"'beam' cannot drive MaskedFill.*select\(\)"):
        beam().check(MaskedFill())
    with pytest.raises(SynthdeidError, match="MaskedFill"):
        generate_corpus(MaskedFill(), beam(), ["a b"], GenerationSettings(), 10, seed=0)
    beam().check(random_lm())


def test_generate_corpus_with_beam() -> None:
    lm = random_lm()
    lm.table[:, lm.eod_id] += 2.0
    prompts = ["w1 w2 w3", "w4 <NameSTART> w5", "w6 w7"]
    settings = GenerationSettings(min_tokens=5, max_tokens=30, batch_size=4)
    notes = generate_corpus(lm, beam(num_beams=3), prompts, settings, target_tokens=150, seed=3)
    assert len(notes) % 4 == 0 and len(notes) >= 4
    assert all(text.startswith(prompt + " ") for prompt, text in notes)
    assert sum(len(text.split()) for _, text in notes) >= 150
    assert all(inline.decode(text, "n").count("unclosed") == 0 for _, text in notes)


def test_matches_transformers_beam_search() -> None:
    """Same hypotheses as transformers' beam search (tag mask off, no minimum length)."""
    transformers = pytest.importorskip("transformers")
    eod, vocab = 1, 20
    torch.manual_seed(0)
    config = transformers.GPT2Config(
        vocab_size=vocab,
        n_positions=32,
        n_embd=16,
        n_layer=1,
        n_head=2,
        initializer_range=0.5,
        eos_token_id=eod,
        bos_token_id=eod,
        pad_token_id=eod,
    )
    model = transformers.GPT2LMHeadModel(config).eval()

    class Wrapped:
        vocab = ["<unk>", "<EOD>"] + [f"t{i}" for i in range(18)]
        eod_id = eod

        def encode(self, text: str) -> list[int]:
            return []

        def decode(self, ids: list[int]) -> str:
            return ""

        def _logits(self, ids: torch.Tensor) -> torch.Tensor:
            with torch.no_grad():
                return model(ids).logits[:, -1].float()

        def start(self, prompts: list[list[int]]) -> tuple[Any, torch.Tensor]:
            ids = torch.tensor(prompts)
            return ids, self._logits(ids)

        def step(self, state: Any, tokens: torch.Tensor) -> tuple[Any, torch.Tensor]:
            ids = torch.cat([state, tokens[:, None]], 1)
            return ids, self._logits(ids)

        def select(self, state: Any, rows: torch.Tensor) -> Any:
            return state[rows]

    prompts = torch.randint(2, vocab, (4, 3), generator=torch.Generator().manual_seed(0))
    with torch.no_grad():
        out = model.generate(
            prompts,
            attention_mask=torch.ones_like(prompts),
            num_beams=3,
            no_repeat_ngram_size=2,
            length_penalty=1.0,
            max_new_tokens=12,
            do_sample=False,
            early_stopping=False,
            pad_token_id=eod,
            eos_token_id=eod,
        )
    expected = [row[: row.index(eod) + 1] if eod in row else row for row in out[:, 3:].tolist()]
    settings = GenerationSettings(min_tokens=0, max_tokens=12, tag_safe=False)
    assert beam(num_beams=3).generate(Wrapped(), prompts.tolist(), settings, RNG) == expected
