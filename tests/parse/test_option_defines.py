"""Defines a checkout's build options give by default (rocSOLVER's BUILD_WITH_SPARSE -> HAVE_ROCSPARSE): on for a
release whose CMakeLists.txt defaults the option ON, off for develop's variable default."""

from __future__ import annotations

import dataclasses

import pytest

from miner.parse.recipe import option_defines
from miner.source.profile import OptionDefine, load_profile


@pytest.mark.parametrize(
    ("cmake", "defined"),
    [
        ('option(BUILD_WITH_SPARSE "Build rocSOLVER sparse re-factorization and solvers" ON)', True),
        ('option( BUILD_WITH_SPARSE  "Build with rocsparse" "ON" )', True),
        (
            'option(BUILD_WITH_SPARSE "Build with rocsparse available at build time" "${BUILD_WITH_SPARSE_DEFAULT}")',
            False,
        ),
        ('option(BUILD_WITH_SPARSE "Build with rocsparse" OFF)', False),
        ('option(BUILD_WITH_SPARSE_EXTRA "x" ON)', False),
        ("", False),
    ],
)
def test_an_option_defaulting_on_gives_its_defines(tmp_path, cmake, defined):
    (tmp_path / "CMakeLists.txt").write_text(f"project(x)\n{cmake}\n")
    profile = dataclasses.replace(
        load_profile("tinyblas"), option_defines=(OptionDefine("BUILD_WITH_SPARSE", "CMakeLists.txt", ("HAVE_X",)),)
    )
    assert option_defines(tmp_path, profile) == (("HAVE_X",) if defined else ())


def test_a_checkout_without_the_file_gets_none(tmp_path):
    assert option_defines(tmp_path, load_profile("rocsolver")) == ()
    assert load_profile("rocsolver").option_defines[0].defines == ("HAVE_ROCSPARSE",)
