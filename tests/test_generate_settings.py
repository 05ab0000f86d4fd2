"""``stages.generate.settings_for``: span limits and the tag distribution steer left-to-right models;
a model that rewrites real notes (``mlm_fill``) keeps their spans, and a tag distribution other
than ``real`` for it is refused with the fix (it crashed with an AttributeError before)."""

from __future__ import annotations

import pytest

from synthdeid import InputError
from synthdeid.stages.generate import settings_for
from stage_runner import repo_params


class Refiller:
    """Stands for MLMFillModel: it has generate_corpus, not the step-by-step interface."""

    def generate_corpus(self, *args, **kwargs):
        raise AssertionError("not called")


def _params(**corpus) -> dict:
    params = repo_params()
    params["corpora"]["mlm_s"] = {"generator": "mlm", "decoder": "nucleus", "config": {"top_p": 0.95}, **corpus}
    return params


def test_a_refill_model_gets_no_span_limits_or_start_bias() -> None:
    settings, target = settings_for(_params(target_tokens=1234), "mlm_s", Refiller())
    assert settings.span_limits == () and settings.start_bias == () and target == 1234


@pytest.mark.parametrize("setting", ["uniform", {"Name": 2.0}])
def test_a_tag_distribution_for_a_refill_model_is_refused(setting) -> None:
    with pytest.raises(InputError, match="tag_distribution: real") as err:
        settings_for(_params(tag_distribution=setting), "mlm_s", Refiller())
    assert "Refiller" in str(err.value) and "mlm_s" in str(err.value)
