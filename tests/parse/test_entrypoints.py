from pathlib import Path

from miner.parse.entrypoints import blank_comments, discover
from miner.source.profile import load_profile
from tests.conftest import TINYBLAS, TINYSOLVER


def test_discover_finds_every_export_including_64_variants(expected):
    entries, unreadable = discover(TINYBLAS, load_profile("tinyblas"))
    names = {e.name for e in entries}
    assert not unreadable
    assert set(expected["tinyblas"]) - {"_meta"} <= names | set(expected["_meta"]["auxiliary_entries"]["tinyblas"])
    assert "tinyblas_sscal_64" in names and "tinyblas_sscal" in names
    assert {e.variant for e in entries if e.name.endswith("_64")} == {"ilp64"}


def test_discover_ignores_commented_out_declarations(tmp_path: Path):
    header = tmp_path / "h.h"
    header.write_text("// LIB_EXPORT int gone(int);\n/* LIB_EXPORT int gone2(int); */\nLIB_EXPORT int\n  kept(int);\n")
    profile = load_profile("tinyblas")
    profile = type(profile)(**{**{s: getattr(profile, s) for s in profile.__slots__}, "public_headers": ("h.h",),
                               "export_macros": ("LIB_EXPORT",)})  # fmt: skip
    entries, _ = discover(tmp_path, profile)
    assert [(e.name, e.line) for e in entries] == [("kept", 3)]


def test_blank_comments_keeps_offsets():
    text = "a /* x\ny */ b // z\nc"
    assert len(blank_comments(text)) == len(text)
    assert blank_comments(text).count("\n") == 2


def test_tinysolver_entries(expected):
    entries, _ = discover(TINYSOLVER, load_profile("tinysolver"))
    assert {e.name for e in entries} >= set(expected["tinysolver"]) - {"_meta"}


def test_a_header_with_bytes_that_are_not_utf8_is_read_and_one_that_cannot_be_read_is_named(tmp_path: Path):
    (tmp_path / "h.h").write_bytes(b"// caf\xe9\nLIB_EXPORT int kept(int);\n")
    (tmp_path / "gone.h").mkdir()
    profile = load_profile("tinyblas")
    profile = type(profile)(**{**{s: getattr(profile, s) for s in profile.__slots__}, "public_headers": ("h.h", "gone.h"),
                               "export_macros": ("LIB_EXPORT",)})  # fmt: skip
    entries, unreadable = discover(tmp_path, profile)
    assert [e.name for e in entries] == ["kept"] and unreadable == ["gone.h"]
