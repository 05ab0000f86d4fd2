from synthdeid.report.repro import differing_stages, main


def lock(**stages):
    return {"schema": "2.0", "stages": {n: {"outs": [{"path": f"data/{n}", "md5": h}]} for n, h in stages.items()}}


def test_names_the_stages_whose_outputs_differ():
    assert differing_stages(lock(a="1", b="2", c="3"), lock(a="1", b="9", c="3")) == ["b"]
    assert differing_stages(lock(a="1"), lock(a="1", d="4")) == ["d"]
    assert differing_stages(lock(a="1", b="2"), lock(a="1", b="2")) == []


def test_reports_on_this_checkout(capsys):
    assert main() == 0
    out = capsys.readouterr().out
    assert out.startswith("repro report") and "stages' outputs" in out
