"""One exception hierarchy for rocm-miner.

    MinerError                      every error the CLI turns into one line
    ├── InputError                  the user's input is unusable
    │   ├── NotACheckoutError       the path is missing or is not a library checkout
    │   ├── UnknownLibraryError     no profile for the named library
    │   ├── RevisionError           --rev names nothing in the checkout, or it is not a git repo
    │   └── MissingHeaderError      a system header a profile's recipe needs is not installed
    ├── ProfileError                a profile file in allowlists/ is malformed
    ├── ToolchainError              libclang or its HIP headers cannot be found
    ├── OutputError                 the output directory cannot be written
    ├── ExecutorError               the executor cannot run (Ray missing, no cluster at the address)
    └── CacheError                  a cache entry was damaged after it was checked (it is removed)

Per-file problems (unreadable, parser crash or hang) are never raised: they are values
(`ParseFailed`) counted in the summary, and the run goes on; a file that is not UTF-8 is parsed
all the same and named in the summary.
"""

from __future__ import annotations


class MinerError(Exception):
    """Base class: an error with a one-line message for the user."""

    def __init__(self, message: str, *, path: str | None = None) -> None:
        self.path = path
        super().__init__(f"{path}: {message}" if path else message)


class InputError(MinerError):
    """The user's input is unusable."""


class NotACheckoutError(InputError):
    """The path does not exist or does not look like the named library's checkout."""


class UnknownLibraryError(InputError):
    """No profile exists for the named library."""


class RevisionError(InputError):
    """A revision cannot be checked out (unknown rev, or not a git repository)."""


class MissingHeaderError(InputError):
    """A system header the library's parse recipe needs is not installed (its message names the package)."""


class ProfileError(MinerError):
    """A library profile in allowlists/ is malformed."""


class ToolchainError(MinerError):
    """libclang, the HIP headers or clang's resource directory are missing."""


class OutputError(MinerError):
    """The output directory cannot be created or written."""


class CacheError(MinerError):
    """A cache entry was damaged after it was checked; it has been removed, so a re-run rebuilds it."""


class CacheBusyError(MinerError):
    """The cache cannot be pruned while a mine uses it."""
