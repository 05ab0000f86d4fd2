"""Tiny transformers models and tokenizers for the gpt2 / causal_lm tests, built offline and saved
with ``save_pretrained`` (no model hub)."""

from __future__ import annotations

import os
import random
from pathlib import Path

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")

import pytest
import torch

from synthdeid.api import TrainingData
from synthdeid.corpus.inline import special_tokens

LABELS = ("Name", "Date")
WORDS = (
    "de patiënt werd gisteren opgenomen met koorts en pijn in de buik . zij kreeg paracetamol "
    "volgens afspraak bij dokter op de afdeling , controle over twee weken"
).split()
NAMES = ("Jan Jansen", "Piet de Vries", "Anna Bakker", "Els Smit")
DATES = ("12 maart", "3 januari 2020", "gisteren", "1-2-2021")
ENGLISH = (
    "the patient was admitted yesterday with fever and pain in the belly . she was given "
    "medication by the doctor on the ward , control in two weeks"
).split()


@pytest.fixture(autouse=True, scope="module")
def restore_threads():
    """The generators set torch's (process-wide) thread count; give the next module the old one."""
    threads = torch.get_num_threads()
    yield
    torch.set_num_threads(threads)


def inline_lines(n: int, seed: int = 0) -> list[str]:
    """Space-separated inline-tag notes ending in <EOD>, like the inline stage writes them."""
    rnd = random.Random(seed)
    lines = []
    for _ in range(n):
        toks: list[str] = []
        for _ in range(rnd.randint(2, 4)):
            toks += rnd.sample(WORDS, rnd.randint(3, 7))
            kind = rnd.random()
            if kind < 0.4:
                toks += ["<NameSTART>", *rnd.choice(NAMES).split(), "<NameEND>"]
            elif kind < 0.7:
                toks += ["<DateSTART>", *rnd.choice(DATES).split(), "<DateEND>"]
            toks.append("<PAR>" if rnd.random() < 0.3 else ".")
        lines.append(" ".join(toks + ["<EOD>"]))
    return lines


def training_data(n_train: int = 60, n_dev: int = 10, seed: int = 0) -> TrainingData:
    return TrainingData(
        train=inline_lines(n_train, seed),
        dev=inline_lines(n_dev, seed + 1),
        special_tokens=special_tokens(LABELS),
        seed=seed,
    )


def _bpe(texts: list[str], vocab_size: int, metaspace: bool, specials: list[str]):  # type: ignore[no-untyped-def]
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers, trainers

    if metaspace:  # SentencePiece-style, like Llama tokenizers
        tok = Tokenizer(models.BPE(unk_token="<unk>"))
        tok.pre_tokenizer = pre_tokenizers.Metaspace()
        tok.decoder = decoders.Metaspace()
        alphabet: list[str] = []
    else:
        tok = Tokenizer(models.BPE())
        tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
        tok.decoder = decoders.ByteLevel()
        alphabet = pre_tokenizers.ByteLevel.alphabet()
    trainer = trainers.BpeTrainer(
        vocab_size=vocab_size, special_tokens=specials, initial_alphabet=alphabet, show_progress=False
    )
    tok.train_from_iterator(texts, trainer=trainer)
    return tok


def save_tiny_gpt2(path: Path, n_layer: int = 3, n_embd: int = 32, seed: int = 0) -> Path:
    """A tiny 'pretrained' English GPT-2 with its own byte-level BPE (``<|endoftext|>``)."""
    from transformers import GPT2Config, GPT2LMHeadModel, GPT2TokenizerFast

    texts = [" ".join(random.Random(i).sample(ENGLISH, 12)) for i in range(200)]
    bpe = _bpe(texts, 400, metaspace=False, specials=["<|endoftext|>"])
    tok = GPT2TokenizerFast(
        tokenizer_object=bpe, bos_token="<|endoftext|>", eos_token="<|endoftext|>", unk_token="<|endoftext|>"
    )
    torch.manual_seed(seed)
    model = GPT2LMHeadModel(
        GPT2Config(
            vocab_size=len(tok),
            n_positions=128,
            n_embd=n_embd,
            n_layer=n_layer,
            n_head=2,
            bos_token_id=0,
            eos_token_id=0,
        )
    )
    model.save_pretrained(path)
    tok.save_pretrained(path)
    return path


def save_tiny_llama(path: Path, seed: int = 0, tie: bool = False) -> Path:
    """A tiny Llama with a SentencePiece-style BPE (``<s>``, ``</s>``, ``<unk>``)."""
    from transformers import LlamaConfig, LlamaForCausalLM, PreTrainedTokenizerFast

    texts = [" ".join(random.Random(i).sample(WORDS + ENGLISH, 12)) for i in range(200)]
    texts += [" ".join(NAMES + DATES)]
    bpe = _bpe(texts, 300, metaspace=True, specials=["<unk>", "<s>", "</s>"])
    tok = PreTrainedTokenizerFast(tokenizer_object=bpe, bos_token="<s>", eos_token="</s>", unk_token="<unk>")
    torch.manual_seed(seed)
    model = LlamaForCausalLM(
        LlamaConfig(
            vocab_size=len(tok),
            hidden_size=32,
            intermediate_size=64,
            num_hidden_layers=2,
            num_attention_heads=4,
            num_key_value_heads=2,
            max_position_embeddings=256,
            bos_token_id=1,
            eos_token_id=2,
            tie_word_embeddings=tie,
        )
    )
    model.save_pretrained(path)
    tok.save_pretrained(path)
    return path
