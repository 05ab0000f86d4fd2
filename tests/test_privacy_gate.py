"""The privacy gate fails closed: a threshold whose figure was not measured (its metric left out
of ``privacy.metrics``, a missing or NaN figure) fails instead of passing; unknown keys, thresholds
that are not numbers and a gate without thresholds are refused before measuring; the override
warns on every run and opens the datasheet; a preset that reads real data never keeps it on."""

from __future__ import annotations

import json
import math
import shutil
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml
from stage_runner import repo_params

from synthdeid.errors import InputError, SynthdeidError
from synthdeid.privacy.gate import KEYS, THRESHOLDS, Gate
from synthdeid.report.datasheet import override_banner
from synthdeid.spec.study import GateSection

ROOT = Path(__file__).resolve().parents[1]
DEFAULT = {
    "max_exact_duplicates": 0,
    "max_longest_run": 100,
    "max_identifying_phi_leakage": None,
    "max_identifying_phi_leakage_multi": 0.25,
    "override": False,
}
MEASURED = {
    "leakage": {
        "exact_duplicates": 0,
        "longest_run": {"max": 12},
        "phi": {"rate": 0.3, "multi_token_rate": 0.1, "identifying_rate": 0.2, "identifying_multi_token_rate": 0.05},
    }
}


def gate_of(gate: Any) -> Gate:
    """``privacy.gate`` as the study spec builds it (the one parser of the gate)."""
    return GateSection.model_validate(gate).build()


def test_the_defaults_pass_a_measured_corpus_and_fail_an_exceeding_one() -> None:
    gate = gate_of(DEFAULT)
    assert gate.failures(MEASURED) == []
    copied = {"leakage": {**MEASURED["leakage"], "exact_duplicates": 3}}
    assert gate.failures(copied) == ["synthetic notes identical to a real note: 3 > max_exact_duplicates = 0"]


@pytest.mark.parametrize(
    "summary, figure",
    [
        ({}, "leakage.exact_duplicates"),  # the metric left out of privacy.metrics
        (
            {"leakage": {**MEASURED["leakage"], "phi": {"rate": 0.3, "multi_token_rate": 0.1}}},
            "leakage.phi.identifying_multi_token_rate",
        ),  # a leakage summary from before the identifying figures
        ({"leakage": {**MEASURED["leakage"], "longest_run": {"max": math.nan}}}, "leakage.longest_run.max"),
        ({"leakage": {**MEASURED["leakage"], "exact_duplicates": "0"}}, "leakage.exact_duplicates"),
    ],
)
def test_a_missing_or_non_finite_figure_fails_closed(summary: dict[str, Any], figure: str) -> None:
    with pytest.raises(SynthdeidError, match=f"the figure {figure} .* was not measured"):
        gate_of(DEFAULT).failures(summary)


@pytest.mark.parametrize(
    "gate, says",
    [
        (
            {**DEFAULT, "max_identifying_phi_leakge": 0.1},
            r"privacy.gate.max_identifying_phi_leakge: unknown key \(did you mean `max_identifying_phi_leakage`\?\)",
        ),
        (
            {**DEFAULT, "max_phi_leakage_multi": 0.25},
            r"privacy.gate: max_phi_leakage_multi is now privacy.gate.max_identifying_phi_leakage_multi: "
            r"the gate limits the share of \*identifying\* real PHI strings",
        ),
        (
            {"max_phi_leakage": None, "max_exact_duplicates": 0},
            r"max_phi_leakage is now privacy.gate.max_identifying_phi_leakage:",
        ),
        ({**DEFAULT, "max_longest_run": math.nan}, "privacy.gate.max_longest_run: must be greater than or equal to 0"),
        ({**DEFAULT, "max_longest_run": math.inf}, "privacy.gate.max_longest_run: must be a finite number"),
        ({**DEFAULT, "max_longest_run": -1}, "privacy.gate.max_longest_run: must be greater than or equal to 0"),
        ({**DEFAULT, "max_exact_duplicates": True}, "privacy.gate.max_exact_duplicates: must be a number"),
        ({**DEFAULT, "override": "no"}, "privacy.gate.override: must be true or false"),
        ({t.key: None for t in THRESHOLDS}, "privacy.gate: sets no threshold"),
        ([0.1], "privacy.gate: must be a mapping"),
    ],
)
def test_bad_gate_settings_are_refused(gate: Any, says: str) -> None:
    """Refused by the study spec, with the key, before any stage runs."""
    from synthdeid.spec.load import validate

    params = repo_params()
    params["privacy"] = {**params["privacy"], "gate": gate}
    with pytest.raises(InputError, match=says):
        validate(params)


