"""System headers a library's parse recipe needs (fmt, rocPRIM, rocSPARSE for rocSOLVER), checked before
any TU is parsed: a missing one makes clang stop at the include in every TU that reads it."""

from __future__ import annotations

import sysconfig
from pathlib import Path

from miner.source.profile import Profile, SystemHeader

# where clang looks for <...> headers on Debian, after the recipe's own -I directories
_MULTIARCH = sysconfig.get_config_var("MULTIARCH")
SYSTEM_INCLUDE_DIRS: tuple[Path, ...] = tuple(
    Path(d) for d in ("/usr/local/include", f"/usr/include/{_MULTIARCH}" if _MULTIARCH else "", "/usr/include") if d
)


def find_header(header: str) -> Path | None:
    """Where clang finds ``<header>`` among the system include directories, if anywhere."""
    return next((d / header for d in SYSTEM_INCLUDE_DIRS if (d / header).is_file()), None)


def missing_headers(profiles: list[Profile]) -> list[SystemHeader]:
    """The profiles' system headers found in none of the system include directories."""
    seen: dict[str, SystemHeader] = {}
    for profile in profiles:
        for need in profile.system_headers:
            if need.header not in seen and find_header(need.header) is None:
                seen[need.header] = need
    return list(seen.values())


def install_command(missing: list[SystemHeader]) -> str:
    packages = sorted({m.package for m in missing})
    return f"sudo apt-get install {' '.join(packages)}"


def missing_message(library: str, missing: list[SystemHeader]) -> str:
    """One line: the first missing header and its package, how many more, and the command that installs them all."""
    first, more = missing[0], len(missing) - 1
    others = f" and {more} more" if more else ""
    return (
        f"{library} needs the system header {first.header} (Debian package {first.package}){others}, not found in "
        f"{', '.join(str(d) for d in SYSTEM_INCLUDE_DIRS)}: install with `{install_command(missing)}` "
        f"(./setup.sh does), or pass --allow-missing-headers for a degraded run"
    )
