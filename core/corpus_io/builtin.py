"""The built-in corpus formats as a plugin: registered through the same ``register_formats`` hook a
third-party format uses (listed in the plugin manager's ``DEFAULT_PLUGINS``): JSONL standoff
(canonical), BRAT folders, CoNLL/BIO, inline-tag text, i2b2/n2c2 XML, XML-style inline tags and
plain ``.txt`` notes (read only). It lives in core beside the dispatch (``synthdeid.corpus_io``),
as the readers and writers it names are internal to synthdeid (the plugins under ``plugins/``
import only the public surface). The order here is the order formats are listed in (``--help``,
error messages)."""

from __future__ import annotations

from synthdeid.api import Config, CorpusFormat, FormatFactory, RegisterFormat, hookimpl
from synthdeid.corpus.formats import brat as _brat
from synthdeid.corpus.formats import conll as _conll
from synthdeid.corpus.formats import i2b2 as _i2b2
from synthdeid.corpus.formats import inline_text as _inline
from synthdeid.corpus.formats import jsonl as _jsonl
from synthdeid.corpus.formats import plaintext as _plain
from synthdeid.corpus.formats import xml_inline as _xml_inline

BUILT_IN: dict[str, CorpusFormat] = {
    "jsonl": CorpusFormat(
        "JSONL standoff, the canonical format: one {id, text, spans} object per line",
        _jsonl.read_jsonl,
        _jsonl.write_jsonl,
        (".jsonl", ".json", ".ndjson"),
    ),
    "brat": CorpusFormat(
        "BRAT standoff: a folder of ID.txt notes and ID.ann annotations", _brat.read_brat, _brat.write_brat, (".ann",)
    ),
    "conll": CorpusFormat(
        "CoNLL/BIO: token<TAB>tag lines (BIO or BIOES), -DOCSTART-<TAB>id before each note",
        _conll.read_conll,
        _conll.write_conll,
        (".conll", ".bio", ".iob", ".conllu"),
    ),
    "inline": CorpusFormat(
        "inline-tag text: id<TAB>text lines with <NameSTART> Jan <NameEND> tags",
        _inline.read_inline,
        _inline.write_inline,
        (".inline", ".inline.txt"),
        _inline.OPTIONS,
    ),
    "i2b2": CorpusFormat(
        "i2b2/n2c2 de-identification XML: a folder of ID.xml files (or one), <TEXT> and <TAGS>",
        _i2b2.read_i2b2,
        _i2b2.write_i2b2,
        (".xml",),
        _i2b2.OPTIONS,
    ),
    "xml_inline": CorpusFormat(
        "XML-style inline tags: <Name>Jan</Name> in the text, a file or a folder of .txt notes",
        _xml_inline.read_xml_inline,
        _xml_inline.write_xml_inline,
        (".xmltags", ".xml.txt"),
        _xml_inline.OPTIONS,
    ),
    "text": CorpusFormat(
        "plain notes without annotations: a .txt file or a folder of them (read only)",
        _plain.read_plain,
        None,
        (".txt",),
    ),
}
"""The built-in formats by name, in the order they are listed."""


def _factory(fmt: CorpusFormat) -> FormatFactory:
    """A format factory returning ``fmt`` (a format takes no settings: its options come with each read)."""

    def factory(config: Config) -> CorpusFormat:
        return fmt

    return factory


@hookimpl
def register_formats(register: RegisterFormat) -> None:
    """The built-in formats, in ``BUILT_IN``'s order."""
    for name, fmt in BUILT_IN.items():
        register(name, _factory(fmt))
