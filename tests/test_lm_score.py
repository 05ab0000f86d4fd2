"""``synthdeid.privacy.lm_score``: teacher-forced log-likelihoods through ``start``/``step`` equal a direct
computation, for a bigram model (any batch size, prefixes, masked targets) and a tiny GPT-2."""

from __future__ import annotations

import math

import pytest
import torch
from hf_tiny import LABELS, restore_threads, training_data  # noqa: F401

from synthdeid.corpus.inline import PAR, special_tokens
from synthdeid.generation.toy_lm import BigramLM
from synthdeid.privacy.lm_score import context_limit, score_sequences, texts_to_score

WORDS = ["de", "patiënt", "sliep", "goed", "1", "2", "3"]


def direct_bigram(lm: BigramLM, prefix: list[int], targets: list[int]) -> tuple[float, int, int]:
    """(nll, scored, masked) by walking the table by hand."""
    last = prefix[-1] if prefix else lm.index[PAR]
    nll, scored, masked = 0.0, 0, 0
    for t in targets:
        lp = torch.log_softmax(lm.table[last].double(), -1)[t].item()
        if lp == -math.inf:
            masked += 1
        else:
            nll -= lp
            scored += 1
        last = t
    return nll, scored, masked


@pytest.fixture
def bigram() -> BigramLM:
    return BigramLM(WORDS, seed=1)


def sequences(lm: BigramLM, n: int, seed: int) -> tuple[list[list[int]], list[list[int]]]:
    g = torch.Generator().manual_seed(seed)
    vocab = len(lm.vocab)
    lengths = torch.randint(0, 9, (n,), generator=g).tolist()
    targets = [torch.randint(1, vocab, (k,), generator=g).tolist() for k in lengths]
    prefixes = [torch.randint(1, vocab, (k % 3,), generator=g).tolist() for k in lengths]
    return targets, prefixes


@pytest.mark.parametrize("batch_size", [1, 3, 100])
def test_bigram_scores_equal_the_direct_computation(bigram, batch_size):
    targets, prefixes = sequences(bigram, 25, 0)
    scores = score_sequences(bigram, targets, prefixes, batch_size=batch_size)
    assert len(scores) == len(targets)
    for s, t, p in zip(scores, targets, prefixes):
        nll, scored, masked = direct_bigram(bigram, p, t)
        assert s.tokens == scored == len(t) and s.masked == masked == 0 and not s.truncated
        assert s.nll == pytest.approx(nll, abs=1e-4)
        if t:
            assert s.mean_nll == pytest.approx(nll / len(t), abs=1e-5)
            assert s.log_perplexity_bits == pytest.approx(nll / math.log(2), abs=1e-4)
        else:
            assert math.isnan(s.mean_nll)


def test_masked_targets_are_counted_not_scored(bigram):
    banned = bigram.index["goed"]
    bigram.table[:, banned] = float("-inf")  # as the LSTM does with <unk>
    targets = [bigram.encode("de patiënt sliep goed 1"), bigram.encode("goed goed")]
    scores = score_sequences(bigram, targets)
    for s, t in zip(scores, targets):
        nll, scored, masked = direct_bigram(bigram, [], t)
        assert (s.tokens, s.masked) == (scored, masked) and s.nll == pytest.approx(nll, abs=1e-4)
    assert (scores[0].masked, scores[1].masked, scores[1].tokens) == (1, 2, 0)


def test_texts_to_score_keeps_the_start_ids_as_prefix(bigram):
    assert texts_to_score(bigram, ["de 1 2"]) == [([], bigram.encode("de 1 2"))]


@pytest.fixture(scope="module")
def tiny_gpt2():
    """An untrained tiny GPT-2 behind the adapter, with a short context."""
    from transformers import GPT2Config, GPT2LMHeadModel

    from synthdeid.generation.hf_lm import HFCausalLM, InlineCodec, train_bpe

    data = training_data(30, 4)
    specials = special_tokens(LABELS)
    tok = train_bpe(data.train, specials, 400)
    torch.manual_seed(0)
    model = GPT2LMHeadModel(GPT2Config(vocab_size=len(tok), n_positions=40, n_embd=32, n_layer=2, n_head=2))
    return HFCausalLM(model, InlineCodec(tok, specials)), data.train


def test_gpt2_scores_equal_one_full_forward_pass(tiny_gpt2):
    """Scores are under the distribution the adapter gives decoders, its masks included."""
    lm, lines = tiny_gpt2
    texts = [" ".join(line.split()[:n]) for line, n in zip(lines, (3, 9, 14, 6))] + [" ".join(lines[:3])]
    pairs = texts_to_score(lm, texts)
    assert all(p == [lm.codec.start_id] for p, _ in pairs)
    scores = score_sequences(lm, [t for _, t in pairs], [p for p, _ in pairs], batch_size=2)
    limit = context_limit(lm)
    assert limit == 38
    for (prefix, targets), s in zip(pairs, scores):
        ids = (prefix + targets)[:limit]
        with torch.inference_mode():
            logits = lm.model(torch.tensor([ids])).logits[0].double()
        logits = logits.clone()
        for i, t in enumerate(ids):  # the adapter's own mask: no blank subword right after a START tag
            if t in lm.codec.start_tag_ids:
                logits[i, lm._blank] = float("-inf")
        logp = torch.log_softmax(logits, -1)
        nll = -sum(logp[i, ids[i + 1]].item() for i in range(len(prefix) - 1, len(ids) - 1))
        assert s.truncated == (len(prefix) + len(targets) > limit)
        assert s.tokens == len(ids) - len(prefix) and s.masked == 0
        assert s.nll == pytest.approx(nll, rel=1e-4)
    assert any(s.truncated for s in scores)
