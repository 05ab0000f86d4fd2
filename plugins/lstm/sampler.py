"""A trained LSTM as an ``AutoregressiveLM``, driven step by step by ``synthdeid.generation.generate``.

Every prompt starts from a fresh (zero) hidden state, primed with ``<EOD>`` (the token that
precedes every note in the training stream), so a note never continues the previous one (the
seed paper's code forgot to reset the state between prompts). ``<unk>`` is not generated unless
``write_unknown`` is set (``api.WritesUnknown``; the generate stage sets it from
``generate.unknown_words``, and postprocess fills each ``<unk>`` with an ordinary word): the
output bias of ``<unk>`` is -inf while it is off, so its logit is -inf in every row that ``start``
and ``step`` return. The ``<unk_N>`` entries of an anonymized vocabulary (``synthdeid
anonymize-vocab``) are never generated.
"""

from __future__ import annotations

from pathlib import Path

import torch
from torch.nn.utils.rnn import pack_padded_sequence

from synthdeid import InputError
from synthdeid.toolkit import UNK_PATTERN, load_settings, read_json
from synthdeid.toolkit import check_model_fits as fits
from synthdeid.toolkit import check_model_sizes as check_sizes

from .config import WHAT, LSTMConfig
from .model import Hidden, LSTMLanguageModel
from .train import CONFIG, MODEL, RETRAIN, VOCAB, load_checkpoint
from .vocab import UNK, Vocab

SIZES = {"layers": "layers", "embedding_size": "width", "hidden_size": "width"}
"""The settings of ``config.json`` that size the network (``synthdeid.model_limits``)."""


class LSTMSampler:
    """The ``AutoregressiveLM`` of a trained LSTM; the state is ``(h, c)``, ``[layers, batch, hidden]``.

    The LSTM runs under ``torch.inference_mode()``; the output layer under ``no_grad`` so the
    returned logits are ordinary tensors that decoders may edit in place.
    """

    def __init__(self, model: LSTMLanguageModel, vocab: Vocab, config: LSTMConfig) -> None:
        self.model = model.eval().requires_grad_(False)
        self.config = config
        self._vocab = vocab
        self.vocab = vocab.tokens
        self.eod_id = vocab.eod_id
        self.unk_id = vocab.unk_id
        self.unknown_token = UNK
        self._unk_bias = float(self.model.decoder.bias[self.unk_id])
        self.write_unknown = False  # <unk> is not generated (nor scored) until the generate stage asks
        for i, token in enumerate(self.vocab):  # nor the <unk_N> of an anonymized vocabulary
            if UNK_PATTERN.fullmatch(token):
                self.model.decoder.bias[i] = float("-inf")

    @property
    def write_unknown(self) -> bool:
        """Whether ``<unk>`` may be generated (its learned output bias) or not (-inf)."""
        return bool(self.model.decoder.bias[self.unk_id] != float("-inf"))

    @write_unknown.setter
    def write_unknown(self, on: bool) -> None:
        self.model.decoder.bias[self.unk_id] = self._unk_bias if on else float("-inf")

    def encode(self, text: str) -> list[int]:
        """Ids of the space-separated tokens; unknown words become ``<unk>``."""
        return self._vocab.encode(text)

    def decode(self, ids: list[int]) -> str:
        return self._vocab.decode(ids)

    def _logits(self, top: torch.Tensor) -> torch.Tensor:
        with torch.no_grad():
            return self.model.decoder(top)

    def start(self, prompts: list[list[int]]) -> tuple[Hidden, torch.Tensor]:
        """Run ``<EOD>`` + each prompt from a fresh state, all rows at once (packed sequences:
        each row's state is the one after its own last token, as if run alone)."""
        rows = len(prompts)
        if rows == 0:
            h = self.model.init_hidden(0)
            return h, torch.empty(0, len(self.vocab))
        seqs = [[self.eod_id, *p] for p in prompts]
        lengths = torch.tensor([len(s) for s in seqs], dtype=torch.long)
        padded = torch.full((int(lengths.max()), rows), self.eod_id, dtype=torch.long)
        for j, s in enumerate(seqs):
            padded[: len(s), j] = torch.tensor(s, dtype=torch.long)
        with torch.inference_mode():
            packed = pack_padded_sequence(self.model.encoder(padded), lengths, enforce_sorted=False)
            _, state = self.model.rnn(packed, self.model.init_hidden(rows))
        return state, self._logits(state[0][-1])

    def step(self, state: Hidden, tokens: torch.Tensor) -> tuple[Hidden, torch.Tensor]:
        """One LSTM step and the output layer for one token per row."""
        with torch.inference_mode():
            out, state = self.model.rnn(self.model.encoder(tokens).unsqueeze(0), state)
        return state, self._logits(out[0])

    def select(self, state: Hidden, rows: torch.Tensor) -> Hidden:
        return state[0][:, rows], state[1][:, rows]


def load(out_dir: Path, threads: int | None = None) -> LSTMSampler:
    """The best model (lowest validation loss) of a training in ``out_dir``."""
    out_dir = Path(out_dir)
    ckpt = load_checkpoint(out_dir / MODEL)
    if ckpt is None or not (out_dir / CONFIG).exists():
        raise InputError(
            "no trained LSTM here (model.pt or config.json is missing)",
            path=out_dir,
            fix="train it first (the train stage), or point the generate stage at the right model",
        )
    config = read_json(out_dir / CONFIG, RETRAIN, lambda data: load_settings(LSTMConfig, data, WHAT, saved=True))
    check_sizes(config.model_dump(), SIZES, out_dir / CONFIG, RETRAIN)
    vocab = Vocab.load(out_dir / VOCAB)
    weights = ckpt.get("model")
    stored = sum(t.numel() for t in weights.values() if isinstance(t, torch.Tensor)) if isinstance(weights, dict) else 0
    fits(lambda: LSTMLanguageModel(len(vocab), config), stored, out_dir / CONFIG, RETRAIN, MODEL)
    torch.set_num_threads(threads or config.threads)
    model = LSTMLanguageModel(len(vocab), config)
    try:
        model.load_state_dict(ckpt["model"])
    except (RuntimeError, KeyError) as e:
        raise InputError(
            f"model.pt does not match config.json and vocab.json ({e})",
            path=out_dir / MODEL,
            fix=RETRAIN,
        ) from None
    return LSTMSampler(model, vocab, config)
