"""The corpus file formats synthdeid ships: JSONL standoff (canonical), BRAT folders, CoNLL/BIO,
inline-tag text, i2b2/n2c2 XML, XML-style inline tags; and a reader of plain ``.txt`` notes without
annotations. Each is registered as a plugin's ``CorpusFormat`` (``synthdeid.corpus_io.builtin``);
reading and writing by format name, and telling the format from a path, is ``synthdeid.corpus_io``.
Writers check every document before writing the first byte (a stream: before the output appears),
refusing what the format cannot hold, so that what they write reads back. What they write is private
whatever the umask (files 0o600, folders 0o700), and a folder writer refuses ids that would name one
file or pass a file system's limits, and an output name that ends in a file's suffix (see ``outpaths``)."""

from __future__ import annotations

from synthdeid.corpus.formats.brat import read_brat, write_brat
from synthdeid.corpus.formats.conll import read_conll, write_conll
from synthdeid.corpus.formats.i2b2 import read_i2b2, write_i2b2
from synthdeid.corpus.formats.inline_text import read_inline, write_inline
from synthdeid.corpus.formats.jsonl import read_jsonl, write_jsonl
from synthdeid.corpus.formats.plaintext import read_plain
from synthdeid.corpus.formats.xml_inline import read_xml_inline, write_xml_inline

__all__ = [
    "read_brat",
    "read_conll",
    "read_i2b2",
    "read_inline",
    "read_jsonl",
    "read_plain",
    "read_xml_inline",
    "write_brat",
    "write_conll",
    "write_i2b2",
    "write_inline",
    "write_jsonl",
    "write_xml_inline",
]
