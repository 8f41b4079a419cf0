"""Every question kind of the static generator, asked of the bundled example library: each answer states the facts
the code holds (read off the fixture by hand), cites the lines they stand on, and passes the grounding check."""

from __future__ import annotations

import pytest

from miner.models import Bundle, QAItem
from miner.qa.context import kernel_contexts
from miner.qa.facts import kernel_facts
from miner.qa.grounding import check_item
from miner.qa.offline import KINDS, OfflineGenerator
from tests.conftest import read_jsonl


@pytest.fixture(scope="module")
def asked(tinyblas) -> dict[tuple[str, str], list[QAItem]]:
    """(kernel name, question kind) -> the items asked, each checked against its kernel context."""
    _, out = tinyblas
    bundles = [Bundle.model_validate(row) for row in read_jsonl(out / "bundles.jsonl")]
    found: dict[tuple[str, str], list[QAItem]] = {}
    for context in kernel_contexts(bundles):
        for item in OfflineGenerator(context, kernel_facts(context)).items():
            grounding = check_item(item, context)
            assert grounding.grounded, (context.kernel.name, item.kind, grounding.findings)
            found.setdefault((context.kernel.name, item.kind), []).append(item)
    return found


def _one(asked, kernel: str, kind: str) -> QAItem:
    (item,) = asked[(kernel, kind)]
    return item


def _lines(item: QAItem) -> set[int]:
    return {line for e in item.evidence for line in range(e.start_line, e.end_line + 1)}


def test_every_question_kind_is_asked_of_some_fixture_kernel(asked) -> None:
    assert {kind for _, kind in asked} == set(KINDS)
    assert len(KINDS) >= 15


def test_signature(asked) -> None:
    answer = _one(asked, "tinyblas_gemvn_kernel", "signature").answer
    assert "templated on `int DIM_X`, `typename T` and `typename Ta`" in answer
    assert "`int64_t incy`" in answer and "`TINYBLAS_KERNEL(DIM_X)`" in answer


def test_helpers_name_the_overload_each_entry_type_selects(asked) -> None:
    item = _one(asked, "tinyblas_gemvn_kernel", "helpers")
    assert "`tb_mul(float a, float b)` (`library/src/include/device_helpers.hpp` line 14) for `tinyblas_sgemv`" in (
        item.answer
    )
    assert "`tb_mul(double a, double b)` (`library/src/include/device_helpers.hpp` line 15) for `tinyblas_dgemv`" in (
        item.answer
    )
    # the mixed real-by-complex overload exists but no gemv type reaches it
    assert "tb_mul(float a, tinyblas_float_complex b)" not in item.answer
    # pointer or value alpha: each entry instantiates the kernel for both (host and device pointer mode), and the
    # liveness walk saw both instantiations call load_scalar, each its own overload: none is pinned to an entry
    assert "(an entry's instantiations of the kernel call more than one of them: the argument's type picks" in (
        item.answer
    )
    assert {14, 15, 99, 105} <= _lines(item)


def test_loops(asked) -> None:
    answer = _one(asked, "tinyblas_dot_finalize_kernel", "loops").answer
    assert answer.index("`for(int i = threadIdx.x; i < n_partials; i += NB)`") < answer.index(
        "`for(int s = NB / 2; s > 0; s /= 2)`"
    )


def test_output_states_each_store_with_its_guard(asked) -> None:
    item = _one(asked, "tinyblas_gemvt_kernel", "output")
    assert "`y[col * incy] = tb_add(tb_mul(alpha, tile[0]), tb_mul(beta, y[col * incy]))` (line 51)" in item.answer
    assert "when `if(threadIdx.x == 0 && col < n)` holds (line 50)" in item.answer


def test_indexing(asked) -> None:
    assert "`row = blockIdx.x * blockDim.x + threadIdx.x` (line 15)" in (
        _one(asked, "tinyblas_gemvn_kernel", "indexing").answer
    )


def test_global_accesses_include_the_helpers(asked) -> None:
    answer = _one(asked, "tinyblas_gemvt_kernel", "global_accesses").answer
    assert "`Acol[r]` (line 39)" in answer and "`x[r * incx]` (line 40)" in answer
    assert "`alpha[batch * stride_alpha]` in `load_scalar`" in answer
    assert "tile[" not in answer  # LDS is not global memory


