"""Corpus formats are a plugin kind (``register_formats``): a third-party format is found by its
name and its file-name endings, reads, writes and round-trips, and joins the CLI's and the study
spec's choices; the built-ins register through the same hook."""

from __future__ import annotations

import copy
import json
from collections.abc import Iterable, Iterator
from importlib import metadata
from pathlib import Path
from typing import Any

import pytest
import yaml

from synthdeid import Document, InputError, Span, SynthdeidError, TagSet, hookimpl
from synthdeid.api import CorpusFormat
from synthdeid.cli import build_parser, main
from synthdeid.corpus_io import format_names, guess_format, read_documents, writable_formats, write_documents
from synthdeid.plugin_system.manager import registry
from synthdeid.spec import load_study

REPO = Path(__file__).resolve().parents[1]
BUILT_IN = ["jsonl", "brat", "conll", "inline", "i2b2", "xml_inline", "text"]
DOCS = [Document.create("a", "Jan kwam", [Span(0, 3, "Name")]), Document.create("b", "geen naam", [])]


def read_lines(
    path: str | Path, tagset: TagSet | None = None, errors: list[InputError] | None = None, options: Any = None
) -> Iterator[Document]:
    """``id|text|start-end-label,...`` lines; ``options={"upper": True}`` upper-cases the text."""
    for line in Path(path).read_text(encoding="utf-8").splitlines():
        doc_id, text, spans = line.split("|")
        text = text.upper() if (options or {}).get("upper") else text
        parsed = [Span(int(a), int(b), label) for a, b, label in (s.split("-") for s in spans.split(",") if s)]
        yield Document.create(doc_id, text, parsed, tagset=tagset)


def write_lines(docs: Iterable[Document], path: Path) -> int:
    docs = list(docs)
    spans = (",".join(f"{s.start}-{s.end}-{s.label}" for s in d.spans) for d in docs)
    Path(path).write_text("".join(f"{d.id}|{d.text}|{s}\n" for d, s in zip(docs, spans)), encoding="utf-8")
    return len(docs)


class PipesPlugin:
    @hookimpl
    def register_formats(self, register):
        register("pipes", lambda config: CorpusFormat("pipe-separated lines", read_lines, write_lines, (".pipes",)))
        register("pipes_ro", lambda config: CorpusFormat("read only", read_lines, None, (".pipes.ro",), ("upper",)))


@pytest.fixture
def pipes(register_plugin):
    register_plugin(PipesPlugin, "pipes-plugin")


def test_the_built_in_formats_register_through_the_hook():
    built_in = [e for e in registry("format").in_order() if e.package == "synthdeid"]
    assert [e.name for e in built_in] == BUILT_IN
    assert {e.plugin for e in built_in} == {"synthdeid.corpus_io.builtin"}
    assert format_names()[: len(BUILT_IN)] == BUILT_IN and "text" not in writable_formats()


def test_a_plugin_format_is_guessed_read_written_and_round_trips(pipes, tmp_path):
    path = tmp_path / "notes.pipes"
    assert guess_format(path) == "pipes" and guess_format(tmp_path / "N.PIPES") == "pipes"
    assert guess_format(tmp_path / "notes.pipes.ro") == "pipes_ro"  # the longest ending decides
    assert write_documents(DOCS, path) == 2
    assert path.read_text(encoding="utf-8") == "a|Jan kwam|0-3-Name\nb|geen naam|\n"
    assert list(read_documents(path)) == DOCS
    assert main(["convert", str(path), str(tmp_path / "out.jsonl")]) == 0
    assert main(["convert", str(tmp_path / "out.jsonl"), str(tmp_path / "back.pipes")]) == 0
    assert (tmp_path / "back.pipes").read_bytes() == path.read_bytes()


def test_a_plugin_formats_options_are_passed_and_checked(pipes, tmp_path):
    path = tmp_path / "x.txt"
    write_documents(DOCS, tmp_path / "x.pipes")
    (tmp_path / "x.pipes").rename(path)
    assert [d.text for d in read_documents(path, "pipes_ro", options={"upper": True})] == ["JAN KWAM", "GEEN NAAM"]
    with pytest.raises(InputError, match="format 'pipes' has no option 'upper'") as e:
        list(read_documents(path, "pipes", options={"upper": True}))
    assert "it takes none" in e.value.fix
    with pytest.raises(InputError, match="read only"):
        write_documents(DOCS, tmp_path / "y.pipes.ro")


def test_a_plugin_format_joins_the_cli_choices_and_the_spec(pipes, tmp_path):
    parser = build_parser()
    convert = next(
        a for a in parser._subparsers._group_actions[0].choices["convert"]._actions if a.dest == "from_format"
    )
    assert {"pipes", "pipes_ro", *BUILT_IN} <= set(convert.choices)
    params = yaml.safe_load((REPO / "params.yaml").read_text(encoding="utf-8"))
    for fmt in ("pipes", "text", "auto"):
        edited = copy.deepcopy(params)
        edited["corpus"]["format"] = fmt
        (tmp_path / "params.yaml").write_text(yaml.safe_dump(edited), encoding="utf-8")
        assert load_study(tmp_path / "params.yaml").corpus.format == fmt


