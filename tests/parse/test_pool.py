"""The worker pool: a TU that hangs the parser is killed at its deadline and the rest go on."""

from __future__ import annotations

from miner.models import ParsedTU, ParseFailed
from miner.parse.pool import ParsePool
from miner.parse.worker import ParseJob, WorkerConfig

# Each level doubles the tokens: the preprocessor works on 2**40 tokens, effectively forever.
BOMB = "".join(f"#define A{i + 1} A{i} A{i}\n" for i in range(40)) + "#define A0 x\nint v = sizeof(A40);\n"


def test_hanging_tu_times_out_and_the_next_one_is_parsed(tmp_path):
    (tmp_path / "bomb.cpp").write_text(BOMB)
    (tmp_path / "fine.cpp").write_text("int fine_function(int x) { return x + 1; }\n")
    pool = ParsePool(WorkerConfig(root=str(tmp_path), launch_macros=(), kernel_macros=(), device_macros=()),
                     jobs=1, timeout_s=3)  # fmt: skip
    jobs = [ParseJob("bomb.cpp", ("-x", "c++", "-std=c++17"), "lp64"), ParseJob("fine.cpp", ("-x", "c++"), "lp64")]
    results = {r.path: r for r in pool.run(jobs)}
    assert isinstance(results["bomb.cpp"], ParseFailed) and results["bomb.cpp"].reason == "timeout"
    fine = results["fine.cpp"]
    assert isinstance(fine, ParsedTU) and [f.name for f in fine.functions] == ["fine_function"]
