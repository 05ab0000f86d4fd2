"""Built-in label mappings selected by params (``tags.mapping: meddocan``), a separate test set
(``corpus.test_path``) in prepare, and the MEDDOCAN preset."""

from __future__ import annotations

import re
import shutil
import tomllib
from pathlib import Path

import pytest
import yaml

from synthdeid import CANONICAL_TAGS, Document, Span
from synthdeid.corpus.accounting import Counts
from synthdeid.corpus.split import prepare_splits, split_documents
from synthdeid.corpus.tags import (
    MAPPINGS_DIR,
    TagSet,
    builtin_mappings,
    label_mapping,
    tag_labels,
)
from synthdeid.errors import InputError
from synthdeid.tools.presets import apply_preset, load_preset

ROOT = Path(__file__).resolve().parents[1]
MEDDOCAN = ROOT.parent / "shared" / "data" / "meddocan"
SEPR_LABELS = {
    "First_Name",
    "Last_Name",
    "Age",
    "Phone_Number",
    "Location",
    "Health_Care_Unit",
    "Organization",
    "Date_Part",
    "Full_Date",
    "Date_Full",  # the variant names some releases use
    "Social_Security_Number",
}
# the TYPEs of the i2b2 2014 (Stubbs & Uzuner 2015) and 2006 (Uzuner et al. 2007) guidelines
I2B2_2014_LABELS = {
    "PATIENT",
    "DOCTOR",
    "USERNAME",
    "PROFESSION",
    "ROOM",
    "DEPARTMENT",
    "HOSPITAL",
    "ORGANIZATION",
    "STREET",
    "CITY",
    "STATE",
    "COUNTRY",
    "ZIP",
    "LOCATION-OTHER",
    "AGE",
    "DATE",
    "PHONE",
    "FAX",
    "EMAIL",
    "URL",
    "IPADDR",
    "SSN",
    "MEDICALRECORD",
    "HEALTHPLAN",
    "ACCOUNT",
    "LICENSE",
    "VEHICLE",
    "DEVICE",
    "BIOID",
    "IDNUM",
}
I2B2_2006_LABELS = {"PATIENT", "DOCTOR", "LOCATION", "HOSPITAL", "DATE", "ID", "PHONE", "AGE"}


def test_builtin_mappings_map_onto_canonical_tags() -> None:
    assert {"meddocan", "sepr"} <= set(builtin_mappings())
    for name in builtin_mappings():
        mapping = label_mapping(name)
        assert mapping and set(mapping.values()) <= set(CANONICAL_TAGS), name
    assert set(label_mapping("sepr")) == SEPR_LABELS
    assert len(label_mapping("meddocan")) == 29  # every label of the MEDDOCAN guidelines
    assert set(label_mapping("i2b2_2014")) == I2B2_2014_LABELS
    assert set(label_mapping("i2b2_2006")) == I2B2_2006_LABELS


def test_the_i2b2_mappings() -> None:
    new, old = label_mapping("i2b2_2014"), label_mapping("i2b2_2006")
    assert {k: v for k, v in new.items() if k in old} == {k: v for k, v in old.items() if k in new}  # they agree
    assert {k for k, v in new.items() if v == "Name"} == {"PATIENT", "DOCTOR"}
    assert {k for k, v in new.items() if v == "Address"} == {
        "STREET",
        "CITY",
        "STATE",
        "COUNTRY",
        "ZIP",
        "LOCATION-OTHER",
    }
    assert {k for k, v in new.items() if v == "Internal_Location"} == {"ROOM", "DEPARTMENT"}
    assert {k for k, v in new.items() if v == "Phone_fax"} == {"PHONE", "FAX"}
    assert {k for k, v in new.items() if v == "URL_IP"} == {"URL", "IPADDR"}
    assert {k for k, v in new.items() if v == "ID"} == {
        "USERNAME",
        "MEDICALRECORD",
        "HEALTHPLAN",
        "ACCOUNT",
        "LICENSE",
        "VEHICLE",
        "DEVICE",
        "BIOID",
        "IDNUM",
    }
    assert (new["SSN"], new["HOSPITAL"], new["ORGANIZATION"], new["PROFESSION"]) == (
        "SSN",
        "Hospital",
        "Organization_Company",
        "Profession",
    )
    assert (old["LOCATION"], old["ID"]) == ("Address", "ID")
    tagset = TagSet(CANONICAL_TAGS, label_mapping("i2b2_2014"))
    assert tagset.map("LOCATION-OTHER") == "Address" and tagset.map("Date") == "Date"


