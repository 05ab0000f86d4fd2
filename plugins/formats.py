"""The built-in corpus formats, registered through the same ``register_formats`` hook a third-party
format uses: JSONL standoff (canonical), BRAT folders, CoNLL/BIO, inline-tag text, i2b2/n2c2 XML,
XML-style inline tags and plain ``.txt`` notes (read only). The readers and writers live in
``synthdeid.corpus.formats``; this module names them, their file-name endings and their options.
The order here is the order formats are listed in (``--help``, error messages)."""

from __future__ import annotations

from synthdeid.api import Config, CorpusFormat, FormatFactory, RegisterFormat, hookimpl


def jsonl(config: Config) -> CorpusFormat:
    """JSONL standoff."""
    from synthdeid.corpus.formats.jsonl import read_jsonl, write_jsonl

    return CorpusFormat(
        "JSONL standoff, the canonical format: one {id, text, spans} object per line",
        read_jsonl,
        write_jsonl,
        (".jsonl", ".json", ".ndjson"),
    )


def brat(config: Config) -> CorpusFormat:
    """BRAT standoff folders."""
    from synthdeid.corpus.formats.brat import read_brat, write_brat

    return CorpusFormat(
        "BRAT standoff: a folder of ID.txt notes and ID.ann annotations", read_brat, write_brat, (".ann",)
    )


def conll(config: Config) -> CorpusFormat:
    """CoNLL / BIO token files."""
    from synthdeid.corpus.formats.conll import read_conll, write_conll

    return CorpusFormat(
        "CoNLL/BIO: token<TAB>tag lines (BIO or BIOES), -DOCSTART-<TAB>id before each note",
        read_conll,
        write_conll,
        (".conll", ".bio", ".iob", ".conllu"),
    )


def inline(config: Config) -> CorpusFormat:
    """Inline-tag text."""
    from synthdeid.corpus.formats.inline_text import OPTIONS, read_inline, write_inline

    return CorpusFormat(
        "inline-tag text: id<TAB>text lines with <NameSTART> Jan <NameEND> tags",
        read_inline,
        write_inline,
        (".inline", ".inline.txt"),
        OPTIONS,
    )


def i2b2(config: Config) -> CorpusFormat:
    """i2b2/n2c2 XML."""
    from synthdeid.corpus.formats.i2b2 import OPTIONS, read_i2b2, write_i2b2

    return CorpusFormat(
        "i2b2/n2c2 de-identification XML: a folder of ID.xml files (or one), <TEXT> and <TAGS>",
        read_i2b2,
        write_i2b2,
        (".xml",),
        OPTIONS,
    )


def xml_inline(config: Config) -> CorpusFormat:
    """XML-style inline tags."""
    from synthdeid.corpus.formats.xml_inline import OPTIONS, read_xml_inline, write_xml_inline

    return CorpusFormat(
        "XML-style inline tags: <Name>Jan</Name> in the text, a file or a folder of .txt notes",
        read_xml_inline,
        write_xml_inline,
        (".xmltags", ".xml.txt"),
        OPTIONS,
    )


def text(config: Config) -> CorpusFormat:
    """Plain notes without annotations."""
    from synthdeid.corpus.formats.plaintext import read_plain

    return CorpusFormat(
        "plain notes without annotations: a .txt file or a folder of them (read only)", read_plain, None, (".txt",)
    )


BUILT_IN: dict[str, FormatFactory] = {
    "jsonl": jsonl,
    "brat": brat,
    "conll": conll,
    "inline": inline,
    "i2b2": i2b2,
    "xml_inline": xml_inline,
    "text": text,
}


@hookimpl
def register_formats(register: RegisterFormat) -> None:
    for name, factory in BUILT_IN.items():
        register(name, factory)
