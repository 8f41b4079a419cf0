"""Near-duplicates are looked for within a scope: QA items about one kernel family (across libraries and releases),
so a template filled with a sibling kernel's facts is not a duplicate of it, while a re-worded item is."""

from __future__ import annotations

import re

from miner.corpus.dedup import DedupOptions, deduplicate
from miner.models import CorpusRow

ANSWER = (
    "`rocblas_internal_symv_launcher` launches `{k}` through `ROCBLAS_LAUNCH_KERNEL` with grid `grid`, block "
    "`threads`, dynamic shared memory `0` and stream `handle->get_stream()` (lines 301-309), on the path where "
    "`uplo == rocblas_fill_upper` holds (line 266) and `is_atomics_allowed` holds (line 270). The grid is "
    "`dim3 grid(blocks, 1, batch_count)` (line 281) with `blocks = (n - 1) / DIM_X + 1` (line 279), the block "
    "`dim3 threads(DIM_X, DIM_Y)` (line 282) with `DIM_X = 64` and `DIM_Y = 16` (lines 275-276)."
)
QUESTION = "How does `rocblas_internal_symv_launcher` launch `{k}` in `library/src/blas2/symv.cpp` (line 40)?"


def _qa(n: int, kernel: str, question: str, home: str = "rocblas") -> CorpusRow:
    return CorpusRow.model_construct(
        id=f"q{n}", source="qa", kernel=kernel, families=[f"kernel:{home}:{kernel}"],
        question=question.format(k=kernel), answer=ANSWER.format(k=kernel),
    )  # fmt: skip


def test_a_template_filled_for_a_sibling_kernel_is_kept_and_a_reworded_item_dropped() -> None:
    rows = [
        _qa(0, "symv_kernel_upper", QUESTION),
        _qa(1, "symv_kernel_lower", QUESTION),  # another kernel: kept
        _qa(2, "symv_kernel_upper", QUESTION.replace("How does", "How do")),  # re-worded: dropped
    ]
    result = deduplicate(rows, {r.id: i for i, r in enumerate(rows)}, DedupOptions())
    assert result.duplicate_of == {"q2": "q0"}
    assert result.cluster_sizes == {"qa": {2: 1}}


def test_an_item_whose_cited_lines_moved_in_the_next_release_is_a_duplicate() -> None:
    moved = _qa(1, "symv_kernel_upper", QUESTION)
    moved = moved.model_copy(
        update={
            "question": re.sub(r"\d+", lambda m: str(int(m.group()) + 17), moved.question),
            "answer": re.sub(r"line(s?) (\d+)", lambda m: f"line{m.group(1)} {int(m.group(2)) + 17}", moved.answer),
        }
    )
    rows = [_qa(0, "symv_kernel_upper", QUESTION), moved]
    assert deduplicate(rows, {"q0": 0, "q1": 1}, DedupOptions()).duplicate_of == {"q1": "q0"}
