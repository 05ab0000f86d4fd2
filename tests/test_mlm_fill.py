"""The mlm_fill generator (masked-LM refill, Belkadi et al.): config, training, resuming and
generation on a tiny model (2 layers x 32) trained on toy notes built here."""

from __future__ import annotations

import difflib
import json
import random
from pathlib import Path
from typing import Any

import pytest
import torch

from synthdeid import Document, InputError, Span, SynthdeidError
from synthdeid.api import GenerationSettings, TrainingData
from synthdeid.corpus.inline import decode, encode, special_tokens
from synthdeid.generation.generate import count_tokens
from synthdeid.plugins import registry
from synthdeid.plugins.mlm_fill import MLMFillConfig, MLMFillGenerator, MLMFillModel
from synthdeid.plugins.mlm_fill.fill import windows
from synthdeid.plugins.mlm_fill.notes import plan_masks, rebuild, split_pieces

NAMES = ["Jan Jansen", "Piet de Vries", "Anna Bakker", "Sara Visser", "Tom Smit", "Eva de Boer", "Ali Yilmaz"]
DATES = ["12-03-2020", "1 mei", "3 juni 2021", "gisteren", "14 februari"]
SENTENCES = [
    "Patiënt {n} kwam op {d} op controle .",
    "Mevrouw {n} heeft sinds {d} pijn in de knie .",
    "Afspraak met {n} gepland op {d} .",
    "Meneer {n} belde op {d} over zijn medicatie .",
    "Dochter van {n} was op {d} op bezoek en maakt zich zorgen .",
]
TINY = dict(
    vocab_size=400,
    hidden_size=32,
    layers=2,
    heads=2,
    intermediate_size=64,
    block_size=32,
    max_epochs=2,
    batch_size=8,
    min_count=1,
    learning_rate=3e-3,
    threads=1,
    warmup_steps=12,
)  # warm-up spans the epoch boundary


def toy_note(i: int, n_sentences: int, rnd: random.Random) -> Document:
    text, spans = "", []
    for k in range(n_sentences):
        pre, rest = rnd.choice(SENTENCES).split("{n}")
        mid, post = rest.split("{d}")
        text += ("\n" if k else "") + pre
        spans.append(Span(len(text), len(text) + len(name := rnd.choice(NAMES)), "Name"))
        text += name + mid
        spans.append(Span(len(text), len(text) + len(date := rnd.choice(DATES)), "Date"))
        text += date + post
    return Document.create(f"note-{i}", text, spans)


def toy_data(n: int = 40) -> TrainingData:
    rnd = random.Random(7)
    lines = [encode(toy_note(i, rnd.randint(2, 4), rnd)) for i in range(n)]
    return TrainingData(train=lines[: n - 8], dev=lines[n - 8 :], special_tokens=special_tokens(["Name", "Date"]))


@pytest.fixture(autouse=True)
def offline(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")


@pytest.fixture(scope="module")
def trained(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, Any]]:
    out = tmp_path_factory.mktemp("mlm") / "model"
    return out, MLMFillGenerator(MLMFillConfig(**TINY)).train(toy_data(), out)


def load(out: Path, **changes: Any) -> MLMFillModel:
    return registry("generator").create("mlm_fill", {**TINY, **changes}).load(out)


def decoder(name: str, **config: Any) -> Any:
    return registry("decoder").create(name, config)


def run(
    model: MLMFillModel, dec: str = "greedy", seed: int = 0, target: int = 150, **config: Any
) -> list[tuple[str, str]]:
    return model.generate_corpus(decoder(dec, **config), [], GenerationSettings(batch_size=4), target, seed)


def outside_spans(doc: Document) -> list[str]:
    cuts = [0, *(p for s in doc.spans for p in (s.start, s.end)), len(doc.text)]
    return [doc.text[a:b] for a, b in zip(cuts[::2], cuts[1::2])]


# ---- config --------------------------------------------------------------------------------------


def test_registered_with_defaults() -> None:
    gen = registry("generator").create("mlm_fill", {})
    assert isinstance(gen, MLMFillGenerator) and gen.name == "mlm_fill"
    cfg = gen.config
    assert (cfg.pretrained, cfg.mask_ratio, cfg.fill) == (None, 0.25, "simultaneous")
    assert (cfg.mlm_probability, cfg.phi_mask, cfg.threads) == (0.15, 0.75, 2)
    assert cfg.resolved().learning_rate == 5e-4 and MLMFillConfig(pretrained="x").resolved().learning_rate == 5e-5


