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


def _profile_with(tmp_path: Path, **fields):
    profile = load_profile("tinyblas")
    return type(profile)(**{**{s: getattr(profile, s) for s in profile.__slots__}, **fields})


def test_functions_exported_from_the_library_files_are_entry_points_and_members_and_macro_bodies_are_not(tmp_path):
    (tmp_path / "inc").mkdir()
    (tmp_path / "inc" / "api.h").write_text("LIB_EXPORT int in_header(int);\n")
    src = tmp_path / "src"
    src.mkdir()
    (src / "extra.cpp").write_text(
        '#include "api.h"\n'
        "#define MAKE(name_) \\\n    LIB_EXPORT int name_(int n) { return n; }\n"
        "struct handle\n{\n    bool LIB_EXPORT member(int size);\n};\n"
        'const char* text = "LIB_EXPORT int in_a_string(int);";\n'
        "// LIB_EXPORT int in_a_comment(int);\n"
        'extern "C" {\n'
        "LIB_EXPORT int\nsource_only(int n)\n{\n    if(n) { return 1; }\n    return 0;\n}\n"
        "LIB_EXPORT int in_header(int n) { return n; }\n"
        "}\n"
        "namespace lib\n{\n"
        "LIB_EXPORT void in_a_namespace();\n"
        "}\n"
    )
    (src / "internal.hpp").write_text('extern "C" LIB_EXPORT void declared_privately();\n')
    profile = _profile_with(
        tmp_path, public_headers=("inc/api.h",), export_macros=("LIB_EXPORT",), sources=("src",), exclude_sources=()
    )
    entries, _ = discover(tmp_path, profile)
    got = [(e.name, e.header, e.exported_in, e.line) for e in entries]
    assert got == [
        ("in_header", "inc/api.h", "", 1),  # the public header's declaration stands
        ("source_only", None, "src/extra.cpp", 11),
        ("in_a_namespace", None, "src/extra.cpp", 21),
        ("declared_privately", None, "src/internal.hpp", 1),
    ]


def test_tinysolver_exports_a_function_no_public_header_declares():
    entries, _ = discover(TINYSOLVER, load_profile("tinysolver"))
    hidden = [(e.name, e.exported_in) for e in entries if e.header is None]
    assert hidden == [("tinysolver_sgetrf_info32", "library/src/lapack/tinysolver_getrf.cpp")]
