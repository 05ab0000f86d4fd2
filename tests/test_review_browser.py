"""The review page in headless Chromium: answer, save (download), reload (localStorage), analyze.

Needs Python playwright and the Debian ``chromium`` package at /usr/bin/chromium (no
``playwright install``: the system browser is used); skips with the reason when either is absent.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from synthdeid.report.review import analyze, write_review_page

CHROMIUM = Path("/usr/bin/chromium")
sync_api = pytest.importorskip(
    "playwright.sync_api",
    reason="playwright is not installed (pip install playwright; the browser is /usr/bin/chromium)",
)
if not CHROMIUM.exists():
    pytest.skip("no /usr/bin/chromium (apt-get install -y chromium)", allow_module_level=True)

ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
]
PAIRS = [
    {
        "pair_id": "s1-rouge3",
        "synthetic_id": "s1",
        "real_id": "r7",
        "synthetic_text": "Mw. heeft goed gegeten en gedronken. </script><script>alert(1)</script>",
        "real_text": "Mw. heeft vanavond goed gegeten en gedronken.",
        "shared_ngrams": [["goed", "gegeten", "en"]],
        "rouge3": 0.4,
    },
    {
        "pair_id": "s1-bm25",
        "synthetic_id": "s1",
        "real_id": "r2",
        "synthetic_text": "Mw. heeft goed gegeten en gedronken.",
        "real_text": "Dhr. is naar bed.",
        "shared_ngrams": [],
        "bm25_rank": 1,
    },
    {
        "pair_id": "s3-rouge5",
        "synthetic_id": "s3",
        "real_id": "r4",
        "synthetic_text": "Zoon Jan belde.",
        "real_text": "Zoon Jan belde om 12-03.",
        "shared_ngrams": [["zoon", "jan", "belde"]],
        "rouge5": 0.2,
    },
]
EMPTY = {"q1": None, "q2": None, "q3": None, "q1_text": "", "q2_text": "", "q3_text": "", "q4": "", "comment": ""}


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        yield b
        b.close()


@pytest.fixture
def page_url(tmp_path: Path) -> str:
    return write_review_page(PAIRS, tmp_path / "review.html", "Browser test").resolve().as_uri()


def _open(context: Any, url: str, dialogs: list[str] | None = None) -> Any:
    page = context.new_page()
    if dialogs is not None:
        page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
    page.goto(url)
    page.wait_for_selector("body[data-ready=true]")
    return page


def _save(page: Any, tmp_path: Path) -> tuple[str, dict]:
    with page.expect_download() as info:
        page.get_by_test_id("save-answers").click()
    download = info.value
    target = tmp_path / download.suggested_filename
    download.save_as(target)
    return download.suggested_filename, json.loads(target.read_text(encoding="utf-8"))


def test_answer_save_reload(browser, page_url, tmp_path):
    context = browser.new_context(accept_downloads=True)
    requests: list[str] = []
    context.on("request", lambda r: requests.append(r.url))
    dialogs: list[str] = []
    page = _open(context, page_url, dialogs)
    assert "</script><script>alert(1)</script>" in page.get_by_test_id("pair-0-synthetic").inner_text()
    assert page.get_by_test_id("pair-0-real").locator("mark").all_inner_texts() == ["goed gegeten en"]

    page.get_by_test_id("reviewer-name").fill("Ann Example")
    # pair 0: by test id, by the radio's label, by keyboard (arrow keys move within a group)
    page.get_by_test_id("pair-0-q1-5").check()
    page.get_by_test_id("pair-0-q2").get_by_label("Probably not").check()
    page.get_by_test_id("pair-0-q3-4").focus()
    page.keyboard.press("Space")
    page.keyboard.press("ArrowRight")  # Probably yes (4) -> Not sure (3)
    page.get_by_test_id("pair-0-q4").fill("Same meal sentence, but nothing identifying.")
    page.get_by_test_id("pair-0-q1-text").fill("names a ward")
    # pair 2 (pair 1 stays unanswered)
    page.get_by_test_id("pair-2-q1").get_by_label("No", exact=True).click()
    page.get_by_test_id("pair-2-q3-5").check()
    page.get_by_test_id("pair-2-comment").fill("Zoon Jan <b>copied</b> & more")
    assert page.get_by_test_id("pair-2-status").inner_text() == "(2 of 3 rated)"

    expected = {
        "reviewer": "Ann Example",
        "page": "Browser test",
        "answers": [
            {
                **EMPTY,
                "pair_id": "s1-rouge3",
                "q1": 5,
                "q2": 2,
                "q3": 3,
                "q1_text": "names a ward",
                "q4": "Same meal sentence, but nothing identifying.",
            },
            {**EMPTY, "pair_id": "s1-bm25"},
            {**EMPTY, "pair_id": "s3-rouge5", "q1": 1, "q3": 5, "comment": "Zoon Jan <b>copied</b> & more"},
        ],
    }
    name, saved = _save(page, tmp_path)
    assert name == "review-Ann_Example.json"
    assert {k: saved[k] for k in expected} == expected
    assert list(saved["answers"][0]) == ["pair_id", "q1", "q2", "q3", "q1_text", "q2_text", "q3_text", "q4", "comment"]

    page.reload()
    page.wait_for_selector("body[data-ready=true]")
    assert page.get_by_test_id("reviewer-name").input_value() == "Ann Example"
    assert page.get_by_test_id("pair-0-q3-3").is_checked()
    assert not page.get_by_test_id("pair-1-q1-3").is_checked()
    assert page.get_by_test_id("pair-2-comment").input_value() == "Zoon Jan <b>copied</b> & more"
    assert "Restored" in page.get_by_test_id("message").inner_text()
    _, again = _save(page, tmp_path)
    assert {k: again[k] for k in expected} == expected
    assert all(u.startswith(("file:", "blob:", "data:")) for u in requests), requests
    assert dialogs == []  # the <script> in the note never ran
    context.close()


def test_save_without_name_asks_for_it(browser, page_url):
    context = browser.new_context(accept_downloads=True)
    page = _open(context, page_url)
    downloads: list[Any] = []
    page.on("download", lambda d: downloads.append(d))
    page.get_by_test_id("pair-0-q1-5").check()
    page.get_by_test_id("save-answers").click()
    assert "Enter your name" in page.get_by_test_id("message").inner_text()
    assert page.evaluate("document.activeElement.id") == "reviewer"
    page.wait_for_timeout(300)
    assert downloads == []
    context.close()


def test_two_reviewers_then_analyze(browser, page_url, tmp_path):
    files = []
    for name, answers in (("ann", [5, 4, 1]), ("bob", [5, 3, 1])):
        context = browser.new_context(accept_downloads=True)  # its own localStorage
        page = _open(context, page_url)
        page.get_by_test_id("reviewer-name").fill(name)
        for i, value in enumerate(answers):
            page.get_by_test_id(f"pair-{i}-q3-{value}").check()
        filename, _ = _save(page, tmp_path)
        files.append(tmp_path / filename)
        context.close()
    res = analyze(files)
    q3 = res["comparisons"][0]["questions"]["q3"]
    assert q3["n"] == 3 and q3["agreement"] == pytest.approx(2 / 3)
    assert res["comparisons"][0]["questions"]["q1"]["n"] == 0