def test_label_mapping_accepts_a_mapping_a_name_or_nothing() -> None:
    assert label_mapping(None) == label_mapping({}) == {}
    assert label_mapping({"PER": "Name"}) == {"PER": "Name"}
    assert label_mapping("meddocan")["NOMBRE_PERSONAL_SANITARIO"] == "Name"
    with pytest.raises(
        InputError, match="(?s)no built-in tag mapping 'medocan'.*one of i2b2_2006, i2b2_2014, meddocan, sepr"
    ):
        label_mapping("medocan")
    assert label_mapping(["meddocan"]) == label_mapping("meddocan")  # a list of one layer
    with pytest.raises(InputError, match="tags.mapping must be"):
        label_mapping(["meddocan", 3])
    assert tag_labels("meddocan") == sorted(CANONICAL_TAGS)
    assert "PHI" in tag_labels({"X": "PHI"})


def test_a_tagset_from_a_named_mapping_maps_and_rejects() -> None:
    tagset = TagSet(CANONICAL_TAGS, label_mapping("meddocan"))
    assert tagset.map("SEXO_SUJETO_ASISTENCIA") == "Other" and tagset.map("Name") == "Name"
    with pytest.raises(InputError, match="unknown label 'NOPE'"):
        tagset.map("NOPE")


def test_the_mappings_ship_with_the_package() -> None:
    data = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["package-data"]
    assert "tag_mappings/*.yaml" in data["synthdeid.corpus"]
    assert MAPPINGS_DIR == ROOT / "core" / "corpus" / "tag_mappings"


@pytest.mark.skipif(not MEDDOCAN.is_dir(), reason="MEDDOCAN is not in ../shared/data/meddocan")
def test_every_meddocan_label_in_train_and_dev_is_mapped() -> None:
    labels = set()
    for split in ("train", "dev"):
        for ann in (MEDDOCAN / split).glob("*.ann"):
            labels |= set(re.findall(r"^T\d+\t(\S+) ", ann.read_text(encoding="utf-8"), re.MULTILINE))
    assert len(labels) == 22
    assert labels <= set(label_mapping("meddocan"))


# -- a separate test set ------------------------------------------------------------------------


def _docs(prefix: str, n: int, texts: list[str] | None = None) -> list[Document]:
    texts = texts or [f"{prefix} note {i} by Jan." for i in range(n)]
    return [
        Document.create(f"{prefix}{i}", t, [Span(t.index("Jan"), t.index("Jan") + 3, "Name")])
        for i, t in enumerate(texts)
    ]


def test_the_test_set_is_the_test_split_and_copies_of_it_leave_the_corpus() -> None:
    corpus = _docs("c", 20) + _docs("dup", 1, ["t note 3 by Jan."]) + _docs("again", 1, ["c note 0 by  Jan."])
    test = _docs("t", 6)
    counts = Counts("prepare")
    counts.took(len(corpus) + len(test))
    parts = prepare_splits(corpus, test, [0.9, 0.1, 0.0], 0, counts)
    assert [d.id for d in parts["test"]] == [d.id for d in sorted(test, key=lambda d: d.id)]
    assert (len(parts["train"]), len(parts["dev"])) == (18, 2)
    for name in ("train", "dev"):
        assert not {d.id for d in parts[name]} & {"dup0", "again0"}
    counts.kept(sum(len(p) for p in parts.values()))
    metrics = counts.as_dict()
    assert metrics["documents_in"] == metrics["documents_out"] + metrics["documents_rejected"] == 28
    assert metrics["rejected_reasons"] == {
        "duplicate text of a test-set document": 1,
        "duplicate text of an earlier document": 1,
    }


def test_a_test_share_next_to_a_test_set_is_an_error() -> None:
    with pytest.raises(InputError, match="test share to 0"):
        prepare_splits(_docs("c", 10), _docs("t", 2), [0.8, 0.1, 0.1], 0, Counts("prepare"))
    parts = prepare_splits(_docs("c", 10), [], [0.8, 0.1, 0.1], 0, Counts("prepare"))
    assert [len(parts[k]) for k in ("train", "dev", "test")] == [8, 1, 1]


@pytest.mark.parametrize("n", range(5, 40))
def test_no_test_share_leaves_the_test_split_empty(n: int) -> None:
    parts = split_documents(_docs("c", n), [0.9, 0.1, 0.0], 3)
    assert parts["test"] == [] and len(parts["train"]) + len(parts["dev"]) == n