def test_a_yaml_string_threshold_is_read_as_the_number() -> None:
    assert gate_of({**DEFAULT, "max_identifying_phi_leakage_multi": "1e-1"}).limits[
        "max_identifying_phi_leakage_multi"
    ] == pytest.approx(0.1)


def test_a_threshold_needs_its_metric_configured() -> None:
    gate = gate_of(DEFAULT)
    gate.check_metrics({"rouge": {}, "leakage": {}})
    with pytest.raises(
        SynthdeidError, match="needs the privacy metric 'leakage'.*add `leakage: {}` to privacy.metrics"
    ):
        gate.check_metrics({"rouge": {}, "bm25": {}})
    gate_of(
        {
            "max_longest_run": None,
            "max_exact_duplicates": None,
            "max_identifying_phi_leakage_multi": None,
            "override": True,
        }
    ).check_metrics({})  # nothing to measure, published by an explicit override


def test_the_spec_gate_is_made_from_the_thresholds() -> None:
    """The thresholds are declared once (``THRESHOLDS``): the spec's privacy.gate keys and their
    descriptions are theirs, it refuses a former key and an empty gate with the gate's own messages,
    and builds the gate."""
    from pydantic import ValidationError

    fields = GateSection.model_fields
    assert tuple(fields) == KEYS == (*(t.key for t in THRESHOLDS), "override")
    assert [fields[t.key].description for t in THRESHOLDS] == [t.what for t in THRESHOLDS]
    assert gate_of(DEFAULT) == Gate(
        {"max_exact_duplicates": 0.0, "max_longest_run": 100.0, "max_identifying_phi_leakage_multi": 0.25}, False
    )
    for bad, says in (({"max_phi_leakage": 0.1}, "max_phi_leakage is now"), ({"override": False}, "sets no threshold")):
        with pytest.raises(ValidationError, match=says):
            GateSection.model_validate(bad)


def _workspace(tmp_path: Path, metrics: dict[str, Any], gate: dict[str, Any], copies: bool) -> None:
    from synthdeid.corpus.formats import write_jsonl
    from synthdeid.generation.origin import Origin
    from synthdeid.sources.demo import generate_demo_corpus

    real = generate_demo_corpus(12, 0)
    from synthdeid.phi.head_words import NONE

    (tmp_path / "data/pseudonymized").mkdir(parents=True)
    (tmp_path / "data/synthetic/x").mkdir(parents=True)
    (tmp_path / "data/annotated").mkdir(parents=True)
    write_jsonl(real[:10], tmp_path / "data/annotated/train.jsonl")
    NONE.write(tmp_path / "data/pseudonymized/head_words.json")
    write_jsonl(real[:10], tmp_path / "data/pseudonymized/train.jsonl")
    write_jsonl(real[10:], tmp_path / "data/pseudonymized/dev.jsonl")
    write_jsonl(real[:3] if copies else real[10:], tmp_path / "data/synthetic/x/documents.jsonl")
    Origin("x", "lstm").write(str(tmp_path / "data/synthetic/x/origin.json"))
    params = repo_params()  # the stage reads the whole study spec, checked
    params["privacy"] |= {"metrics": metrics, "gate": gate}
    (tmp_path / "params.yaml").write_text(yaml.safe_dump(params))


