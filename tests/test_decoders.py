"""The sampling decoders, the shared sampling loop and the tag-safe mask, driven by ``BigramLM``."""

from __future__ import annotations

import math
from typing import Any

import pytest
import torch

from synthdeid import SynthdeidError
from synthdeid.api import GenerationSettings
from synthdeid.corpus import inline
from synthdeid.generation.generate import count_tokens, generate_corpus
from synthdeid.generation.tagmask import TagMask
from synthdeid.generation.toy_lm import BigramLM
from synthdeid.plugins import registry
from synthdeid.plugins.decoders import nucleus_threshold, sample_rows

NEG = float("-inf")
MALFORMED = ("unclosed", "unopened", "nested", "crossing", "empty")
WORDS = [f"w{i}" for i in range(40)]
LABELS = ("Name", "Date", "Age", "Address", "Phone_fax", "Hospital")
PROMPTS = ["w1 w2 w3", "w4 w5", "w6", "w7 <NameSTART> w8", "w9 w10 w11 w12"]


def decoder(name: str, **config: Any) -> Any:
    return registry("decoder").create(name, config)


def random_lm(seed: int = 0, labels: tuple[str, ...] = LABELS, scale: float = 2.0) -> BigramLM:
    lm = BigramLM(WORDS, labels, seed=seed)
    lm.table = lm.table * scale
    return lm


def run(
    dec: Any, lm: BigramLM, prompts: list[list[int]], settings: GenerationSettings, seed: int = 0
) -> list[list[int]]:
    return dec.generate(lm, prompts, settings, torch.Generator().manual_seed(seed))


def many(lm: BigramLM, text: str, n: int) -> list[list[int]]:
    return [lm.encode(text)] * n


def malformed(lm: BigramLM, prompt: list[int], gen: list[int]) -> int:
    decoded = inline.decode(lm.decode(prompt + gen), "note")
    return sum(decoded.count(kind) for kind in MALFORMED)


SETTINGS = GenerationSettings(min_tokens=5, max_tokens=30)


# --- the decoders ---------------------------------------------------------------------------


def test_nucleus_really_samples() -> None:
    lm = random_lm()
    settings = GenerationSettings(min_tokens=5, max_tokens=30, batch_size=8)
    a = generate_corpus(lm, decoder("nucleus"), PROMPTS, settings, target_tokens=200, seed=1)
    b = generate_corpus(lm, decoder("nucleus"), PROMPTS, settings, target_tokens=200, seed=2)
    assert [t for _, t in a] != [t for _, t in b]
    prompts = many(lm, "w1 w2", 20)
    greedy = run(decoder("greedy"), lm, prompts, settings)
    nucleus = run(decoder("nucleus", top_p=0.95), lm, prompts, settings)
    assert len({tuple(g) for g in greedy}) == 1
    assert len({tuple(g) for g in nucleus}) > 10 and nucleus != greedy  # the seed paper's bug: greedy


def test_nucleus_flat_table_spreads_over_the_vocabulary() -> None:
    lm = BigramLM(WORDS, ("Name",), table=torch.zeros(len(WORDS) + 5, len(WORDS) + 5))
    out = run(decoder("nucleus", top_p=0.95), lm, many(lm, "w1", 400), SETTINGS)
    first = {g[0] for g in out}
    # allowed at position 0: 40 words, <unk>, <PAR>, <NameSTART>; top_p keeps ~95% of them
    assert len(first) >= 35


