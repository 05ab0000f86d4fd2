"""Vocabulary anonymization (Verkijk & Vossen): PHI tokens of the training text found from the
inline tags, replaced by <unk_N> in a trained LSTM's vocabulary, and never generated afterwards."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import torch
from test_lstm import FIRST, LAST, generator, toy_data

from synthdeid import SynthdeidError
from synthdeid.api import GenerationSettings, VocabAnonymizer
from synthdeid.cli import main as cli
from synthdeid.generation.generate import generate_corpus
from synthdeid.generation.vocab_anonymize import (
    REPORT,
    UNK_PATTERN,
    phi_tokens,
    unk_tokens,
)
from synthdeid.plugins import registry
from synthdeid.spec.vocab_anonymization import VocabAnonymization

LINES = [
    "Mw. <NameSTART> Anna de Vries <NameEND> belde op <DateSTART> 3 mei <DateEND> . <EOD>",
    "De dochter van <NameSTART> Jansen <NameEND> komt in mei . <EOD>",
    "Zij zag de arts bij de balie . <EOD>",
]


def test_phi_tokens_are_those_mostly_inside_the_chosen_spans() -> None:
    assert phi_tokens(LINES) == {"Anna", "Vries", "Jansen"}  # "de" is mostly outside a name
    assert phi_tokens(LINES, None) == {"Anna", "Vries", "Jansen", "3", "mei"}  # "mei": half in a date
    assert phi_tokens(LINES, ["Date"], min_share=0.6) == {"3"}


def test_unk_tokens_are_distinct_seeded_and_new() -> None:
    a = unk_tokens(50, 1, ["<unk_1234567890>"])
    assert len(set(a)) == 50 and a == unk_tokens(50, 1) and all(UNK_PATTERN.fullmatch(t) for t in a)


@pytest.fixture(scope="module")
def anonymized(tmp_path_factory) -> tuple[Path, dict]:
    out = tmp_path_factory.mktemp("lstm-anon")
    data = toy_data(200, 20)
    generator(max_epochs=2).train(data, out)
    text = out.parent / f"{out.name}-train.txt"
    text.write_text("\n".join(data.train) + "\n", encoding="utf-8")
    before = json.loads((out / "vocab.json").read_text(encoding="utf-8"))
    assert cli(["anonymize-vocab", str(out), "--text", str(text)]) == 0
    return out, {"before": before}


def test_removed_names_leave_the_vocabulary_and_the_release_folder(anonymized) -> None:
    out, info = anonymized
    vocab = json.loads((out / "vocab.json").read_text(encoding="utf-8"))
    names = {w for n in FIRST + LAST for w in n.split()}  # "de" only occurs in "de Vries" here
    assert names <= set(info["before"]) and not names & set(vocab)
    assert len(vocab) == len(info["before"])  # same ids: the weights still fit
    assert sum(bool(UNK_PATTERN.fullmatch(t)) for t in vocab) == len(names)
    assert not (out / "checkpoint.pt").exists()  # it held the old vocabulary
    report = (out / REPORT).read_text(encoding="utf-8")
    assert json.loads(report)["replaced"] == len(names) and not any(n in report for n in names)


def test_removed_tokens_cannot_be_generated(anonymized) -> None:
    out, _ = anonymized
    lm = generator().load(out)
    removed = [i for i, t in enumerate(lm.vocab) if UNK_PATTERN.fullmatch(t)]
    _, logits = lm.start([lm.encode("Gesprek met <NameSTART>")])
    assert torch.isinf(logits[0, removed]).all() and (logits[0, removed] < 0).all()
    decoder = registry("decoder").create("temperature", {"temperature": 3.0})  # flat: anything possible
    notes = generate_corpus(
        lm,
        decoder,
        ["Gesprek met", "Cliënt heeft"],
        GenerationSettings(min_tokens=5, max_tokens=40, batch_size=4),
        target_tokens=600,
        seed=0,
    )
    text = " ".join(t for _, t in notes)
    assert "<NameSTART>" in text and not UNK_PATTERN.search(text)
    assert not {w for n in FIRST + LAST for w in n.split()} & set(text.split())


def test_a_bpe_model_is_refused_with_the_reason(tmp_path: Path) -> None:
    from synthdeid.generation.vocab_anonymize import anonymize_model_dir

    gpt2 = registry("generator").create("gpt2")
    assert not isinstance(gpt2, VocabAnonymizer) and isinstance(generator(), VocabAnonymizer)
    with pytest.raises(SynthdeidError, match="'gpt2' generator .*BPE"):
        anonymize_model_dir(gpt2, tmp_path, LINES, VocabAnonymization())


def test_the_cli_refuses_a_model_dir_that_is_not_word_level(tmp_path: Path) -> None:
    text = tmp_path / "train.txt"
    text.write_text("\n".join(LINES), encoding="utf-8")
    assert cli(["anonymize-vocab", str(tmp_path), "--text", str(text)]) == 1  # lstm: vocab.json is missing
    assert cli(["anonymize-vocab", str(tmp_path), "--text", str(text), "--generator", "gpt2"]) == 1


@pytest.mark.parametrize(
    "value, ok", [(True, True), (False, False), (None, False), ({"labels": ["Name", "Date"]}, True)]
)
def test_the_train_lm_setting(value, ok) -> None:
    from synthdeid.spec.study import GeneratorSection

    settings = GeneratorSection.model_validate({"plugin": "lstm", "anonymize_vocab": value}).anonymize_vocab
    assert (settings is not None) == ok and (settings is None or isinstance(settings, VocabAnonymization))


def test_bad_train_lm_setting() -> None:
    from pydantic import ValidationError

    from synthdeid.spec.study import GeneratorSection

    with pytest.raises(ValidationError, match="min_share"):
        GeneratorSection.model_validate({"plugin": "lstm", "anonymize_vocab": {"min_share": 2}})
    with pytest.raises(ValidationError, match="labels\n  must name at least one tag"):
        VocabAnonymization(labels=())