def test_coalescing_depends_on_the_increment(asked) -> None:
    answer = _one(asked, "tinyblas_gemvn_kernel", "coalescing").answer
    assert "`A[row + col * lda]` (line 20)" in answer and "the access coalesces;" in answer
    assert "`y[row * incy]` (line 21)" in answer and "coalesces only when `incy` is 1" in answer


def test_lds_layout_of_a_helper(asked) -> None:
    answer = _one(asked, "tinyblas_dot_partial_kernel", "lds_layout").answer
    assert "`__shared__ T partial[NB / WF];` in `block_reduce_sum`" in answer
    assert "extents `NB / WF`" in answer and "`partial[wave]`" in answer


def test_two_barriers_in_one_kernel_each_with_what_it_orders(asked) -> None:
    item = _one(asked, "tinyblas_gemvt_kernel", "barriers")
    answer = item.answer
    assert answer.startswith("`tinyblas_gemvt_kernel` has two barrier calls: `__syncthreads` at line 43")
    first, second = answer.split("`__syncthreads` at line 48")
    assert "`tile[threadIdx.x] = acc;` (line 42)" in first
    # the barrier in the tree loop orders each round's writes before the next round's reads
    assert "`tile[0]`" not in first and "in the next round of the loop `for(int s = NB / 2; s > 0; s /= 2)`" in second
    assert {42, 43, 47, 48, 51} <= _lines(item)


def test_communication(asked) -> None:
    assert "`__shfl_down` in `tb_shfl_down`" in _one(asked, "tinyblas_dot_partial_kernel", "communication").answer
    assert _one(asked, "tinyblas_axpy_kernel", "communication").answer.startswith("No:")


def test_reduction_hierarchy_reaches_the_second_kernel(asked) -> None:
    answer = _one(asked, "tinyblas_dot_partial_kernel", "reduction_hierarchy").answer
    assert answer.index("across a wavefront") < answer.index("across the block") < answer.index("across the grid")
    assert "launches `tinyblas_dot_finalize_kernel`" in answer


def test_launch_with_a_block_size_reassigned_under_a_condition(asked) -> None:
    items = asked[("tinyblas_gemvn_kernel", "launch")]
    assert len(items) == 2  # device and host pointer mode
    for item in items:
        assert "with grid `grid`, block `threads`" in item.answer
        assert "`dim3 threads(DIM_X);` (line 74)" in item.answer
        assert "`threads` is reassigned before the launch under `if(m < DIM_X)` (line 75): `threads.x = 64;`" in (
            item.answer
        )
        assert "//" not in item.answer  # the line's comment is not part of the fact
        assert {74, 75, 76, 77} <= _lines(item)


def test_launch_configuration_written_in_a_macro(asked) -> None:
    items = asked[("tinyblas_gemvt_kernel", "launch")]
    assert len(items) == 4
    for item in items:
        assert "whose configuration comes from `GEMVT_KARGS` (lines 88-89)" in item.answer
        assert "grid `dim3(n)`, block `dim3(NB)`" in item.answer
        assert {88, 89} <= _lines(item)


def test_dispatch_gives_every_launch_of_the_launcher_its_condition(asked) -> None:
    answer = _one(asked, "tinyblas_gemvn_kernel", "dispatch").answer
    assert answer.count("`tinyblas_gemvt_kernel` at line") == 4
    assert "`tinyblas_gemvn_kernel` (this kernel) at lines 79-80 when `transA == tinyblas_operation_none` holds" in (
        answer
    )


def test_chunking(asked) -> None:
    answer = _one(asked, "tinyblas_scal_kernel", "chunking").answer
    assert "`for(int64_t b = 0; b < batch_count; b += c_tb_grid_z_chunk)` in `tinyblas_scal_launcher_64`" in answer
    assert "each round doing `int64_t chunk = std::min(batch_count - b, c_tb_grid_z_chunk);` (line 21)" in answer


def test_bounds_checks(asked) -> None:
    answer = _one(asked, "tinyblas_gemvt_kernel", "bounds_checks").answer
    assert "`if(threadIdx.x < s)` (line 46)" in answer and "`if(threadIdx.x == 0 && col < n)` (line 50)" in answer


def test_quick_returns(asked) -> None:
    answer = _one(asked, "tinyblas_axpy_kernel", "quick_returns").answer
    assert "`if(n <= 0) return tinyblas_status_success;`" in answer


def test_negative_increments(asked) -> None:
    answer = _one(asked, "tinyblas_axpy_kernel", "negative_increments").answer
    assert "`const T* xs = x + offset_x - (incx < 0 ? int64_t(incx) * (n - 1) : 0);`" in answer