def test_sample_rows_follows_the_weights_and_never_draws_a_zero() -> None:
    weights = torch.zeros(3, 150)  # 150 columns: two full blocks of 64 and a partial one
    weights[0, [3, 70, 149]] = torch.tensor([1.0, 2.0, 1.0])
    weights[1] = torch.linspace(0.0, 1.0, 150)  # column 0 has weight 0
    weights[2, 149] = 1.0
    rng = torch.Generator().manual_seed(0)
    draws = torch.stack([sample_rows(weights, rng) for _ in range(4000)])
    first = torch.bincount(draws[:, 0], minlength=150)
    assert set(first.nonzero().flatten().tolist()) == {3, 70, 149}
    assert abs(first[70].item() / 4000 - 0.5) < 0.03 and abs(first[3].item() / 4000 - 0.25) < 0.03
    assert (draws[:, 1] > 0).all()
    upper = weights[1, 75:].sum() / weights[1].sum()  # the share of the upper half of the columns
    assert abs((draws[:, 1] >= 75).float().mean() - upper) < 0.03
    assert (draws[:, 2] == 149).all()
    rerun = torch.stack([sample_rows(weights, torch.Generator().manual_seed(0)) for _ in range(3)])
    assert (rerun == rerun[0]).all()  # seeded


def test_nucleus_threshold_keeps_the_top_tokens_until_top_p() -> None:
    probs = torch.tensor([[0.5, 0.3, 0.1, 0.1], [0.25] * 4, [0.05, 0.7, 0.2, 0.05]])
    assert nucleus_threshold(probs, 0.75).tolist() == pytest.approx([0.3, 0.25, 0.2])  # ties all kept
    assert nucleus_threshold(probs, 1.0).tolist() == pytest.approx([0.1, 0.25, 0.05])
    assert nucleus_threshold(probs, 1e-6).tolist() == pytest.approx([0.5, 0.25, 0.7])


def test_tiny_top_p_top_k_1_and_cold_temperature_are_greedy() -> None:
    lm = random_lm(3)
    prompts = [lm.encode(p) for p in PROMPTS] * 4
    greedy = run(decoder("greedy"), lm, prompts, SETTINGS)
    assert run(decoder("nucleus", top_p=1e-6), lm, prompts, SETTINGS, seed=5) == greedy
    assert run(decoder("top_k", top_k=1), lm, prompts, SETTINGS, seed=6) == greedy
    assert run(decoder("temperature", temperature=1e-5), lm, prompts, SETTINGS, seed=7) == greedy


def test_top_k_picks_only_among_the_k_highest() -> None:
    lm = BigramLM(WORDS, labels=(), seed=1)  # no tags; distinct random logits
    settings = GenerationSettings(min_tokens=0, max_tokens=12, tag_safe=False)
    prompts = many(lm, "w5", 300)
    out = run(decoder("top_k", top_k=3), lm, prompts, settings)
    top3 = set(lm.table[lm.index["w5"]].topk(3).indices.tolist())
    assert {g[0] for g in out} == top3
    for prompt, gen in zip(prompts, out):
        for prev, tok in zip(prompt[-1:] + gen, gen):
            assert tok in lm.table[prev].topk(3).indices.tolist()


def test_temperature_controls_diversity() -> None:
    lm = random_lm(2, scale=3.0)
    prompts = many(lm, "w1", 400)

    def distinct(t: float) -> int:
        return len({g[0] for g in run(decoder("temperature", temperature=t), lm, prompts, SETTINGS)})

    cold, warm, hot = distinct(0.3), distinct(1.0), distinct(3.0)
    assert cold < warm < hot


def test_same_seed_same_corpus() -> None:
    lm = random_lm()
    settings = GenerationSettings(min_tokens=5, max_tokens=30, batch_size=4)
    for name in ("nucleus", "temperature", "top_k"):
        a = generate_corpus(lm, decoder(name), PROMPTS, settings, target_tokens=150, seed=9)
        assert a == generate_corpus(lm, decoder(name), PROMPTS, settings, target_tokens=150, seed=9)


