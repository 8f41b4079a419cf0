"""The system headers the profiles' recipes need: setup.sh installs their packages, and a mine without one stops
with one line that says which header, which package and how to install it."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from miner import cli
from miner.source import requirements
from miner.source.profile import available_profiles, load_profile
from tests.conftest import REPO, TINYBLAS


def _declared_packages() -> set[str]:
    return {h.package for name in available_profiles() for h in load_profile(name).system_headers}


def test_setup_installs_the_package_of_every_header_the_profiles_declare():
    script = (REPO / "setup.sh").read_text()
    function = script[
        script.index("profile_packages() {") : script.index("\n}\n", script.index("profile_packages() {")) + 3
    ]
    listed = subprocess.run(
        ["bash", "-c", f"{function}\nprofile_packages"], cwd=REPO, capture_output=True, text=True, check=True
    ).stdout.split()
    assert set(listed) == _declared_packages()
    assert {"hipcc", "libfmt-dev", "librocprim-dev", "librocsparse-dev"} <= set(listed)


def test_every_header_the_profiles_declare_is_installed_on_this_machine():
    """Run after ./setup.sh (CI does): a header missing here is one a new user's machine lacks too."""
    missing = requirements.missing_headers([load_profile(name) for name in available_profiles()])
    assert not missing, requirements.install_command(missing)


def test_rocsolver_declares_the_headers_its_sources_include():
    headers = {h.header for h in load_profile("rocsolver").system_headers}
    assert {"fmt/core.h", "rocprim/rocprim.hpp", "rocsparse/rocsparse.h", "hip/hip_runtime.h"} <= headers


def test_a_missing_system_header_stops_the_mine_with_one_line(tmp_path: Path, monkeypatch, capsys):
    monkeypatch.setattr(requirements, "SYSTEM_INCLUDE_DIRS", (tmp_path / "empty",))
    out = tmp_path / "out"
    rc = cli.main(["mine", str(TINYBLAS), "--out", str(out), "--cache", str(tmp_path / "cache")])
    err = capsys.readouterr().err
    assert rc == 2
    assert len(err.strip().splitlines()) == 1
    for part in ("hip/hip_runtime.h", "Debian package hipcc", "apt-get install hipcc", "--allow-missing-headers"):
        assert part in err
    assert not (out / "bundles.jsonl").exists() and not (tmp_path / "cache" / "parse").exists()


def test_allow_missing_headers_mines_all_the_same(tmp_path: Path, monkeypatch, capsys, cache_dir):
    monkeypatch.setattr(requirements, "SYSTEM_INCLUDE_DIRS", (tmp_path / "empty",))
    out = tmp_path / "out"
    rc = cli.main(["mine", str(TINYBLAS), "--out", str(out), "--cache", str(cache_dir), "--allow-missing-headers"])
    assert rc == 0, capsys.readouterr().err
    assert (out / "bundles.jsonl").stat().st_size > 0


@pytest.mark.parametrize("count", [1, 3])
def test_the_message_names_the_first_header_and_installs_every_package(count):
    needs = [requirements.SystemHeader(f"lib{i}/h.h", f"libpkg{i}-dev") for i in range(count)]
    message = requirements.missing_message("lib", needs)
    assert "lib0/h.h" in message and "libpkg0-dev" in message
    assert f"apt-get install {' '.join(f'libpkg{i}-dev' for i in range(count))}" in message
    assert ("2 more" in message) == (count == 3)