def test_config_errors() -> None:
    with pytest.raises(SynthdeidError, match="no setting.*maskratio.*its settings are:.*mask_ratio"):
        registry("generator").create("mlm_fill", {"maskratio": 0.3})
    with pytest.raises(SynthdeidError, match="'fill' must be one of simultaneous, iterative, got 'random'"):
        registry("generator").settings("mlm_fill", {"fill": "random"})
    with pytest.raises(SynthdeidError, match=r"\'mask_ratio\' must be in \[0, 1\], got 1.5"):
        registry("generator").settings("mlm_fill", {"mask_ratio": 1.5})
    with pytest.raises(SynthdeidError, match="multiple of heads"):
        registry("generator").settings("mlm_fill", {"hidden_size": 30, "heads": 4})


# ---- notes: pieces, mask plans, rebuilding --------------------------------------------------------


def test_pieces_split_at_span_edges_and_rebuild_keeps_spans() -> None:
    doc = Document.create("d", "Dhr. Jansen, 45 jaar\nbelde.", [Span(5, 11, "Name"), Span(13, 20, "Age")])
    pieces = split_pieces(doc)
    assert [doc.text[p.start : p.end] for p in pieces] == ["Dhr.", "Jansen", ",", "45", "jaar", "belde."]
    assert [p.span for p in pieces] == [-1, 0, -1, 1, 1, -1]
    new = rebuild(doc, pieces, {1: "Piet de Vries", 3: "zeven", 4: "jr", 5: "ging<PAR>"})
    assert new.text == "Dhr. Piet de Vries, zeven jr\nging\u2039PAR>"  # a refill never spells a marker
    assert [new.surface(s) for s in new.spans] == ["Piet de Vries", "zeven jr"]
    assert decode(encode(new), "d").document == new


def test_plan_masks_share() -> None:
    doc = toy_note(0, 12, random.Random(1))
    pieces = split_pieces(doc)
    other = sum(p.span < 0 for p in pieces)
    for ratio in (0.0, 0.15, 0.5, 1.0):
        plan = plan_masks(pieces, ratio, random.Random(3))
        assert all(m for m, p in zip(plan, pieces) if p.span >= 0)
        assert sum(m for m, p in zip(plan, pieces) if p.span < 0) == round(ratio * other)


def test_windows_tile_long_sequences() -> None:
    assert windows(20, 30) == [(0, 20, 0, 20)]
    blocks = windows(100, 30)
    assert blocks[0][0] == 0 and blocks[-1][1] == 100
    for (b0, b1, w0, w1), nxt in zip(blocks, [*blocks[1:], None]):
        assert w1 - w0 == 30 and 0 <= w0 <= b0 < b1 <= w1 <= 100
        assert nxt is None or nxt[0] == b1


# ---- training ------------------------------------------------------------------------------------


def test_training_reduces_loss_and_writes_outputs(trained: tuple[Path, dict[str, Any]]) -> None:
    out, metrics = trained
    history = metrics["history"]
    assert history[-1]["val_loss"] < history[0]["val_loss"]
    assert history[-1]["train_loss"] < history[0]["train_loss"]
    assert metrics["tokens_per_s"] > 0 and metrics["epochs"] == 2 and metrics["train_notes"]["notes"] == 32
    for name in ("model", "tokenizer", "mlm_fill.json", "source_notes.jsonl", "checkpoint.pt", "metrics.json"):
        assert (out / name).exists(), name
    saved = json.loads((out / "mlm_fill.json").read_text())
    assert saved["learning_rate"] == 3e-3 and saved["window"] == 32
    assert len((out / "source_notes.jsonl").read_text().splitlines()) == 32