@pytest.mark.parametrize(
    ("name", "config", "message"),
    [
        ("nucleus", {"p": 0.9}, r"'nucleus' has no setting\(s\) p"),
        ("nucleus", {"top_p": 0}, r"decoder 'nucleus': setting 'top_p' must be in \(0, 1\], got 0.0; set it within"),
        ("nucleus", {"top_p": 1.5}, r"decoder 'nucleus': setting 'top_p' must be in \(0, 1\], got 1.5"),
        (
            "nucleus",
            {"temperature": 0},
            "decoder 'nucleus': setting 'temperature' must be > 0, got 0.0; set it above 0",
        ),
        ("temperature", {"temperature": 0}, "decoder 'temperature': setting 'temperature' must be > 0, got 0.0"),
        ("top_k", {"top_k": 0}, "decoder 'top_k': setting 'top_k' must be >= 1, got 0; set it to 1 or more"),
        ("top_k", {"top_k": 2.5}, "decoder 'top_k': setting 'top_k' must be a whole number >= 1, got 2.5"),
        ("top_k", {"temperature": True}, "decoder 'top_k': setting 'temperature' must be a number > 0, got True"),
        ("greedy", {"top_p": 0.9}, r"'greedy' has no setting\(s\) top_p"),
    ],
)
def test_config_errors(name: str, config: dict[str, Any], message: str) -> None:
    with pytest.raises(SynthdeidError, match=message):
        decoder(name, **config)


def test_direct_construction_is_checked_by_the_same_bounds() -> None:
    from pydantic import ValidationError

    from synthdeid.plugins.decoders import Nucleus, Temperature, TopK

    assert (Nucleus().top_p, Nucleus().temperature, TopK().top_k, Temperature().temperature) == (0.95, 1.0, 40, 1.0)
    for make, message in [
        (lambda: Nucleus(top_p=2.0), "top_p\n  Input should be less than or equal to 1"),
        (lambda: TopK(top_k=0), "top_k\n  Input should be greater than or equal to 1"),
        (lambda: Temperature(temperature=-1.0), "temperature\n  Input should be greater than 0"),
    ]:
        with pytest.raises(ValidationError, match=message):
            make()


def test_unknown_setting_lists_the_valid_ones() -> None:
    with pytest.raises(SynthdeidError, match=r"'nucleus' has no setting\(s\) p; its settings are: temperature, top_p"):
        decoder("nucleus", p=0.9)


def test_settings_reject_bad_budgets() -> None:
    for bad in (
        {"min_tokens": 400, "max_tokens": 400},
        {"min_tokens": 50, "max_tokens": 10},
        {"min_tokens": -1},
        {"batch_size": 0},
    ):
        with pytest.raises(SynthdeidError):
            GenerationSettings(**bad)


def test_check_rejects_non_models() -> None:
    with pytest.raises(SynthdeidError, match="'nucleus' cannot drive object"):
        decoder("nucleus").check(object())
    decoder("nucleus").check(random_lm())


# --- tag safety and budgets ---------------------------------------------------------------


@pytest.mark.parametrize("seed", range(3))
def test_tag_safe_no_malformed_tags_and_unsafe_has_some(seed: int) -> None:
    lm = random_lm(seed)
    prompts = [lm.encode(p) for p in PROMPTS] * 12
    safe = run(decoder("nucleus"), lm, prompts, SETTINGS, seed)
    assert sum(lm.decode(g).count("START>") for g in safe) >= 30
    assert sum(malformed(lm, p, g) for p, g in zip(prompts, safe)) == 0
    unsafe = run(decoder("nucleus"), lm, prompts, GenerationSettings(min_tokens=5, max_tokens=30, tag_safe=False), seed)
    assert sum(malformed(lm, p, g) for p, g in zip(prompts, unsafe)) > 0


def test_prompt_with_an_open_tag_gets_it_closed() -> None:
    lm = random_lm()
    end = lm.index["<NameEND>"]
    lm.table[:, end] -= 8.0  # the model hardly ever closes it on its own
    prompts = many(lm, "w1 <NameSTART> w2", 50)
    for gen in run(decoder("nucleus"), lm, prompts, SETTINGS):
        tags = [t for t in gen if lm.vocab[t].startswith("<") and lm.vocab[t] not in ("<PAR>", "<unk>")]
        assert tags[0] == end
        assert malformed(lm, prompts[0], gen) == 0


