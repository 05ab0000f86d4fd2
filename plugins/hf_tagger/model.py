"""The ``hf_token_classification`` tagger: a transformers encoder with a token-classification
head, fine-tuned on BIO labels of 128-word windows; saved with its tokenizer and label map."""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from synthdeid import Document, InputError, Span, SynthdeidError
from synthdeid.toolkit import TAGGER_RETRAIN as RETRAIN
from synthdeid.toolkit import (
    Tokenize,
    bio_tags,
    check_bio_tags,
    covered_spans,
    entity_f1,
    from_pretrained,
    read_json,
    seed_everything,
    torch_device,
    torch_threads,
    training_labels,
)
from synthdeid.toolkit import quiet_loggers as quiet
from synthdeid.toolkit import read_tagger_meta as read_meta
from synthdeid.toolkit import saved_tagger_config as saved_config
from synthdeid.toolkit import write_tagger_meta as write_meta

from .config import HFTaggerConfig
from .encoding import add_labels, load_tokenizer, train_wordpiece
from .predict import doc_windows, encode_docs, piece_tags, predict_docs
from .train_loop import train_model

NAME = "hf_token_classification"
MODEL_DIR = "model"
USER_FIX = (
    "save the encoder and its tokenizer with save_pretrained() (safetensors weights); convert pickled "
    "weights (pytorch_model.bin) where you trust them: from_pretrained(dir).save_pretrained(dir)"
)
LABELS_FIX = (
    f"{RETRAIN}; a model fine-tuned elsewhere needs id2label in its config.json to map 0 to n-1 onto "
    "'O' and B-LABEL/I-LABEL tags, each once"
)


@contextmanager
def _offline() -> Iterator[None]:
    """No model hub, no telemetry, quiet transformers logging."""
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
    os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
    with quiet("transformers", level=40):
        yield


def _local_dir(value: str, what: str) -> Path:
    path = Path(value).expanduser()
    if not path.is_dir():
        raise SynthdeidError(
            f"tagger {NAME!r}: {what} {value!r} is not a local directory; this "
            "workplace has no model hub: save the model with save_pretrained() "
            "and give its directory"
        )
    return path


def _bio_labels(config: dict[str, Any]) -> list[str]:
    """The tags of a ``config.json``'s ``id2label`` (ids 0 to n-1), which must be BIO tags with ``O``."""
    id2label = config["id2label"]
    if not isinstance(id2label, dict) or set(id2label) != {str(i) for i in range(len(id2label))}:
        raise ValueError("id2label must map the ids 0 to n-1 to tags")
    return [id2label[str(i)] for i in range(len(id2label))]


class TrainedHFTagger:
    """A trained token-classification tagger: ``predict(docs)`` gives spans per document."""

    def __init__(self, model: Any, tokenizer: Any, config: HFTaggerConfig, tokenize: Tokenize) -> None:
        self.model = model
        self.tokenizer = tokenizer
        self.config = config
        self.tokenize = tokenize
        self.id2label = {int(k): v for k, v in model.config.id2label.items()}

    def predict(self, docs: Sequence[Document]) -> list[list[Span]]:
        with torch_threads(self.config.threads), _offline():
            return predict_docs(
                docs,
                self.model,
                self.tokenizer,
                self.id2label,
                self.tokenize,
                self.config.max_words,
                self.config.predict_batch_size,
                self.config.mark_lines,
                self.config.constrained_decoding,
            )

    def predict_min_confidence(self, docs: Sequence[Document], min_confidence: float) -> list[list[Span]]:
        """Recall-biased spans from each word's softmax (``synthdeid.api.RecallTunable``)."""
        if not 0.0 < min_confidence <= 1.0:
            raise SynthdeidError(f"min_confidence must be in (0, 1], got {min_confidence}")
        with torch_threads(self.config.threads), _offline():
            return predict_docs(
                docs,
                self.model,
                self.tokenizer,
                self.id2label,
                self.tokenize,
                self.config.max_words,
                self.config.predict_batch_size,
                self.config.mark_lines,
                self.config.constrained_decoding,
                min_confidence=min_confidence,
            )


