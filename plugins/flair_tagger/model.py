"""The ``flair_bilstm_crf`` tagger: flair's ``SequenceTagger`` (BiLSTM-CRF) trained on the lines
of the notes, cut into windows of at most ``max_tokens`` tokens, with character offsets kept so
predictions map back to exact document spans. Saved and loaded without pickles (``storage``)."""

from __future__ import annotations

import logging
import os
import shutil
import time
import warnings
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Literal, cast

from synthdeid import Document, InputError, Span
from synthdeid.toolkit import TAGGER_META_FILE as CONFIG_FILE
from synthdeid.toolkit import TAGGER_RETRAIN as RETRAIN
from synthdeid.toolkit import (
    Tokenize,
    Word,
    bio_tags,
    covered_spans,
    decode_tags,
    entity_f1,
    interactive,
    line_words,
    seed_everything,
    span_cuts,
    torch_threads,
    training_labels,
)
from synthdeid.toolkit import quiet_loggers as quiet
from synthdeid.toolkit import read_tagger_meta as read_meta
from synthdeid.toolkit import saved_tagger_config as saved_config
from synthdeid.toolkit import windows as word_windows
from synthdeid.toolkit import write_tagger_meta as write_meta

from .config import LABEL_TYPE, FlairTaggerConfig
from .embeddings import build_embeddings, embedding_names

NAME = "flair_bilstm_crf"


def private_cache_dir() -> Path:
    """flair's cache: the user's own ``$XDG_CACHE_HOME/synthdeid/flair`` (``~/.cache``), readable by
    that user only; never a fixed path in a temp folder that every user of the machine shares."""
    base = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "synthdeid" / "flair"
    base.mkdir(parents=True, exist_ok=True)
    base.chmod(0o700)
    return base


def _import_flair() -> Any:
    """Import flair with its cache in a private folder (nothing is downloaded)."""
    os.environ.setdefault("FLAIR_CACHE_ROOT", str(private_cache_dir()))
    import flair

    flair.cache_root = Path(os.environ["FLAIR_CACHE_ROOT"])
    return flair


@contextmanager
def _flair_quiet(training: bool = False) -> Iterator[None]:
    """flair's INFO log (per-epoch lines) and progress bars when training on a terminal;
    otherwise warnings only, and no progress bars."""
    from flair.file_utils import Tqdm

    show = training and interactive()
    original = Tqdm.__dict__["tqdm"]
    if not show:
        Tqdm.tqdm = staticmethod(lambda *a, **k: original.__func__(*a, **{**k, "disable": True}))  # type: ignore[method-assign]  # patched on purpose
    try:
        with quiet("flair", level=logging.INFO if show else logging.WARNING), warnings.catch_warnings():
            warnings.filterwarnings("ignore", category=FutureWarning, module="flair")
            yield
    finally:
        Tqdm.tqdm = original  # type: ignore[method-assign]


Window = tuple[Any, list[Word]]  # a flair Sentence and the character offsets of its tokens


def _sentences(doc: Document, tokenize: Tokenize, max_tokens: int, labelled: bool) -> list[Window]:
    from flair.data import Sentence

    out: list[Window] = []
    cuts = span_cuts(doc) if labelled else []
    for line in line_words(doc.text, tokenize, cuts):
        for win in word_windows(line, max_tokens):
            sent = Sentence([doc.text[a:b] for a, b in win])
            if labelled:
                tags = bio_tags(win, doc.spans)
                i = 0
                while i < len(tags):
                    if tags[i].startswith("B-"):
                        j = i + 1
                        while j < len(tags) and tags[j] == "I-" + tags[i][2:]:
                            j += 1
                        sent[i:j].add_label(LABEL_TYPE, tags[i][2:])
                        i = j
                    else:
                        i += 1
            out.append((sent, win))
    return out


class TrainedFlairTagger:
    """A loaded (or just trained) flair tagger: ``predict(docs)`` gives spans per document."""

    def __init__(self, model: Any, labels: Sequence[str], config: FlairTaggerConfig, tokenize: Tokenize) -> None:
        self.model = model
        self.labels = frozenset(labels)
        self.config = config
        self.tokenize = tokenize

    def predict(self, docs: Sequence[Document]) -> list[list[Span]]:
        windows = [_sentences(d, self.tokenize, self.config.max_tokens, labelled=False) for d in docs]
        flat = [s for doc_windows in windows for s, _ in doc_windows]
        self.model.eval()
        with torch_threads(self.config.threads), _flair_quiet():
            if flat:
                self.model.predict(
                    flat,
                    mini_batch_size=self.config.predict_batch_size,
                    force_token_predictions=True,
                    embedding_storage_mode="none",
                )
        out = []
        for doc_windows in windows:
            spans: list[Span] = []
            for sent, offsets in doc_windows:
                tags = [t.get_label(LABEL_TYPE).value for t in sent.tokens]
                spans.extend(decode_tags(tags, offsets, self.labels))
            out.append(spans)
        return out