def test_no_eod_before_min_tokens() -> None:
    lm = random_lm(labels=("Name",))
    lm.table[:, lm.eod_id] += 10.0
    prompts = [lm.encode(p) for p in PROMPTS] * 10
    out = run(decoder("nucleus"), lm, prompts, GenerationSettings(min_tokens=12, max_tokens=30))
    assert all(lm.eod_id not in g[:12] for g in out)
    # EOD is taken as soon as allowed, unless a tag is open (then it must be closed first)
    assert sum(len(g) == 13 and g[-1] == lm.eod_id for g in out) >= 20


def test_max_tokens_is_a_hard_budget() -> None:
    lm = random_lm()
    prompts = [lm.encode(p) for p in PROMPTS] * 10
    assert all(len(g) <= 30 for g in run(decoder("nucleus"), lm, prompts, SETTINGS))
    lm.table[:, lm.eod_id] -= 30.0
    assert all(len(g) == 30 for g in run(decoder("temperature"), lm, prompts, SETTINGS))


def test_tag_open_at_the_budget_end_gets_closed() -> None:
    lm = random_lm()
    mask = TagMask(lm.vocab, lm.eod_id)
    lm.table[:, mask.start_ids] += 6.0  # tags open all the time
    lm.table[:, mask.end_ids] -= 6.0  # and stay open
    prompts = [lm.encode(p) for p in PROMPTS] * 10
    out = run(decoder("nucleus"), lm, prompts, GenerationSettings(min_tokens=5, max_tokens=15))
    ends = set(mask.end_ids.tolist())
    assert sum(len(g) == 15 and g[-1] in ends for g in out) >= 10  # closed by the budget rule
    assert sum(malformed(lm, p, g) for p, g in zip(prompts, out)) == 0


def test_tag_mask_rules() -> None:
    lm = random_lm(labels=("Name", "Date"))
    ix = lm.index
    mask = TagMask(lm.vocab, lm.eod_id)
    mask.reset([lm.encode("w1"), lm.encode("<NameSTART> w1"), lm.encode("<DateSTART> w2 <DateEND>")])
    allowed = mask.apply(torch.zeros(3, len(lm.vocab)), 0, 0, 10) > NEG
    assert not allowed[0, ix["<NameEND>"]] and allowed[0, ix["<NameSTART>"]] and allowed[0, lm.eod_id]
    assert allowed[1, ix["<NameEND>"]] and not allowed[1, ix["<DateEND>"]]
    assert not allowed[1, ix["<DateSTART>"]] and not allowed[1, lm.eod_id]
    assert mask.open.tolist() == [-1, mask.labels.index("Name"), -1]
    # two tokens left: no tag can open (it could not get a word and its END)
    assert not (mask.apply(torch.zeros(3, len(lm.vocab)), 8, 0, 10)[0, mask.start_ids] > NEG).any()
    # last token: the open tag is closed, whatever the model wants
    last = mask.apply(torch.zeros(3, len(lm.vocab)), 9, 0, 10)
    assert (last[1] > NEG).nonzero().flatten().tolist() == [ix["<NameEND>"]]
    mask.update(torch.tensor([ix["<DateSTART>"], ix["<NameEND>"], ix["w3"]]))
    allowed = mask.apply(torch.zeros(3, len(lm.vocab)), 1, 5, 10) > NEG
    assert not allowed[0, ix["<DateEND>"]]  # no empty span
    assert not allowed[:, lm.eod_id].any()  # min_tokens
    mask.select(torch.tensor([2, 0]))
    assert mask.open.tolist() == [-1, mask.labels.index("Date")]


def test_prompt_ending_in_start_tag_cannot_close_at_once() -> None:
    lm = random_lm()
    lm.table[:, lm.index["<NameEND>"]] += 20.0
    prompt = lm.encode("w1 <NameSTART>")
    gen = run(decoder("greedy"), lm, [prompt], SETTINGS)[0]
    assert inline.decode(lm.decode(prompt + gen), "n").count("empty") == 0


# --- the corpus loop ------------------------------------------------------------------------


class Counting:
    """Wraps a decoder and records how many notes each batch returned."""

    def __init__(self, inner: Any) -> None:
        self.inner, self.name, self.returned = inner, inner.name, []

    def check(self, model: Any) -> None:
        self.inner.check(model)

    def generate(
        self, model: Any, prompts: list[list[int]], settings: GenerationSettings, rng: torch.Generator
    ) -> list[list[int]]:
        out = self.inner.generate(model, prompts, settings, rng)
        self.returned.append(len(out))
        return out


