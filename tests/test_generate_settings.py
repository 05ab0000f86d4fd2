"""``synthdeid.generation.settings.settings_for``: span limits and the tag distribution steer left-to-right models;
a model that rewrites real notes (``mlm_fill``) keeps their spans, and a tag distribution other
than ``real`` for it is refused with the fix (it crashed with an AttributeError before)."""

from __future__ import annotations

import pytest
from stage_runner import repo_params

from synthdeid import InputError
from synthdeid.generation.settings import settings_for
from synthdeid.spec import validate


class Refiller:
    """Stands for MLMFillModel: it has generate_corpus, not the step-by-step interface."""

    def generate_corpus(self, *args, **kwargs):
        raise AssertionError("not called")


def _params(**corpus):
    """The generation settings of a corpus ``mlm_s`` with ``corpus``'s overrides (the study spec's)."""
    params = repo_params()
    # fixed lengths unless a test asks for auto (auto reads the training notes, absent here)
    params["corpora"]["mlm_s"] = {
        "generator": "mlm",
        "decoder": "nucleus",
        "config": {"top_p": 0.95},
        "min_tokens": 50,
        "max_tokens": 400,
        **corpus,
    }
    return validate(params).generation("mlm_s")


def test_a_refill_model_gets_no_span_limits_or_start_bias() -> None:
    settings, target = settings_for(_params(target_tokens=1234), "mlm_s", Refiller())
    assert settings.span_limits == () and settings.start_bias == () and target == 1234


@pytest.mark.parametrize("setting", ["uniform", {"Name": 2.0}])
def test_a_tag_distribution_for_a_refill_model_is_refused(setting) -> None:
    with pytest.raises(InputError, match="tag_distribution: real") as err:
        settings_for(_params(tag_distribution=setting), "mlm_s", Refiller())
    assert "Refiller" in str(err.value) and "mlm_s" in str(err.value)


class CharLM:
    """An autoregressive stand-in whose tokens are characters (only ``encode`` is used here)."""

    def encode(self, text: str) -> list[int]:
        return [ord(c) for c in text]


def test_auto_lengths_follow_the_training_notes_in_the_models_tokens(tmp_path, monkeypatch) -> None:
    from synthdeid.api import AutoregressiveLM

    lines = [" ".join(["w"] * n) + " <EOD>" for n in range(1, 101)]  # 1 .. 100 words
    (tmp_path / "data" / "inline").mkdir(parents=True)
    (tmp_path / "data" / "inline" / "train.txt").write_text("\n".join(lines) + "\n", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    # whitespace tokens, markup not counted (a model that is not left-to-right)
    settings, _ = settings_for(_params(min_tokens="auto", max_tokens="auto"), "mlm_s", Refiller())
    assert (settings.min_tokens, settings.max_tokens) == (10, 99)
    settings, _ = settings_for(_params(min_tokens="auto", max_tokens=500), "mlm_s", Refiller())
    assert (settings.min_tokens, settings.max_tokens) == (10, 500)
    # a left-to-right model: its own tokens (here characters, "<EOD>" included)
    monkeypatch.setattr("synthdeid.generation.settings.AutoregressiveLM", CharLM)
    monkeypatch.setattr("synthdeid.generation.settings.span_limits", lambda *a: ())
    monkeypatch.setattr("synthdeid.generation.settings.start_bias", lambda *a: ())
    settings, _ = settings_for(_params(min_tokens="auto", max_tokens="auto"), "mlm_s", CharLM())
    assert (settings.min_tokens, settings.max_tokens) == (len(lines[9]), len(lines[98]))
    assert not isinstance(CharLM(), AutoregressiveLM)  # the patch, not the protocol, made it left-to-right


def test_length_settings_are_checked() -> None:
    from synthdeid.generation.note_lengths import quantile, resolve_lengths

    assert quantile([5, 1, 3, 2, 4], 0.1) == 1 and quantile([5, 1, 3, 2, 4], 0.99) == 5
    assert quantile(list(range(1, 11)), 0.5) == 5
    assert resolve_lengths(50, 400, [], len) == (50, 400)  # numbers need no notes
    assert resolve_lengths("auto", "auto", ["a b"] * 3, lambda s: len(s.split())) == (2, 3)  # max above min
    for bad in (-1, 2.5, True, "long"):
        with pytest.raises(InputError, match="auto or a whole number"):
            resolve_lengths(bad, 400, ["a"], len)
    with pytest.raises(InputError, match="dvc repro inline"):
        resolve_lengths("auto", 400, [], len)