class FlairTagger:
    """Factory product of ``flair_bilstm_crf``: trains and loads BiLSTM-CRF taggers."""

    name = NAME

    def __init__(self, config: FlairTaggerConfig) -> None:
        self.config = config
        self.trained: TrainedFlairTagger | None = None
        """The model in memory after ``train`` (the selected epoch's weights)."""

    def train(
        self, train: Sequence[Document], dev: Sequence[Document], out_dir: Path, tokenize: Tokenize
    ) -> dict[str, Any]:
        flair = _import_flair()
        from flair.data import Corpus
        from flair.datasets import FlairDatapointDataset
        from flair.trainers.plugins import MetricHistoryPlugin

        from .crf_loss import use_fast_loss
        from .sampler import bucket_sampler
        from .storage import FILES, SafeTrainer, new_tagger, save

        cfg = self.config
        out_dir = Path(out_dir)
        labels, dev, dropped = training_labels(NAME, train, dev)
        started = time.perf_counter()
        with torch_threads(cfg.threads), _flair_quiet(training=True):
            flair.set_seed(cfg.seed)
            seed_everything(cfg.seed)
            train_windows = [w for d in train for w in _sentences(d, tokenize, cfg.max_tokens, True)]
            dev_windows = [w for d in dev for w in _sentences(d, tokenize, cfg.max_tokens, True)]
            corpus = Corpus(
                train=FlairDatapointDataset([s for s, _ in train_windows]),
                dev=FlairDatapointDataset([s for s, _ in dev_windows]) if dev_windows else None,
                test=None,
                sample_missing_splits=False,
            )
            embeddings = build_embeddings(cfg, [[t.text for t in s] for s, _ in train_windows])
            model = new_tagger(embeddings, labels, cfg)
            use_fast_loss(model)
            out_dir.mkdir(parents=True, exist_ok=True)
            for f in FILES:  # no model of an earlier run stays if this one fails
                (out_dir / f).unlink(missing_ok=True)
            work = out_dir / ".flair-training"  # its best epoch's weights, as safetensors
            shutil.rmtree(work, ignore_errors=True)
            try:
                result = SafeTrainer(model, corpus).train(
                    work,
                    learning_rate=cfg.learning_rate,
                    mini_batch_size=cfg.batch_size,
                    max_epochs=cfg.max_epochs,
                    patience=cfg.anneal_patience,
                    embeddings_storage_mode=cast(Literal["none", "cpu", "gpu"], cfg.embeddings_storage_mode),
                    save_final_model=False,
                    create_file_logs=False,
                    create_loss_file=False,
                    sampler=bucket_sampler(cfg.batch_size, cfg.seed),
                    plugins=[MetricHistoryPlugin()],
                )
                save(model, out_dir)  # the trainer has loaded the best epoch's weights into `model`
            finally:
                shutil.rmtree(work, ignore_errors=True)
        seconds = time.perf_counter() - started
        write_meta(out_dir, NAME, cfg, labels=labels, embedding_names=embedding_names(model.embeddings))
        self.trained = TrainedFlairTagger(model, labels, cfg, tokenize)
        metrics: dict[str, Any] = {
            "tagger": NAME,
            "labels": labels,
            "train_sentences": len(train_windows),
            "train_tokens": sum(len(w) for _, w in train_windows),
            "dev_sentences": len(dev_windows),
            "epochs": cfg.max_epochs,
            "train_seconds": round(seconds, 2),
            "dev_labels_unseen_in_training": dropped,
            "train_spans": sum(len(d.spans) for d in train),
            "train_spans_without_tokens": sum(
                len(d.spans)
                - covered_spans((x for line in line_words(d.text, tokenize, span_cuts(d)) for x in line), d.spans)
                for d in train
            ),
            "train_loss_history": [round(float(x), 4) for x in result.get("train_loss_history", [])],
            "dev_f1_history": [round(float(x), 4) for x in result.get("dev_score_history", [])],
        }
        if dev:
            metrics["dev"] = entity_f1([d.spans for d in dev], self.trained.predict(dev))
        return metrics

    def load(self, out_dir: Path, tokenize: Tokenize) -> TrainedFlairTagger:
        """The tagger in ``out_dir`` (``storage.load``: no pickle unless trusted)."""
        _import_flair()
        from .storage import load

        out_dir = Path(out_dir)
        meta = read_meta(out_dir, NAME)
        config = saved_config(FlairTaggerConfig, meta, NAME, out_dir=out_dir)
        labels = meta.get("labels")
        if not isinstance(labels, list) or not all(isinstance(x, str) for x in labels):
            raise InputError(
                "lacks the key 'labels' (a list of the labels the tagger predicts)",
                path=out_dir / CONFIG_FILE,
                fix=RETRAIN,
            )
        with _flair_quiet():
            model = load(out_dir, labels, config, meta.get("embedding_names"))
        return TrainedFlairTagger(model, labels, config, tokenize)