def test_a_small_dev_split_is_raised_to_the_minimum_from_train() -> None:
    docs = _docs("c", 50)
    plain = split_documents(docs, [0.9, 0.1, 0.0], 0)
    raised = split_documents(docs, [0.9, 0.1, 0.0], 0, min_dev=10)
    assert (len(plain["train"]), len(plain["dev"])) == (45, 5)
    assert (len(raised["train"]), len(raised["dev"])) == (40, 10)
    assert {d.id for d in plain["dev"]} < {d.id for d in raised["dev"]}  # the same five, and five of train
    assert {d.id for d in raised["train"]} < {d.id for d in plain["train"]}
    assert split_documents(_docs("c", 200), [0.8, 0.1, 0.1], 0, min_dev=10) == split_documents(
        _docs("c", 200), [0.8, 0.1, 0.1], 0
    )  # 20 dev notes already: as it was
    assert split_documents(docs, [1.0, 0.0, 0.0], 0, min_dev=10)["dev"] == []  # no dev share: none asked


def test_a_corpus_too_small_for_the_minimum_dev_split_is_refused_with_the_fix() -> None:
    with pytest.raises(InputError, match="min_dev_notes = 10") as e:
        prepare_splits(_docs("c", 19), [], [0.8, 0.1, 0.1], 0, Counts("prepare"), min_dev=10)
    assert e.value.fix and "lower prepare.min_dev_notes" in e.value.fix
    parts = prepare_splits(_docs("c", 21), [], [0.9, 0.1, 0.0], 0, Counts("prepare"), min_dev=10)
    assert (len(parts["train"]), len(parts["dev"])) == (11, 10)


# -- the MEDDOCAN preset ------------------------------------------------------------------------


def test_meddocan_preset_switches_to_the_spanish_corpus_and_back(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    shutil.copytree(ROOT / "presets", tmp_path / "presets")
    shutil.copy(ROOT / "params.yaml", tmp_path / "params.yaml")
    monkeypatch.chdir(tmp_path)
    before = yaml.safe_load(Path("params.yaml").read_text())
    apply_preset("meddocan")
    p = yaml.safe_load(Path("params.yaml").read_text())
    assert p["corpus"] | {"demo": None} == {
        "source": "files",
        "path": "../shared/data/meddocan/train",
        "format": "brat",
        "test_path": "../shared/data/meddocan/dev",
        "on_invalid": "fail",
        "format_options": {},
        "demo": None,
    }
    assert (p["language"], p["tags"]["mapping"], p["prepare"]["split"]) == ("es", "meddocan", [0.9, 0.1, 0.0])
    assert p["utility"]["rule_baseline"] is None
    assert set(p["utility"]["synthetic"]) | set(p["utility"]["augmented"]) <= set(p["corpora"]) | set(
        p["machine_annotated"]
    )
    assert (ROOT / p["corpus"]["path"]).resolve() == (ROOT.parent / "shared/data/meddocan/train").resolve()
    apply_preset("demo")
    assert yaml.safe_load(Path("params.yaml").read_text()) == before
    assert (
        load_preset("meddocan", ROOT)["generators"]["lstm"]["config"]
        == load_preset("meddocan", ROOT)["generators"]["lstm_raw"]["config"]
    )


def test_without_a_mapping_the_language_packs_own_map_applies() -> None:
    from synthdeid.spec import validate
    from synthdeid.spec.build import tagset

    def tagset_from_params(params: dict) -> TagSet:
        return tagset(validate(params))

    params = {"language": "es", "tags": {"mapping": {}, "keep_unmapped": False}}
    assert tagset_from_params(params).map("NOMBRE_SUJETO_ASISTENCIA") == "Name"  # es knows MEDDOCAN's labels
    params["language"] = "en"
    assert tagset_from_params(params).map("MEDICALRECORD") == "ID"  # en knows i2b2's
    params["tags"]["mapping"] = {"MRN": "ID"}  # a mapping in params replaces the pack's
    assert tagset_from_params(params).map("MRN") == "ID"
    with pytest.raises(InputError, match="MEDICALRECORD"):
        tagset_from_params(params).map("MEDICALRECORD")
    params = {"language": "nl", "tags": {"mapping": {}, "keep_unmapped": False}}
    with pytest.raises(InputError, match="NOMBRE_SUJETO_ASISTENCIA"):
        tagset_from_params(params).map("NOMBRE_SUJETO_ASISTENCIA")


def test_a_list_extends_a_built_in_mapping_later_entries_winning() -> None:
    from synthdeid.corpus.tags import builtin_mapping, label_mapping

    layered = label_mapping(["sepr", {"Telefon": "Phone_fax", "Location": "Other"}])
    assert layered == {**builtin_mapping("sepr"), "Telefon": "Phone_fax", "Location": "Other"}
    assert builtin_mapping("sepr")["Location"] == "Address"  # the shipped one is untouched
