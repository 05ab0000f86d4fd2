"""The DEDUCE annotator plugin (builds DEDUCE's lookup structures once: ~1 min on a fresh install,
which ``make setup`` does while pip installs the other packages)."""

import logging
import subprocess
import sys
from pathlib import Path

import pytest

from synthdeid import CANONICAL_TAGS, Document, Span
from synthdeid.phi.annotate import annotate_documents
from synthdeid.plugin_system.manager import registry
from synthdeid.plugins import deduce_cache
from synthdeid.plugins.deduce_annotator import DEDUCE_TAGS
from synthdeid.plugins.deduce_cache import CACHE_FILE, build_lock

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


def test_the_annotations_are_deduces_own_without_its_redacted_text(annotator):
    """The annotator skips DEDUCE's redactor (its redacted copy of the text, slow on a long note):
    the annotations are those of DEDUCE's full run on the same text."""
    from synthdeid.plugins.deduce_annotator import REDACTOR, _deduce

    deduce = _deduce(None)
    text = " ".join([TEXT] * 40)
    full = deduce.deidentify(text)
    fast = deduce.deidentify(text, disabled={REDACTOR})
    assert full.deidentified_text != text and fast.deidentified_text is None  # the redactor is the part skipped
    key = lambda doc: sorted((a.start_char, a.end_char, a.tag) for a in doc.annotations)  # noqa: E731
    assert key(fast) == key(full) and len(full.annotations) > 40 * 5
    assert [(s.start, s.end) for s in annotator.annotate(text)]  # the annotator runs on that path


def test_annotate_documents_replaces_spans(annotator):
    doc = Document.create("d", TEXT, [Span(0, 3, "Other")])
    [out] = annotate_documents([doc], annotator)
    assert out.text == TEXT and Span(0, 3, "Other") not in out.spans and out.spans


def test_importing_deduce_leaves_logging_alone():
    code = (
        "import logging; from synthdeid.plugins.deduce_cache import import_deduce; "
        "import_deduce(); r = logging.getLogger(); print(len(r.handlers), r.level)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.split() == ["0", str(logging.WARNING)]


def test_every_mapped_tag_is_canonical():
    assert set(DEDUCE_TAGS.values()) <= set(CANONICAL_TAGS)


def _fake_deduce(monkeypatch: pytest.MonkeyPatch, lock_of: Path, fail: bool = False) -> list[tuple]:
    """A stand-in ``deduce`` whose ``Deduce(cache_path=...)`` writes a cache file there the way
    DEDUCE does (or dies half-way with ``fail``); it records its arguments and whether another
    process could take the lock of ``lock_of`` meanwhile."""
    calls: list[tuple] = []

    class FakeDeduce:
        def __init__(self, cache_path: str = "default") -> None:
            other = subprocess.run(  # another process trying the same lock without waiting
                [sys.executable, "-c", LOCK_PROBE, str(build_lock(str(lock_of)).lock_file)],
                capture_output=True,
                text=True,
            )
            calls.append((cache_path, other.stdout.strip()))
            target = Path(cache_path) / CACHE_FILE
            if not target.exists():
                target.parent.mkdir(parents=True, exist_ok=True)
                target.write_bytes(b"half" if fail else b"built")
                if fail:
                    raise RuntimeError("stopped while writing")

    monkeypatch.setattr(deduce_cache, "import_deduce", lambda: type("m", (), {"Deduce": FakeDeduce}))
    return calls


def test_deduce_is_built_under_a_lock_and_its_cache_moved_into_place(monkeypatch, tmp_path):
    """The first process builds into a scratch folder under the lock (others wait), then moves the
    finished file into the cache folder; later processes load it from there."""
    calls = _fake_deduce(monkeypatch, tmp_path)
    deduce_cache.load(str(tmp_path))
    [(scratch, lock)] = calls
    assert lock == "locked" and Path(scratch).parent == tmp_path and not Path(scratch).exists()
    assert (tmp_path / CACHE_FILE).read_bytes() == b"built"
    assert [p.name for p in tmp_path.iterdir()] == ["cache"]  # no scratch folder left
    deduce_cache.load(str(tmp_path))
    assert calls[1] == (str(tmp_path), "locked")  # the cache is there: loaded in place
    assert build_lock(str(tmp_path)).lock_file == build_lock(str(tmp_path / ".")).lock_file
    assert build_lock(str(tmp_path)).lock_file != build_lock(None).lock_file
    assert deduce_cache.default_cache_path(deduce_cache.import_deduce()) == "default"  # the fake's
    after = subprocess.run(
        [sys.executable, "-c", LOCK_PROBE, build_lock(str(tmp_path)).lock_file], capture_output=True, text=True
    )
    assert after.stdout.strip() == "free"  # released once DEDUCE is built


def test_a_build_stopped_half_way_leaves_no_cache(monkeypatch, tmp_path):
    """DEDUCE writes its cache in place: stopped while writing, it would leave a half-written file
    that every later start fails to read. Built in a scratch folder, nothing is left."""
    _fake_deduce(monkeypatch, tmp_path, fail=True)
    with pytest.raises(RuntimeError, match="stopped"):
        deduce_cache.load(str(tmp_path))
    assert list(tmp_path.iterdir()) == []


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
    real = deduce_cache.import_deduce()
    default = deduce_cache.default_cache_path(real)
    assert default is not None and "deduce" in default
    assert build_lock(default).lock_file != build_lock(default + "-elsewhere").lock_file


def test_the_cache_file_is_where_deduce_keeps_it():
    from deduce import lookup_structs

    assert Path(lookup_structs._CACHE_SUBDIR) / lookup_structs._CACHE_FILE == CACHE_FILE