def test_resume_gives_the_same_model(trained: tuple[Path, dict[str, Any]], tmp_path: Path) -> None:
    out, metrics = trained
    first = MLMFillGenerator(MLMFillConfig(**{**TINY, "max_epochs": 1})).train(toy_data(), tmp_path)
    assert first["epochs"] == 1
    resumed = MLMFillGenerator(MLMFillConfig(**TINY)).train(toy_data(), tmp_path)
    assert resumed["epochs_this_run"] == 1 and resumed["history"] == metrics["history"]
    a = torch.load(out / "checkpoint.pt", weights_only=True)["model"]
    b = torch.load(tmp_path / "checkpoint.pt", weights_only=True)["model"]
    assert all(torch.equal(a[k], b[k]) for k in a)
    assert (out / "tokenizer" / "tokenizer.json").read_text() == (tmp_path / "tokenizer" / "tokenizer.json").read_text()
    with pytest.raises(SynthdeidError, match="other settings.*hidden_size"):
        MLMFillGenerator(MLMFillConfig(**{**TINY, "hidden_size": 64})).train(toy_data(), tmp_path)
    saved = torch.load(out / "checkpoint.pt", weights_only=True)["config"]  # as an earlier version saved it
    renamed = {"learning_rate": "lr", "max_epochs": "epochs", "min_count": "min_frequency", "block_size": "max_length"}
    former = {renamed.get(k, k): v for k, v in saved.items()}
    assert {"lr", "max_length"} <= set(former) and MLMFillConfig(**TINY).training_changes(former) == []


def test_warmup_rises_linearly_then_holds() -> None:
    from synthdeid.plugins.mlm_fill.train import warmup_lr

    cfg = MLMFillConfig(learning_rate=1e-3, warmup_steps=4)
    assert [warmup_lr(cfg, s) for s in (1, 2, 4, 5, 100)] == pytest.approx([2.5e-4, 5e-4, 1e-3, 1e-3, 1e-3])
    assert warmup_lr(MLMFillConfig(learning_rate=1e-3), 1) == 1e-3
    for bad in (-1, True, 1.5):
        with pytest.raises(SynthdeidError, match="warmup_steps"):
            registry("generator").settings("mlm_fill", {"warmup_steps": bad})


# ---- generation ----------------------------------------------------------------------------------


def test_generated_notes_keep_phi_spans(trained: tuple[Path, dict[str, Any]]) -> None:
    model = load(trained[0])
    sources = {d.id: d for d in model.notes}
    pairs = run(model, target=300)
    assert sum(count_tokens(t) for _, t in pairs) >= 300
    for source_id, text in pairs:
        parsed = decode(text, source_id)
        assert parsed.ended and sum(c["well_formed"] for c in parsed.counts.values()) == len(parsed.document.spans)
        assert all(parsed.count(k) == 0 for k in ("unclosed", "unopened", "nested", "crossing", "empty", "unknown"))
        src = sources[source_id]
        assert [s.label for s in parsed.document.spans] == [s.label for s in src.spans]
        assert all(parsed.document.surface(s).strip() for s in parsed.document.spans)


def test_mask_ratio_zero_changes_only_phi(trained: tuple[Path, dict[str, Any]]) -> None:
    model = load(trained[0], mask_ratio=0.0)
    sources = {d.id: d for d in model.notes}
    changed = 0
    for source_id, text in run(model, "nucleus", target=300):
        doc, src = decode(text, "x").document, sources[source_id]
        assert outside_spans(doc) == outside_spans(src)
        changed += [doc.surface(s) for s in doc.spans] != [src.surface(s) for s in src.spans]
    assert changed > 0


def test_non_phi_changes_stay_within_mask_ratio(trained: tuple[Path, dict[str, Any]]) -> None:
    model = load(trained[0], mask_ratio=0.3)
    sources = {d.id: d for d in model.notes}
    words = kept = 0
    for source_id, text in run(model, "nucleus", target=400):
        doc, src = decode(text, "x").document, sources[source_id]
        new = [w for part in outside_spans(doc) for w in part.split()]
        old = [w for part in outside_spans(src) for w in part.split()]
        words += len(old)
        kept += sum(b.size for b in difflib.SequenceMatcher(None, old, new, autojunk=False).get_matching_blocks())
    # 30% of the non-PHI words are masked (some refills restore the original word, some add words)
    assert 0.6 <= kept / words < 0.9


