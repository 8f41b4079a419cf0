"""The deterministic QA generator: every question and answer is built from static facts and cites their lines.

One item per (kernel region, question): a kernel is named with its file and line, and asked about once for
every entry it is live for. Answers state facts in the code's own words (quoted in backticks) and never a
number that is not in the cited lines, so every item passes the grounding check by construction; the run
still checks each one, and counts what fails.
"""

from miner.models import CallFact
from miner.qa.offline.generator import OfflineGenerator
from miner.qa.offline.kinds import CATEGORIES, GENERATOR, KINDS

__all__ = ["CATEGORIES", "GENERATOR", "KINDS", "OfflineGenerator", "CallFact"]