def test_scalar_shortcuts_are_tests_of_the_value_not_the_type(asked) -> None:
    answer = _one(asked, "tinyblas_saxpy_unit_kernel", "scalar_shortcuts").answer
    assert "`if(!device_mode && *alpha == 0) return tinyblas_status_success;`" in answer
    assert "alpha_type" not in answer  # axpy_ex's datatype check compares types, not alpha


def test_a_model_is_shown_the_same_exact_facts(tinyblas) -> None:
    from miner.qa.prompts import render_facts

    _, out = tinyblas
    bundles = [Bundle.model_validate(row) for row in read_jsonl(out / "bundles.jsonl")]
    (context,) = [c for c in kernel_contexts(bundles) if c.kernel.name == "tinyblas_gemvn_kernel"]
    facts = kernel_facts(context)
    shown = render_facts(context, facts)
    for item in OfflineGenerator(context, facts).items():
        assert item.answer in shown
    assert "`threads` is reassigned before the launch under `if(m < DIM_X)` (line 75)" in shown
    assert (
        "`tb_mul(double a, double b)` (`library/src/include/device_helpers.hpp` line 15) for `tinyblas_dgemv`" in shown
    )


def test_launches_on_the_kernels_own_path_are_not_called_other_branches(tinysolver) -> None:
    """getf2: `reset_info_kernel` runs before the pivot kernel and `getf2_swap_kernel` after it in the same round,
    on one path (rocBLAS's gemv scales y with its own kernel before the transposed kernel adds to it)."""
    _, out = tinysolver
    bundles = [Bundle.model_validate(row) for row in read_jsonl(out / "bundles.jsonl")]
    samples = [
        OfflineGenerator(context, kernel_facts(context)).implementation()
        for context in kernel_contexts(bundles)
        if context.kernel.name == "getf2_pivot_kernel"
    ]
    assert samples and None not in samples
    for sample in samples:
        text = sample.question
        assert (
            "Before it, on a path its conditions do not rule out, the launcher also launches reset_info_kernel" in text
        )
        assert (
            "After it, on a path its conditions do not rule out, the launcher also launches getf2_swap_kernel" in text
        )
        assert "other branches" not in text


def test_a_kernels_helper_overloads_are_those_its_own_instantiations_call(tinysolver) -> None:
    """rocSOLVER's stebz_bisection_kernel: the batched entries' other kernels take the pointer-array load_ptr_batch,
    but this kernel's instantiations only ever call the plain-pointer one. In tinysolver, reset_info_kernel loads
    from one plain array even for getrf_batched, whose getf2 kernels take the pointer-array overload."""
    _, out = tinysolver
    bundles = [Bundle.model_validate(row) for row in read_jsonl(out / "bundles.jsonl")]
    (batched,) = [b for b in bundles if "tinysolver_dgetrf_batched" in b.entries]
    by_name = {r.id: r.name for r in batched.regions}
    ours = [r for r in batched.regions if r.name == "load_ptr_batch" and r.file.endswith("lapack_device_functions.hpp")]
    plain, array = sorted(ours, key=lambda r: r.start_line)
    assert "tinysolver_dgetrf_batched" in plain.live_for  # entry-level: both overloads run for the batched entry
    assert {by_name[k] for k in plain.live_via} == {"reset_info_kernel"}
    assert "reset_info_kernel" not in {by_name[k] for k in array.live_via}
    assert "getf2_swap_kernel" in {by_name[k] for k in array.live_via}
    helpers = {
        context.kernel.name: item.answer
        for context in kernel_contexts(bundles)
        for item in OfflineGenerator(context, kernel_facts(context)).items()
        if item.kind == "helpers" and context.kernel.name in ("reset_info_kernel", "getf2_swap_kernel")
    }
    assert "which is `load_ptr_batch(T* p, tinyblas_int batch" in helpers["reset_info_kernel"]
    assert "T* const* p" not in helpers["reset_info_kernel"]
    swap = helpers["getf2_swap_kernel"]
    assert "not resolved per kernel" not in swap
    pointer_array = swap[swap.index("`load_ptr_batch(T* const* p") :]
    assert "for `tinysolver_dgetrf_batched` and `tinysolver_sgetrf_batched`" in pointer_array
    plain_pointer = swap[swap.index("`load_ptr_batch(T* p") : swap.index("`load_ptr_batch(T* const* p")]
    assert "tinysolver_dgetrf_batched" not in plain_pointer
