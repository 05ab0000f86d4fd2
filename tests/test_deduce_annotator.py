"""The DEDUCE annotator plugin (builds DEDUCE's lookup structures once: ~1 min on a fresh install)."""

import logging
import subprocess
import sys

import pytest

from synthdeid import CANONICAL_TAGS, Document, Span
from synthdeid.phi.annotate import annotate_documents
from synthdeid.plugin_system.manager import registry
from synthdeid.plugins import deduce_annotator
from synthdeid.plugins.deduce_annotator import DEDUCE_TAGS, build_lock

TEXT = (
    "Dhr. Jan Jansen (BSN 111222333), geboren 12-03-1950, woont aan de Kerkstraat 12 in Utrecht. "
    "Tel 06-12345678, jan@example.nl. Opgenomen in het Antonius Ziekenhuis."
)


@pytest.fixture(scope="module")
def annotator():
    return registry("annotator").create("deduce")


def test_deduce_finds_phi_with_canonical_labels(annotator):
    spans = annotator.annotate(TEXT)
    found = {(TEXT[s.start : s.end], s.label) for s in spans}
    assert ("Jan Jansen", "Name") in found  # the title "Dhr." stays outside the Name span
    assert ("111222333", "SSN") in found
    assert ("12-03-1950", "Date") in found
    assert ("06-12345678", "Phone_fax") in found
    assert ("jan@example.nl", "Email") in found
    assert any(label == "Hospital" for _, label in found)
    assert all(s.label in CANONICAL_TAGS for s in spans)
    assert all(type(s.start) is int and type(s.end) is int for s in spans)  # DEDUCE may give numpy ints
    Document.create("t", TEXT, spans)  # valid: in range, no overlaps


def test_annotate_documents_replaces_spans(annotator):
    doc = Document.create("d", TEXT, [Span(0, 3, "Other")])
    [out] = annotate_documents([doc], annotator)
    assert out.text == TEXT and Span(0, 3, "Other") not in out.spans and out.spans


def test_importing_deduce_leaves_logging_alone():
    code = (
        "import logging; from synthdeid.plugins.deduce_annotator import import_deduce; "
        "import_deduce(); r = logging.getLogger(); print(len(r.handlers), r.level)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.split() == ["0", str(logging.WARNING)]


def test_every_mapped_tag_is_canonical():
    assert set(DEDUCE_TAGS.values()) <= set(CANONICAL_TAGS)


def test_deduce_is_built_under_a_lock_other_processes_wait_for(monkeypatch, tmp_path):
    """DEDUCE writes its lookup cache in place: a second process must not read it half-written."""
    held = []

    class FakeDeduce:
        def __init__(self, **kwargs):
            other = subprocess.run(  # another process trying the same lock without waiting
                [sys.executable, "-c", LOCK_PROBE, str(build_lock(kwargs.get("cache_path")).lock_file)],
                capture_output=True,
                text=True,
            )
            held.append(other.stdout.strip())

    monkeypatch.setattr(deduce_annotator, "import_deduce", lambda: type("m", (), {"Deduce": FakeDeduce}))
    deduce_annotator._deduce.__wrapped__(str(tmp_path))
    assert held == ["locked"]
    assert build_lock(str(tmp_path)).lock_file == build_lock(str(tmp_path / ".")).lock_file
    assert build_lock(str(tmp_path)).lock_file != build_lock(None).lock_file
    assert deduce_annotator._default_cache_path(deduce_annotator.import_deduce()) is None  # the fake: none
    after = subprocess.run(
        [sys.executable, "-c", LOCK_PROBE, build_lock(str(tmp_path)).lock_file], capture_output=True, text=True
    )
    assert after.stdout.strip() == "free"  # released once DEDUCE is built


LOCK_PROBE = """
import sys
from filelock import FileLock, Timeout
try:
    FileLock(sys.argv[1]).acquire(timeout=0)
    print("free")
except Timeout:
    print("locked")
"""


def test_the_default_cache_is_locked_by_its_folder():
    """Two environments' DEDUCE installs (their default caches) do not share a lock."""
    real = deduce_annotator.import_deduce()
    default = deduce_annotator._default_cache_path(real)
    assert default is not None and "deduce" in default
    assert build_lock(default).lock_file != build_lock(default + "-elsewhere").lock_file