def test_decoders_and_seeds(trained: tuple[Path, dict[str, Any]]) -> None:
    model = load(trained[0], mask_ratio=0.5)
    greedy = run(model, "greedy")
    assert run(model, "greedy") == greedy
    nucleus = run(model, "nucleus", seed=0, top_p=0.95)
    assert nucleus == run(model, "nucleus", seed=0, top_p=0.95)
    assert [t for _, t in nucleus] != [t for _, t in greedy]
    assert run(model, "nucleus", seed=1, top_p=0.95) != nucleus


def test_iterative_fill(trained: tuple[Path, dict[str, Any]]) -> None:
    model = load(trained[0], fill="iterative", mask_ratio=0.3)
    sources = {d.id: d for d in model.notes}
    pairs = run(model, "top_k", target=120, top_k=5)
    assert pairs == run(model, "top_k", target=120, top_k=5)
    for source_id, text in pairs:
        parsed = decode(text, source_id)
        assert parsed.count("well_formed") == len(sources[source_id].spans) == len(parsed.document.spans)
    simultaneous = run(load(trained[0], mask_ratio=0.3), "top_k", target=120, top_k=5)
    assert [t for _, t in simultaneous] != [t for _, t in pairs]


def test_long_note_is_processed_whole(trained: tuple[Path, dict[str, Any]]) -> None:
    base = load(trained[0], mask_ratio=0.0)
    long_doc = toy_note(99, 30, random.Random(5))
    model = MLMFillModel(base.model, base.codec.tok, [long_doc], base.cfg, base.window)
    assert sum(map(len, model.codec.encode_pieces(long_doc, split_pieces(long_doc)))) > 5 * base.window
    source_id, text = run(model, "nucleus", target=1)[0]
    doc = decode(text, source_id).document
    assert len(doc.spans) == len(long_doc.spans) == 60
    assert outside_spans(doc) == outside_spans(long_doc)  # every word up to the last one kept


def test_decoder_checks(trained: tuple[Path, dict[str, Any]]) -> None:
    model = load(trained[0])
    for name in ("greedy", "temperature", "top_k", "nucleus"):
        decoder(name).check(model)
    if "beam" in registry("decoder"):
        with pytest.raises(SynthdeidError):
            decoder("beam").check(model)


def test_pretrained_local_bert(tmp_path: Path) -> None:
    """A local BERT with a WordPiece tokenizer ("##" continuations) is fine-tuned and refills."""
    from tokenizers import BertWordPieceTokenizer
    from transformers import BertConfig, BertForMaskedLM, PreTrainedTokenizerFast

    data = toy_data()
    texts = [decode(line, "x").document.text for line in data.train]
    wp = BertWordPieceTokenizer(lowercase=False, strip_accents=False)
    wp.train_from_iterator(texts, vocab_size=300, min_frequency=1, show_progress=False)
    tok = PreTrainedTokenizerFast(
        tokenizer_object=wp._tokenizer,
        unk_token="[UNK]",
        pad_token="[PAD]",
        cls_token="[CLS]",
        sep_token="[SEP]",
        mask_token="[MASK]",
    )
    torch.manual_seed(0)
    bert = BertForMaskedLM(
        BertConfig(
            vocab_size=len(tok),
            hidden_size=32,
            num_hidden_layers=2,
            num_attention_heads=2,
            intermediate_size=64,
            max_position_embeddings=64,
        )
    )
    src = tmp_path / "bert"
    bert.save_pretrained(src)
    tok.save_pretrained(src)
    config = {**TINY, "pretrained": str(src), "max_epochs": 1, "block_size": 512}
    gen = registry("generator").create("mlm_fill", config)
    metrics = gen.train(data, tmp_path / "out")
    assert metrics["window"] == 64  # capped by the model's position embeddings
    pairs = gen.load(tmp_path / "out").generate_corpus(decoder("nucleus"), [], GenerationSettings(batch_size=4), 100, 0)
    for source_id, text in pairs:
        parsed = decode(text, source_id)
        assert "##" not in text and parsed.count("well_formed") == len(parsed.document.spans) > 0
    with pytest.raises(InputError, match="not a local directory"):
        gen = registry("generator").create("mlm_fill", {**TINY, "pretrained": "org/some-hub-model"})
        gen.train(data, tmp_path / "x")