def test_an_unknown_format_names_the_registered_ones(pipes, tmp_path):
    with pytest.raises(InputError) as e:
        list(read_documents(REPO / "params.yaml", "pipez"))
    assert "unknown format 'pipez'" in str(e.value) and "pipes" in e.value.fix and "jsonl" in e.value.fix
    with pytest.raises(InputError) as e:
        guess_format(tmp_path / "x.unknown")
    assert "pipes" in e.value.fix and "*.pipes (pipes)" in e.value.fix
    params = yaml.safe_load((REPO / "params.yaml").read_text(encoding="utf-8"))
    params["corpus"]["format"] = "pipez"
    (tmp_path / "params.yaml").write_text(yaml.safe_dump(params), encoding="utf-8")
    with pytest.raises(InputError) as e:
        load_study(tmp_path / "params.yaml")
    message = str(e.value)
    assert "corpus.format" in message and "did you mean pipes?" in message
    assert "auto (guessed from corpus.path), jsonl, brat" in message and "pipes_ro" in message


def test_two_formats_claiming_one_ending_are_refused(register_plugin):
    class Txt:
        @hookimpl
        def register_formats(self, register):
            register("my_txt", lambda config: CorpusFormat("notes", read_lines, None, (".txt",)))

    register_plugin(Txt, "txt-plugin")
    with pytest.raises(SynthdeidError, match=r"two formats claim the file-name ending \.txt: text .* and my_txt"):
        format_names()


def test_a_factory_must_return_a_corpus_format(register_plugin):
    class Wrong:
        @hookimpl
        def register_formats(self, register):
            register("wrong", lambda config: {"reader": read_lines})

    register_plugin(Wrong, "wrong-plugin")
    with pytest.raises(SynthdeidError, match="returns dict, not a synthdeid.api.CorpusFormat"):
        format_names()


def test_a_suffix_is_a_lower_case_ending_with_its_dot():
    with pytest.raises(ValueError, match="'tsv'"):
        CorpusFormat("x", read_lines, suffixes=("tsv",))
    with pytest.raises(ValueError, match="'.TSV'"):
        CorpusFormat("x", read_lines, suffixes=(".TSV",))


# --- the example plugin's format (installed by `make test`) -----------------------------------


def _installed(dist: str) -> bool:
    try:
        metadata.distribution(dist)
    except metadata.PackageNotFoundError:
        return False
    return True


needs_example = pytest.mark.skipif(
    not _installed("synthdeid-example-plugin"),
    reason="pip install -e examples/synthdeid-example-plugin --no-deps (`make test` does it)",
)


@needs_example
def test_the_example_format_round_trips_through_convert(tmp_path, capsys):
    text = "Jan\twoont\\n in\nUtrecht\\"
    docs = [Document.create("a", text, [Span(0, 3, "Name"), Span(15, 22, "Address")]), DOCS[1]]
    write_documents(docs, tmp_path / "in.jsonl")
    assert guess_format(tmp_path / "x.spans.tsv") == "example_tsv"
    assert main(["convert", str(tmp_path / "in.jsonl"), str(tmp_path / "x.spans.tsv")]) == 0
    assert (tmp_path / "x.spans.tsv").read_text(encoding="utf-8") == (
        "a\tJan\\twoont\\\\n in\\nUtrecht\\\\\t0:3:Name 15:22:Address\nb\tgeen naam\t\n"
    )
    assert list(read_documents(tmp_path / "x.spans.tsv")) == docs
    assert main(["convert", str(tmp_path / "x.spans.tsv"), str(tmp_path / "back.jsonl")]) == 0
    assert (tmp_path / "back.jsonl").read_bytes() == (tmp_path / "in.jsonl").read_bytes()
    capsys.readouterr()
    assert main(["plugins", "--json"]) == 0
    listed = {(e["kind"], e["name"]): e["package"] for e in json.loads(capsys.readouterr().out)}
    assert listed[("format", "example_tsv")] == "synthdeid-example-plugin"
    assert listed[("format", "jsonl")] == "synthdeid"


@needs_example
def test_the_example_format_refuses_what_it_cannot_read_or_hold(tmp_path):
    bad = tmp_path / "bad.spans.tsv"
    bad.write_text("a\tJan\t0:3:Name\nb\tonly two fields\n", encoding="utf-8")
    with pytest.raises(InputError, match="2 tab-separated fields, not 3") as e:
        list(read_documents(bad))
    assert e.value.line == 2
    errors: list[InputError] = []
    assert [d.id for d in read_documents(bad, errors=errors)] == ["a"] and len(errors) == 1
    with pytest.raises(InputError, match="holds whitespace"):
        write_documents([Document.create("a", "Jan", [Span(0, 3, "First Name")])], tmp_path / "out.spans.tsv")
    assert not (tmp_path / "out.spans.tsv").exists()


def test_the_docs_name_the_built_in_formats_and_their_endings():
    from synthdeid.corpus_io.registered import formats

    names = (REPO / "docs/formats.md").read_text(encoding="utf-8").split("**Format names.**")[1].split("\n\n")[0]
    built_in = [e.name for e in registry("format").in_order() if e.package == "synthdeid"]
    assert " ".join(names.split()).startswith(
        "`corpus.format`, `--from`, `--to` and `--format` take a format's name: the built-in ones are "
        + ", ".join(f"`{n}`" for n in built_in[:-1])
        + f" and `{built_in[-1]}`"
    )
    hooks = " ".join((REPO / "docs/plugin-hooks.md").read_text(encoding="utf-8").split())
    endings = [e for e, name in formats().endings.items() if name in built_in]
    claimed = ", ".join(f"`{e}`" for e in endings[:-1]) + f" and `{endings[-1]}`"
    assert f"The built-ins claim {claimed};" in hooks
