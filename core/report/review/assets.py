"""The inline CSS and JavaScript of the review page (no external resources)."""

from __future__ import annotations

CSS = """
:root { --mark: #ffe08a; --line: #c9ccd1; --ink: #1d2125; --muted: #5b6168; --accent: #0b5cad; }
* { box-sizing: border-box; }
body { font: 16px/1.5 system-ui, sans-serif; color: var(--ink); margin: 0; background: #f6f7f9; }
header.toolbar { position: sticky; top: 0; z-index: 2; background: #fff; border-bottom: 1px solid var(--line);
  padding: .5rem 1rem; display: flex; flex-wrap: wrap; gap: .5rem 1rem; align-items: center; }
header.toolbar h1 { font-size: 1.15rem; margin: 0; flex: 1 1 100%; }
main { padding: 1rem; max-width: 110rem; margin: 0 auto; }
button { font: inherit; padding: .35rem .9rem; border: 1px solid var(--accent); background: var(--accent);
  color: #fff; border-radius: .3rem; cursor: pointer; }
input[type=text], textarea { font: inherit; border: 1px solid var(--line); border-radius: .3rem; padding: .3rem; }
textarea { width: 100%; min-height: 2.6rem; }
:focus-visible { outline: 3px solid #f5a623; outline-offset: 2px; }
.message { margin: 0; color: var(--muted); }
.message.error { color: #b00020; font-weight: 600; }
nav ol { display: flex; flex-wrap: wrap; gap: .25rem 1.25rem; list-style-position: inside; padding: 0; margin: .5rem 0; }
nav a.done::after { content: " \\2713"; }
section.pair { background: #fff; border: 1px solid var(--line); border-radius: .4rem; padding: 1rem; margin: 1rem 0; }
section.pair h2 { font-size: 1.05rem; margin: 0 0 .5rem; }
.pid, .status { color: var(--muted); font-weight: normal; }
dl.scores { display: flex; flex-wrap: wrap; gap: .2rem 1.2rem; margin: 0 0 .75rem; color: var(--muted); }
dl.scores div { display: flex; gap: .3rem; }
dl.scores dt::after { content: ":"; }
dl.scores dd { margin: 0; font-variant-numeric: tabular-nums; }
.docs { display: grid; grid-template-columns: 1fr 1fr; gap: 1rem; }
@media (max-width: 50rem) { .docs { grid-template-columns: 1fr; } }
.doc h3 { font-size: 1rem; margin: 0 0 .3rem; }
.doc .text { border: 1px solid var(--line); border-radius: .3rem; padding: .6rem; background: #fcfcfd;
  overflow-wrap: anywhere; max-height: 32rem; overflow: auto; }
mark { background: var(--mark); color: inherit; padding: 0 .05em; }
fieldset { border: 1px solid var(--line); border-radius: .3rem; margin: .75rem 0 0; }
legend { font-weight: 600; padding: 0 .3rem; }
.scale { display: flex; flex-wrap: wrap; gap: .3rem 1.2rem; margin-bottom: .4rem; }
.scale label { cursor: pointer; padding-left: .2rem; }
.free { display: block; margin-top: .75rem; font-weight: 600; }
.note { display: block; font-size: .9rem; color: var(--muted); }
"""

JS = r"""
(function () {
  "use strict";
  var data = JSON.parse(document.getElementById("review-data").textContent);
  var pairs = data.pairs, likert = data.likert_keys, textKeys = data.text_keys;
  var storageKey = "synthdeid-review:" + data.page_key;
  var reviewer = document.getElementById("reviewer");
  var message = document.getElementById("message");
  var storage = null;
  try { storage = window.localStorage; storage.getItem(storageKey); } catch (e) { storage = null; }

  function field(i, key) { return document.getElementById("p" + i + "-" + key); }
  function checked(i, key) {
    return document.querySelector('input[type=radio][name="p' + i + "-" + key + '"]:checked');
  }

  function collect() {
    var answers = pairs.map(function (p, i) {
      var a = { pair_id: p.pair_id };
      likert.forEach(function (k) { var c = checked(i, k); a[k] = c ? parseInt(c.value, 10) : null; });
      textKeys.forEach(function (k) { a[k] = field(i, k).value; });
      return a;
    });
    return { reviewer: reviewer.value.trim(), page: data.title, page_key: data.page_key,
             scale: data.scale, answers: answers };
  }

  function say(text, isError) {
    message.textContent = text;
    message.className = isError ? "message error" : "message";
  }

  function updateStatus() {
    var done = 0;
    pairs.forEach(function (p, i) {
      var n = likert.filter(function (k) { return checked(i, k); }).length;
      if (n === likert.length) { done += 1; }
      document.getElementById("pair-" + i + "-status").textContent =
        "(" + n + " of " + likert.length + " rated)";
      document.getElementById("nav-" + i).className = n === likert.length ? "done" : "";
    });
    document.getElementById("progress").textContent =
      done + " of " + pairs.length + " pairs fully rated";
  }

  function persist() {
    if (!storage) { return; }
    try { storage.setItem(storageKey, JSON.stringify(collect())); } catch (e) { /* quota: ignore */ }
  }

  function restore() {
    if (!storage) { return; }
    var saved = null;
    try { saved = JSON.parse(storage.getItem(storageKey) || "null"); } catch (e) { saved = null; }
    if (!saved || !Array.isArray(saved.answers)) { return; }
    reviewer.value = saved.reviewer || "";
    var byId = {};
    saved.answers.forEach(function (a) { if (a && a.pair_id !== undefined) { byId[a.pair_id] = a; } });
    pairs.forEach(function (p, i) {
      var a = byId[p.pair_id];
      if (!a) { return; }
      likert.forEach(function (k) {
        if (a[k] === null || a[k] === undefined) { return; }
        var input = field(i, k + "-" + a[k]);
        if (input) { input.checked = true; }
      });
      textKeys.forEach(function (k) { if (typeof a[k] === "string") { field(i, k).value = a[k]; } });
    });
    say("Restored your earlier answers from this browser.", false);
  }

  function save() {
    var result = collect();
    if (!result.reviewer) {
      say("Enter your name before saving.", true);
      reviewer.focus();
      return;
    }
    var name = "review-" + result.reviewer.replace(/[^A-Za-z0-9._-]+/g, "_") + ".json";
    var blob = new Blob([JSON.stringify(result, null, 2) + "\n"], { type: "application/json" });
    var url = URL.createObjectURL(blob);
    var link = document.createElement("a");
    link.href = url;
    link.download = name;
    link.style.display = "none";
    document.body.appendChild(link);
    link.click();
    document.body.removeChild(link);
    setTimeout(function () { URL.revokeObjectURL(url); }, 10000);
    persist();
    say("Saved " + name + " (check your downloads folder).", false);
  }

  document.addEventListener("input", function () { persist(); updateStatus(); });
  document.addEventListener("change", function () { persist(); updateStatus(); });
  document.getElementById("save").addEventListener("click", save);
  restore();
  updateStatus();
  document.body.setAttribute("data-ready", "true");
})();
"""