class HFTagger:
    """Factory product of ``hf_token_classification``: trains and loads taggers."""

    name = NAME

    def __init__(self, config: HFTaggerConfig) -> None:
        self.config = config
        self.trained: TrainedHFTagger | None = None
        """The model in memory after ``train`` (the selected epoch's weights)."""

    def _model(self, tag_labels: list[str], train: Sequence[Document], tokenize: Tokenize) -> tuple[Any, Any]:
        from transformers import (
            AutoModelForTokenClassification,
            BertConfig,
            BertForTokenClassification,
        )

        cfg = self.config
        id2label = dict(enumerate(tag_labels))
        label2id = {v: k for k, v in id2label.items()}
        if cfg.model:
            path = _local_dir(cfg.model, "model")
            tokenizer = load_tokenizer(_local_dir(cfg.tokenizer, "tokenizer") if cfg.tokenizer else path, USER_FIX)
            model = from_pretrained(
                AutoModelForTokenClassification.from_pretrained,
                path,
                USER_FIX,
                num_labels=len(tag_labels),
                id2label=id2label,
                label2id=label2id,
                ignore_mismatched_sizes=True,
            )
            return model, tokenizer
        texts = (
            " ".join(d.text[a:b] for a, b in win)
            for d in train
            for win in doc_windows(d, tokenize, cfg.max_words, labelled=False)[0]
        )
        tokenizer = train_wordpiece(texts, cfg.vocab_size, cfg.max_positions)
        bert = BertConfig(
            vocab_size=len(tokenizer),
            hidden_size=cfg.hidden_size,
            num_hidden_layers=cfg.layers,
            num_attention_heads=cfg.heads,
            intermediate_size=cfg.intermediate_size,
            max_position_embeddings=cfg.max_positions,
            hidden_dropout_prob=cfg.dropout,
            attention_probs_dropout_prob=cfg.dropout,
            pad_token_id=tokenizer.pad_token_id,
            num_labels=len(tag_labels),
            id2label=id2label,
            label2id=label2id,
        )
        return BertForTokenClassification(bert), tokenizer

    def train(
        self, train: Sequence[Document], dev: Sequence[Document], out_dir: Path, tokenize: Tokenize
    ) -> dict[str, Any]:
        cfg = self.config.replace(learning_rate=self.config.resolved_learning_rate)
        out_dir = Path(out_dir)
        labels, dev, dropped = training_labels(NAME, train, dev)
        tag_labels = ["O"] + [f"{p}-{lab}" for lab in labels for p in ("B", "I")]
        label2id = {t: i for i, t in enumerate(tag_labels)}
        with torch_threads(cfg.threads), _offline():
            seed_everything(cfg.seed)
            model, tokenizer = self._model(tag_labels, train, tokenize)
            model.to(torch_device(cfg.device))
            pieces = encode_docs(train, tokenizer, model.config, tokenize, cfg.max_words, True, cfg.mark_lines)
            for p in pieces:
                add_labels(p, bio_tags(p.words, train[p.doc].spans), label2id)
            id2label = dict(enumerate(tag_labels))
            evaluate = None
            if dev:
                dev_plain = encode_docs(dev, tokenizer, model.config, tokenize, cfg.max_words, False, cfg.mark_lines)
                dev_gold = encode_docs(dev, tokenizer, model.config, tokenize, cfg.max_words, True, cfg.mark_lines)
                for p in dev_gold:
                    add_labels(p, bio_tags(p.words, dev[p.doc].spans), label2id)

                def evaluate() -> dict[str, Any]:
                    pred = predict_docs(
                        dev,
                        model,
                        tokenizer,
                        id2label,
                        tokenize,
                        cfg.max_words,
                        cfg.predict_batch_size,
                        cfg.mark_lines,
                        cfg.constrained_decoding,
                        pieces=dev_plain,
                    )
                    _, loss = piece_tags(dev_gold, model, tokenizer, id2label, cfg.predict_batch_size)
                    return {**entity_f1([d.spans for d in dev], pred), "loss": loss}

            run = train_model(model, pieces, tokenizer.pad_token_id, cfg, evaluate)
            target = out_dir / MODEL_DIR
            if target.exists():
                shutil.rmtree(target)
            model.save_pretrained(str(target))
            tokenizer.save_pretrained(str(target))
        write_meta(out_dir, NAME, cfg, labels=labels, tag_labels=tag_labels)
        self.trained = TrainedHFTagger(model, tokenizer, cfg, tokenize)
        covered = sum(
            covered_spans((w for win in doc_windows(d, tokenize, cfg.max_words, True)[0] for w in win), d.spans)
            for d in train
        )
        return {
            "tagger": NAME,
            "labels": labels,
            "model": cfg.model or "from scratch (BERT)",
            "parameters": sum(p.numel() for p in model.parameters()),
            "vocab_size": len(tokenizer),
            "epochs": cfg.max_epochs,
            "train_spans": sum(len(d.spans) for d in train),
            "train_spans_without_tokens": sum(len(d.spans) for d in train) - covered,
            "dev_labels_unseen_in_training": dropped,
            **run,
            **(
                {"dev": {k: v for k, v in run["history"][run["best_epoch"] - 1].items() if k.startswith("dev_")}}
                if dev
                else {}
            ),
        }

    def load(self, out_dir: Path, tokenize: Tokenize) -> TrainedHFTagger:
        """The tagger in ``out_dir``: safetensors weights and JSON only, no code from the folder."""
        from transformers import AutoModelForTokenClassification

        out_dir = Path(out_dir)
        meta = read_meta(out_dir, NAME)
        path = out_dir / MODEL_DIR
        if not (path / "config.json").exists():
            raise InputError("holds no saved model (config.json)", path=path, fix=RETRAIN)
        config = saved_config(HFTaggerConfig, meta, NAME, out_dir=out_dir)
        check_bio_tags(read_json(path / "config.json", LABELS_FIX, _bio_labels), path / "config.json", LABELS_FIX)
        with _offline():
            model = from_pretrained(AutoModelForTokenClassification.from_pretrained, path, RETRAIN)
            tokenizer = load_tokenizer(path, RETRAIN)
        model.to(torch_device(config.device))
        model.eval()
        return TrainedHFTagger(model, tokenizer, config, tokenize)
