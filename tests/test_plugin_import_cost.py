"""Registering the built-in plugins stays light: no torch, transformers, flair, scipy, peft or numpy
until a plugin is created or used (every stage and CLI call registers them)."""

from __future__ import annotations

import json
import subprocess
import sys
import types

import pytest

HEAVY = ("torch", "transformers", "flair", "scipy", "peft", "numpy")


def _loaded_after(code: str) -> dict[str, object]:
    """Run ``code`` in a fresh interpreter; its ``result`` plus the heavy modules it loaded."""
    script = (
        f"import json, sys\n{code}\n"
        f"result['heavy'] = sorted(m for m in {HEAVY!r} if m in sys.modules)\n"
        "print(json.dumps(result))"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True)
    return json.loads(done.stdout.splitlines()[-1])


def test_registering_and_listing_plugins_loads_no_heavy_module():
    result = _loaded_after(
        "from synthdeid.plugin_system.manager import KINDS, get_plugin_manager, registry\n"
        "get_plugin_manager()\n"
        "result = {kind: registry(kind).names() for kind in KINDS.values()}"
    )
    assert result.pop("heavy") == []
    assert {"nucleus", "beam", "greedy"} <= set(result["decoder"])
    assert {"lstm", "gpt2", "causal_lm", "mlm_fill"} <= set(result["generator"])
    assert {"rouge", "bm25", "canary_exposure", "name_probe"} <= set(result["privacy_metric"])


def test_the_plugins_command_loads_no_heavy_module():
    result = _loaded_after(
        "import contextlib, io\n"
        "from synthdeid.cli import main\n"
        "with contextlib.redirect_stdout(io.StringIO()) as out:\n"
        "    main(['plugins', '--json'])\n"
        "result = {'names': [e['name'] for e in json.loads(out.getvalue())]}"
    )
    assert result["heavy"] == []
    assert {"nucleus", "lstm", "rouge"} <= set(result["names"])


def test_decoders_and_metrics_are_created_and_checked_as_before():
    result = _loaded_after(
        "from synthdeid import SynthdeidError\n"
        "from synthdeid.plugin_system.manager import registry\n"
        "nucleus = registry('decoder').create('nucleus', {'top_p': 0.9})\n"
        "rouge = registry('privacy_metric').create('rouge', {'n': [2]})\n"
        "try:\n"
        "    registry('decoder').create('nucleus', {'top_p': 2})\n"
        "except SynthdeidError as err:\n"
        "    error = str(err)\n"
        "result = {'top_p': nucleus.top_p, 'n': list(rouge.config.n), 'error': error}"
    )
    assert result["top_p"] == 0.9 and result["n"] == [2]
    assert result["error"] == (
        "decoder 'nucleus': setting 'top_p' must be in (0, 1], got 2.0; "
        "set it within (0, 1] (in its config in params.yaml)"
    )


@pytest.mark.parametrize(
    "module, names",
    [
        ("synthdeid.plugins.lstm", ["LSTMSampler", "next_lr", "load", "train_lstm"]),
        ("synthdeid.plugins.gpt2", ["GPT2Generator", "DEFAULT_VOCAB"]),
        ("synthdeid.plugins.causal_lm", ["CausalLMGenerator"]),
        ("synthdeid.plugins.mlm_fill", ["MLMFillGenerator", "MLMFillModel"]),
        ("synthdeid.plugins.privacy", ["RougeConfig", "BM25Metric", "NameProbeConfig", "CanaryExposureMetric"]),
    ],
)
def test_lazy_names_resolve_to_their_objects(module, names):
    mod = __import__(module, fromlist=names)
    for name in names:
        value = getattr(mod, name)
        assert not isinstance(value, types.ModuleType), name
    with pytest.raises(AttributeError, match="no attribute 'nothing_here'"):
        _ = mod.nothing_here


def test_the_report_stages_load_no_torch():
    """``report`` and ``utility_report`` read metrics and write Markdown and PNG: no model library."""
    result = _loaded_after("import synthdeid.stages.report, synthdeid.stages.utility_report\nresult = {}")
    assert not {"torch", "transformers", "flair", "peft"} & set(result["heavy"])
