"""Static facts about one kernel, read off its verbatim code with tree-sitter and off the bundle's launch sites.

Every fact carries the lines it was read from, so that a question built on it can cite them.
"""

from miner.qa.facts.kernel import kernel_facts
from miner.qa.facts.syntax import THREAD_INDEX

__all__ = ["THREAD_INDEX", "kernel_facts"]