def test_generate_corpus_reaches_target_and_keeps_whole_batches() -> None:
    lm = random_lm()
    lm.table[:, lm.eod_id] += 2.0
    settings = GenerationSettings(min_tokens=3, max_tokens=30, batch_size=7)
    dec = Counting(decoder("nucleus"))
    notes = generate_corpus(lm, dec, PROMPTS, settings, target_tokens=500, seed=4)
    assert dec.returned == [7] * len(dec.returned) and len(notes) == sum(dec.returned)
    sizes = [count_tokens(text) for _, text in notes]
    assert sum(sizes) >= 500 > sum(sizes[:-7])  # stops after the batch that reached the target
    assert all(text.startswith(prompt) for prompt, text in notes)
    assert {p for p, _ in notes} == set(PROMPTS)


def test_same_seed_same_batches_regardless_of_progress() -> None:
    lm = random_lm()
    seen: list[int] = []
    settings = GenerationSettings(min_tokens=3, max_tokens=20, batch_size=3)
    a = generate_corpus(lm, decoder("nucleus"), PROMPTS, settings, 100, seed=1, progress=seen.append)
    assert a == generate_corpus(lm, decoder("nucleus"), PROMPTS, settings, 100, seed=1)
    assert sum(seen) == sum(count_tokens(t) for _, t in a) and not math.isnan(sum(seen))


def test_yaml_strings_are_accepted_as_numbers_and_junk_is_a_clear_error() -> None:
    from synthdeid.plugin_system.manager import registry

    assert registry("decoder").create("nucleus", {"top_p": "1e-6"}).top_p == 1e-6
    with pytest.raises(SynthdeidError, match=r"setting 'top_p' must be a number in \(0, 1\], got 'lots'"):
        registry("decoder").create("nucleus", {"top_p": "lots"})


def test_unk_counts_as_a_token_but_markup_does_not() -> None:
    from synthdeid.generation.generate import count_tokens

    assert count_tokens("<NameSTART> Jan <NameEND> <unk> . <PAR> ok <EOD>") == 4


def test_no_line_break_inside_a_tag() -> None:
    lm = random_lm()
    lm.table[:, lm.index["<PAR>"]] += 8.0  # a model that loves line breaks
    notes = run(decoder("nucleus"), lm, [lm.encode("w1 <NameSTART>")] * 20, SETTINGS)
    for ids in notes:
        text = lm.decode(ids)
        inside = text.split("<NameEND>")[0]
        assert "<PAR>" not in inside


def test_inside_a_span_the_mass_of_breaking_tokens_goes_to_its_end() -> None:
    lm = random_lm(labels=("Name", "Date"))
    ix = lm.index
    mask = TagMask(lm.vocab, lm.eod_id)
    mask.reset([lm.encode("w1 <NameSTART> w2")])
    logits = torch.randn(1, len(lm.vocab), generator=torch.Generator().manual_seed(0))
    logits[0, ix["<PAR>"]] += 10.0  # the model wants a line break: the name is over
    before = torch.softmax(logits, -1)[0]
    after = torch.softmax(mask.apply(logits, 10, 0, 100), -1)[0]
    breakers = [ix[t] for t in ("<PAR>", "<EOD>", "<NameSTART>", "<DateSTART>", "<NameEND>", "<DateEND>")]
    assert math.isclose(float(after[ix["<NameEND>"]]), float(before[breakers].sum()), rel_tol=1e-5)
    words = [ix[w] for w in WORDS]
    assert torch.allclose(after[words], before[words])  # words keep their probability
    assert float(after[ix["<NameEND>"]]) > 0.9