def _privacy_stage(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import importlib

    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(sys, "argv", ["privacy", "x"])
    importlib.import_module("synthdeid.stages.privacy").main()


def test_the_stage_refuses_a_gate_it_cannot_measure(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Exact copies of training notes, with ``leakage`` left out of the metrics: the stage used to
    pass them; now it stops before measuring and writes no verdict."""
    _workspace(tmp_path, {"bm25": {}}, DEFAULT, copies=True)
    with pytest.raises(SystemExit):
        _privacy_stage(tmp_path, monkeypatch)
    assert "needs the privacy metric 'leakage'" in capsys.readouterr().err
    assert not (tmp_path / "data/metrics/privacy/x.json").exists()


def test_the_stage_fails_copies_and_an_override_warns_and_is_recorded(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    _workspace(tmp_path, {"leakage": {}}, DEFAULT, copies=True)
    with pytest.raises(SystemExit):
        _privacy_stage(tmp_path, monkeypatch)
    assert "is not published" in capsys.readouterr().err
    verdict = json.loads((tmp_path / "data/metrics/privacy/x.json").read_text())["gate"]
    assert verdict["passed"] is False and not verdict["overridden"]
    _workspace(tmp_path / "o", {"leakage": {}}, {**DEFAULT, "override": True}, copies=True)
    _privacy_stage(tmp_path / "o", monkeypatch)
    assert "warning: privacy.gate.override is true" in capsys.readouterr().err
    verdict = json.loads((tmp_path / "o/data/metrics/privacy/x.json").read_text())["gate"]
    assert verdict["passed"] is False and verdict["overridden"] and verdict["override"]
    assert override_banner(verdict).startswith("> **WARNING: this corpus did NOT pass the privacy gate")
    assert override_banner({"passed": True, "override": True}).startswith(
        "> **Note: the privacy gate's override was on"
    )
    assert override_banner({"passed": True, "override": False}) == ""


def test_the_stage_names_what_drives_a_phi_leakage_failure(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    _workspace(tmp_path, {"leakage": {}}, {"max_identifying_phi_leakage_multi": 0.1}, copies=True)
    with pytest.raises(SystemExit):
        _privacy_stage(tmp_path, monkeypatch)
    err = capsys.readouterr().err
    assert "max_identifying_phi_leakage_multi = 0.1" in err and "what drives it, by label" in err
    assert "corpora.x.fresh_surrogates: {labels: [" in err and "4. last: privacy.gate.override: true" in err
    phi = json.loads((tmp_path / "data/metrics/privacy/x.json").read_text())["leakage"]["phi"]
    assert phi["identifying_multi_token_rate"] > 0.1 and phi["identifying_rule"].startswith("every real PHI string")


def test_a_preset_that_reads_real_data_turns_the_override_off(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from synthdeid.cli import main

    shutil.copytree(ROOT / "presets", tmp_path / "presets")
    shutil.copy(ROOT / "params.yaml", tmp_path / "params.yaml")
    (tmp_path / "presets/mine.yaml").write_text("corpus:\n  source: files\n  path: notes\n")
    monkeypatch.chdir(tmp_path)
    assert main(["preset", "smoke"]) == 0
    assert "warning: privacy.gate.override is true" in capsys.readouterr().err
    assert main(["preset", "mine"]) == 0  # a third-party preset that does not mention the gate
    params = yaml.safe_load(Path("params.yaml").read_text())
    assert params["corpus"]["source"] == "files" and params["privacy"]["gate"]["override"] is False
    assert "privacy.gate.override" in capsys.readouterr().out
    assert main(["preset", "smoke"]) == 0 and main(["preset", "meddocan"]) == 0
    assert yaml.safe_load(Path("params.yaml").read_text())["privacy"]["gate"]["override"] is False


def test_the_verdict_and_the_refusal_come_from_the_gate() -> None:
    gate = gate_of(DEFAULT)
    failures = gate.failures({"leakage": {**MEASURED["leakage"], "exact_duplicates": 2}})
    assert gate.verdict(failures) == {
        "passed": False,
        "failures": failures,
        "limits": dict(gate.limits),
        "override": False,
        "overridden": False,
    }
    notes = [
        {"synthetic_id": "s1", "longest_run": 3, "real_id": "r1"},
        {"synthetic_id": "s2", "longest_run": 40, "real_id": "r2"},
    ]
    error = gate.refusal("x", failures, notes, "m.json", "p.html")
    assert error is not None and "corpus 'x' is not published" in str(error)
    assert "s2 (40 tokens from r2), s1 (3 tokens" in str(error) and "see m.json and p.html" in str(error)
    assert gate.refusal("x", [], notes, "m.json", "p.html") is None
    overridden = gate_of({**DEFAULT, "override": True})
    assert overridden.refusal("x", failures, notes, "m", "p") is None and overridden.verdict(failures)["overridden"]


def _norwegian(leaked_names: int) -> dict[str, Any]:
    """The leakage summary of the Norwegian-like corpus (``norwegian_notes``): common ages in
    every synthetic note, ``leaked_names`` real names copied verbatim."""
    from norwegian_notes import real_notes, synthetic_notes, tokenize

    from synthdeid.api import PrivacyInput
    from synthdeid.plugin_system.manager import registry

    data = PrivacyInput(real_notes(), synthetic_notes(leaked_names), tokenize)
    return {"leakage": registry("privacy_metric").create("leakage", {}).compute(data).summary}


def test_chance_reuse_of_common_ages_passes_the_gate() -> None:
    """Issue #28: a corpus whose multi-token PHI is mostly ages stopped at the gate on the raw
    figure (25 of 66 strings, 24 of them ages); the gate limits the identifying figure (3 of 44)."""
    summary = _norwegian(leaked_names=1)
    phi = summary["leakage"]["phi"]
    assert phi["multi_token_rate"] > DEFAULT["max_identifying_phi_leakage_multi"]  # what the gate used to limit
    gate = gate_of(DEFAULT)
    assert gate.failures(summary) == [] and phi["identifying_multi_token_rate"] == 3 / 44
    assert gate.refusal("lstm_p", [], [], "m.json", "p.html", summary) is None


def test_rare_names_copied_verbatim_fail_with_what_drives_the_figure_and_the_fixes_in_order() -> None:
    summary = _norwegian(leaked_names=12)
    gate = gate_of(DEFAULT)
    failures = gate.failures(summary)
    assert failures == [
        "share of identifying real multi-token PHI strings reappearing: 0.3181818181818182 > "
        "max_identifying_phi_leakage_multi = 0.25"
    ]
    notes = [{"synthetic_id": "s1", "longest_run": 6, "real_id": "r1"}]
    message = str(gate.refusal("lstm_p", failures, notes, "m.json", "p.html", summary))
    assert (
        "  what drives it, by label (identifying real PHI strings of 2+ tokens reappearing, of all; "
        "leakage.phi_by_label):\n    Name: 12 of 42: 'ingrid bakken' (in 1 synthetic note), 'ingrid haugen' (in 1 "
        "synthetic note), 'ingrid johansen' (in 1 synthetic note)\n    Age: 2 of 2: '92 år' (in 1 synthetic note), "
        "'elleve år' (in 1 synthetic note)\n  identifying: every real PHI string except Age strings"
    ) in message
    fixes = [
        "1. fresh surrogates for those labels: corpora.lstm_p.fresh_surrogates: {labels: [Name, Age]}",
        "2. only if a label's values identify no one",
        "privacy.metrics.leakage: {common_notes: N,",
        "3. a threshold you can defend in the datasheet: privacy.gate.max_identifying_phi_leakage_multi (now 0.25)",
        "4. last: privacy.gate.override: true",
    ]
    at = [message.index(fix) for fix in fixes]
    assert at == sorted(at) and message.count("override") == 1
    # a failure that is no PHI leakage keeps the short message, the override its only way out
    copies = gate.failures({"leakage": {**summary["leakage"], "exact_duplicates": 1}})
    short = str(gate.refusal("x", copies[:1], notes, "m.json", "p.html", summary))
    assert "what drives it" not in short and short.endswith(
        "to publish anyway set privacy.gate.override: true (and say why in the datasheet)"
    )


def test_a_metric_declares_that_its_rows_are_review_pairs(register_plugin) -> None:
    """``measure`` merges per-note rows by synthetic id, and takes the rows of a metric with
    result declaring ``rows_are_pairs`` as the review pairs, whatever the metric is called."""
    from synthdeid import hookimpl
    from synthdeid.api import PrivacyInput, PrivacyResult
    from synthdeid.corpus.records import Document
    from synthdeid.privacy.measure import measure
    from synthdeid.spec.build import privacy_metrics

    class Pairs:
        name = "my_pairs"

        def compute(self, data: PrivacyInput) -> PrivacyResult:
            return PrivacyResult({"pairs": 1}, [{"synthetic_id": "s", "real_id": "r"}], rows_are_pairs=True)

    class PerNote:
        name = "my_notes"

        def compute(self, data: PrivacyInput) -> PrivacyResult:
            return PrivacyResult({"n": 1}, [{"synthetic_id": "s", "score": 0.5}])

    class Plugin:
        @hookimpl
        def register_privacy_metrics(self, register):
            register("my_pairs", lambda config: Pairs(), config=None)
            register("my_notes", lambda config: PerNote(), config=None)

    register_plugin(Plugin, "test-pairs")
    doc = Document("s", "a b", ())
    found = measure(
        privacy_metrics({"my_notes": {}, "my_pairs": None}),
        PrivacyInput(real=[], synthetic=[doc], tokenize=lambda t: []),
    )
    assert list(found.summary) == ["my_notes", "my_pairs"]
    assert found.notes == {"s": {"synthetic_id": "s", "score": 0.5}}
    assert found.pairs == [{"synthetic_id": "s", "real_id": "r"}]