def test_a_span_is_closed_at_its_labels_limit() -> None:
    lm = random_lm()
    tags = [lm.index[f"<{lab}{kind}>"] for lab in LABELS for kind in ("START", "END")]
    lm.table[:, tags] -= 30.0  # a model that never closes a span (nor wants to start another)
    lm.table[:, lm.index["<PAR>"]] -= 30.0
    lm.table[:, lm.eod_id] -= 30.0
    limits = tuple((lab, 3) for lab in LABELS)
    settings = GenerationSettings(min_tokens=5, max_tokens=60, span_limits=limits)
    for ids in run(decoder("nucleus"), lm, [lm.encode("w1 <NameSTART> w2")] * 8, settings):
        inside, n = False, 1  # the prompt's span already holds one token
        for tok in lm.decode(ids).split():
            if tok.endswith("START>"):
                inside, n = True, 0
            elif tok.endswith("END>"):
                inside = False
            elif inside:
                n += 1
                assert n <= 3
    unlimited = run(
        decoder("nucleus"), lm, [lm.encode("w1 <NameSTART> w2")] * 8, GenerationSettings(min_tokens=5, max_tokens=60)
    )
    assert all(lm.decode(ids).split().index("<NameEND>") > 20 for ids in unlimited)  # run-on without the limit


def test_span_limits_from_the_training_spans() -> None:
    from synthdeid.generation.generate import SPAN_MARGIN, span_limits

    lm = random_lm(labels=("Name", "Date"))
    lines = ["w1 <NameSTART> w2 w3 <NameEND> w4", "<DateSTART> w5 <DateEND> <NameSTART> w6 w7 w8 w9 <NameEND>"]
    assert span_limits(lm, lines, "auto") == (("Date", 1 + SPAN_MARGIN), ("Name", 4 + SPAN_MARGIN))
    assert span_limits(lm, lines, 7) == (("Date", 7), ("Name", 7)) and span_limits(lm, lines, None) == ()
    with pytest.raises(SynthdeidError, match="max_span_tokens must be auto"):
        span_limits(lm, lines, "long")


@pytest.mark.parametrize(
    "name,config",
    [
        ("temperature", {"temperature": 1.0}),
        ("temperature", {"temperature": 2.0}),
        ("nucleus", {"top_p": 1.0}),
        ("top_k", {"top_k": 50}),
        ("beam", {"num_beams": 3}),
    ],
)
@pytest.mark.parametrize("tag_safe", [True, False])
def test_no_span_is_opened_for_a_label_without_training_spans(name: str, config: dict, tag_safe: bool) -> None:
    """The vocabulary holds URL_IP and Age tags, the training notes have spans of Name and Date only:
    however hot the sampling, no generated note opens URL_IP or Age (MEDDOCAN's lstm_temp corpus
    opened URL_IP, a label with no training spans, and filled it with 500 characters of prose)."""
    from synthdeid.generation.generate import span_labels

    labels = ("Name", "Date", "URL_IP", "Age")
    lm = random_lm(seed=3, labels=labels, scale=1.0)
    for label in ("URL_IP", "Age"):  # the unseen labels' STARTs are the most likely tokens everywhere
        lm.table[:, lm.index[f"<{label}START>"]] += 4.0
    trained = span_labels(["w1 <NameSTART> w2 <NameEND> w3", "<DateSTART> w4 <DateEND> w5"])
    assert trained == ("Date", "Name")
    prompts = [lm.encode(p) for p in PROMPTS] * 4
    free = GenerationSettings(min_tokens=5, max_tokens=40, tag_safe=tag_safe)
    opened = " ".join(lm.decode(ids) for ids in run(decoder(name, **config), lm, prompts, free))
    assert "<URL_IPSTART>" in opened and "<AgeSTART>" in opened  # without the labels, they open
    settings = GenerationSettings(min_tokens=5, max_tokens=40, tag_safe=tag_safe, span_labels=trained)
    for seed in range(3):
        text = " ".join(lm.decode(ids) for ids in run(decoder(name, **config), lm, prompts, settings, seed))
        assert "<URL_IPSTART>" not in text and "<AgeSTART>" not in text
        if name != "beam":
            assert "<NameSTART>" in text or "<DateSTART>" in text  # the trained labels still open
