"""Patterns the round-17 and round-18 audits of the real libraries found answered wrong or incompletely, each in a
few lines we wrote: returns and branches of the callers on the way to a launcher, a branch inside a launch macro, a
kernel's own alpha/beta tests, barriers around global stores nobody reads, one thread's diagonal access, a pointer
that may point into LDS, blocks that wait on each other, where a reduction's per-thread stage lives, what is a
wavefront slot, and a helper's result that is no position."""

from __future__ import annotations

from miner.models import Bundle, CallEdge, LaunchSite, Provenance
from miner.qa.context import live_kernels
from miner.qa.facts import kernel_facts
from miner.qa.grounding import check_item
from miner.qa.offline import OfflineGenerator
from tests.qa.test_grounding import _region

API = """rocblas_status lib_sgemm(rocblas_handle handle, int m, int n, int k, float alpha, float* C)
{
    if(!handle)
        return rocblas_status_invalid_handle;
    rocblas_status status = check(handle);
    if(status != rocblas_status_success)
        return status;
    return gemm_template(handle, m, n, k, alpha, C);
}"""  # lines 1-9

TEMPLATE = """template <typename T>
rocblas_status gemm_template(rocblas_handle handle, int m, int n, int k, T alpha, T* C)
{
    if(alpha == T(0))
        k = 0;
    if(k == 0)
    {
        return scale_only(handle, m, n, C);
    }
    return launch_gemm(handle, m, n, k, alpha, C);
}"""  # lines 30-40

LAUNCHER = """template <typename T>
rocblas_status launch_gemm(rocblas_handle handle, int m, int n, int k, T alpha, T* C)
{
    if(m == 0 || n == 0)
        return rocblas_status_success;
    hipLaunchKernelGGL((gemm_kernel<T>), dim3(m, n), dim3(64), 0, 0, m, n, k, alpha, alpha, C, C);
    return rocblas_status_success;
}"""  # lines 50-57

KERNEL = """template <typename T>
__global__ void gemm_kernel(int m, int n, int k, T alpha, T beta, T* C, T* D)
{
    __shared__ T tile[64];
    int tx = threadIdx.x;
    int row = blockIdx.x * 64 + threadIdx.x;
    if(beta == 1)
        return;
    C[row] = beta != 0 ? beta * C[row] : 0;
    __syncthreads();
    tile[tx] = C[row];
    __syncthreads();
    D[row] = tile[63 - tx];
    for(int i = 0; i < 64; ++i)
    {
        if(tx == i)
            D[tx * m + tx * k] = alpha;
    }
}"""  # lines 70-87


def _context(
    kernel_code: str = KERNEL,
    template: str = TEMPLATE,
    launcher: str = LAUNCHER,
    launch_line: int = 55,
    grid: str = "dim3(m, n)",
    block: str = "dim3(64)",
    helpers: tuple[tuple[str, str, int], ...] = (),
):
    api = _region("api", "lib_sgemm", API, 1)
    template = _region("template", "gemm_template", template, 30)
    launcher = _region("launcher", "launch_gemm", launcher, 50)
    kernel = _region("kernel", "gemm_kernel", kernel_code, 70)
    site = LaunchSite(
        launcher=launcher.id,
        kernel=kernel.id,
        file="src/scale.hpp",
        line=launch_line,
        via="hipLaunchKernelGGL",
        kernel_expr="gemm_kernel<T>",
        grid=grid,
        block=block,
        shared_mem="0",
        stream="0",
    )
    edges = [
        CallEdge(caller=api.id, callee=template.id, kind="call", resolution="clang", line=8),
        CallEdge(
            caller=template.id,
            callee=launcher.id,
            kind="call",
            resolution="clang",
            line=30 + next(i for i, text in enumerate(template.code.split("\n")) if "launch_gemm(" in text),
        ),
        CallEdge(caller=launcher.id, callee=kernel.id, kind="launch", resolution="clang", line=launch_line),
    ]
    helper_regions = [_region("device_helper", name, code, start) for name, code, start in helpers]
    edges += [
        CallEdge(caller=kernel.id, callee=h.id, kind="call", resolution="overload-set", line=78) for h in helper_regions
    ]
    provenance = Provenance(
        library="lib", repo_url="", commit="", tag="", dirty=False, tool_version="", config_hash="", file_hashes={}
    )
    bundle = Bundle(
        id="lib_gemm",
        library="lib",
        family="lib_gemm",
        entries=["lib_sscal"],
        regions=[api, template, launcher, kernel, *helper_regions],
        call_paths=[[api.id, template.id, launcher.id, kernel.id]],
        edges=edges,
        launch_sites=[site],
        boundaries=[],
        exclusions=[],
        provenance=provenance,
        sha256="c" * 64,
    )
    (context,) = live_kernels(bundle)
    return context


def _item(kind: str, kernel_code: str = KERNEL):
    context = _context(kernel_code)
    items = [i for i in OfflineGenerator(context, kernel_facts(context)).items() if i.kind == kind]
    assert len(items) == 1, [i.kind for i in OfflineGenerator(context, kernel_facts(context)).items()]
    assert check_item(items[0], context).grounded, check_item(items[0], context).findings
    return items[0].answer


def test_a_launch_names_the_returns_of_the_callers_on_the_way_and_what_sets_a_tested_variable() -> None:
    answer = _item("launch")
    assert "It is reached only past the early return `if(m == 0 || n == 0) return rocblas_status_success;`" in answer
    callers = answer.partition("its callers return first on ")[2]
    assert (
        "`if(k == 0) { return scale_only(handle, m, n, C); }` in `gemm_template` (lines 35-38), after "
        "`if(alpha == T(0)) k = 0;` (lines 33-34)"
    ) in callers
    assert "`if(!handle) return rocblas_status_invalid_handle;` in `lib_sgemm` (lines 3-4)" in callers
    assert callers.index("lib_sgemm") < callers.index("gemm_template")  # in the order a call passes them
    assert "`if(status != rocblas_status_success) return status;` in `lib_sgemm` (lines 6-7)" in callers


def test_quick_returns_cover_the_callers_on_the_way() -> None:
    answer = _item("quick_returns")
    assert "`if(m == 0 || n == 0) return rocblas_status_success;` in `launch_gemm`" in answer
    assert "`if(k == 0) { return scale_only(handle, m, n, C); }` in `gemm_template`" in answer


def test_a_kernels_own_alpha_and_beta_tests_are_scalar_shortcuts() -> None:
    answer = _item("scalar_shortcuts")
    assert "`if(beta == 1) return;` in `gemm_kernel` (lines 76-77)" in answer
    assert "`C[row] = beta != 0 ? beta * C[row] : 0;` in `gemm_kernel` (line 78)" in answer
    assert "`if(alpha == T(0)) k = 0;` in `gemm_template`" in answer


def test_a_barrier_publishes_only_global_stores_that_are_read_after_it() -> None:
    answer = _item("barriers")
    assert "global-memory stores before it, `C[row] = beta != 0 ? beta * C[row] : 0;` (line 78)" in answer
    unread = """template <typename T>
__global__ void gemm_kernel(int m, int n, int k, T alpha, T beta, T* C, T* D)
{
    __shared__ T tile[64];
    int tx = threadIdx.x;
    D[tx] = alpha;
    tile[tx] = C[tx];
    __syncthreads();
    C[tx] = tile[63 - tx];
}"""
    answer = _item("barriers", unread)
    assert "`tile[tx] = C[tx];` (line 76)" in answer
    assert "global-memory" not in answer  # no thread reads ``D`` after the barrier: nothing to publish


def test_coalescing_leaves_out_one_lanes_access_and_reads_stores() -> None:
    answer = _item("coalescing")
    assert "`C[row]` (line 78)" in answer and "`D[row]` (line 82)" in answer
    assert "tx * m + tx * k" not in answer  # made by the lane with ``tx == i`` only, and scaled twice


def test_coalescing_leaves_out_a_pointer_that_may_point_into_lds() -> None:
    kernel = KERNEL.replace(
        "    D[row] = tile[63 - tx];", "    T* src = C;\n    if(m > 64)\n        src = tile;\n    D[row] = src[row];"
    )
    assert kernel != KERNEL
    answer = _item("coalescing", kernel)
    assert "`D[row]`" in answer and "src[row]" not in answer


TREE_KERNEL = """template <typename T>
__global__ void gemm_kernel(int m, int n, int k, T alpha, T beta, T* C, T* D)
{
    __shared__ T tile[64];
    int tx = threadIdx.x;
    T sum = 0;
    for(int i = tx; i < m; i += 64)
        sum += C[i];
    tile[tx] = sum;
    __syncthreads();
    for(int s = 32; s > 0; s /= 2)
    {
        if(tx < s)
            tile[tx] += tile[tx + s];
        __syncthreads();
    }
    if(tx == 0)
        D[blockIdx.x] = tile[0];
}"""


def test_a_reduction_tree_is_described_and_blocks_waiting_on_each_other_are_not() -> None:
    answer = _item("reduction_hierarchy", TREE_KERNEL)
    assert "per thread, accumulating partial results in the loop `for(int i = tx; i < m; i += 64)`" in answer
    assert "halving in `for(int s = 32; s > 0; s /= 2)`" in answer
    waiting = TREE_KERNEL.replace(
        "    if(tx == 0)\n", "    while(D[m] < n)\n        __threadfence();\n    if(tx == 0)\n"
    )
    assert waiting != TREE_KERNEL
    context = _context(waiting)
    kinds = [i.kind for i in OfflineGenerator(context, kernel_facts(context)).items()]
    assert "reduction_hierarchy" not in kinds and "barriers" in kinds


def test_a_launch_that_cannot_name_every_template_argument_belongs_to_another_overload() -> None:
    overload = KERNEL.replace("template <typename T>", "template <typename T, typename S, bool REAL>")
    assert overload != KERNEL
    context = _context(overload)  # launched as ``gemm_kernel<T>``: ``REAL`` cannot be deduced, so not this one
    kinds = [i.kind for i in OfflineGenerator(context, kernel_facts(context)).items()]
    assert "launch" not in kinds and "signature" in kinds
    commented = KERNEL.replace(
        "template <typename T>", "template <typename T, // the element type\n          int NB = 64>"
    )
    context = _context(commented)
    answer = [i for i in OfflineGenerator(context, kernel_facts(context)).items() if i.kind == "signature"][0].answer
    assert "the element type" not in answer and "`typename T`" in answer
    assert "launch" in [i.kind for i in OfflineGenerator(context, kernel_facts(context)).items()]


def test_a_tile_column_is_no_wavefront_slot_and_lds_tiles_alone_are_no_reduction() -> None:
    tiles = """template <typename T>
__global__ void gemm_kernel(int m, int n, int k, T alpha, T beta, T* C, T* D)
{
    __shared__ T tile[64];
    int tx = threadIdx.x;
    int c = tx / n;
    T sum = 0;
    for(int i = tx; i < m; i += 64)
        sum += C[i];
    tile[c] = sum;
    __syncthreads();
    D[tx] = tile[63 - c];
}"""
    context = _context(tiles)
    assert "reduction_hierarchy" not in [i.kind for i in OfflineGenerator(context, kernel_facts(context)).items()]
    waves = tiles.replace("tx / n", "tx / warpSize").replace("D[tx] = tile[63 - c];", "D[tx] = tile[0] + tile[1];")
    answer = _item("reduction_hierarchy", waves)
    assert "one slot per wavefront, `c = tx / warpSize`" in answer


def test_a_value_computed_by_a_helper_is_no_position() -> None:
    kernel = """template <typename T>
__global__ void gemm_kernel(int m, int n, int k, T alpha, T beta, T* C, T* D)
{
    int bid = blockIdx.x;
    T* A = C + bid * m;
    T smin = estimate(m, A);
    if(smin >= 0)
        D[bid] = smin;
}"""
    facts = kernel_facts(_context(kernel))
    assert [m.variable for m in facts.thread_mapping] == ["bid", "A"]
    assert facts.boundary_checks == []


def test_a_launch_names_the_branches_its_callers_call_it_in() -> None:
    template = TEMPLATE.replace(
        "    return launch_gemm(handle, m, n, k, alpha, C);",
        "    if(m > 64)\n        return launch_gemm(handle, m, n, k, alpha, C);",
    )
    assert template != TEMPLATE
    context = _context(template=template)
    answer = [i for i in OfflineGenerator(context, kernel_facts(context)).items() if i.kind == "launch"][0].answer
    assert "`gemm_template` calls `launch_gemm` (line 40) only when `if(m > 64)` holds (line 39)" in answer


def test_a_launch_inside_a_macro_names_the_macros_branch() -> None:
    launcher = """template <typename T>
rocblas_status launch_gemm(rocblas_handle handle, int m, int n, int k, T alpha, T* C)
{
    bool pivot = m > n;
#define RUN(DIM)                                                                 \\
    if(pivot)                                                                    \\
        hipLaunchKernelGGL((other_kernel<T>), dim3(m), dim3(DIM), 0, 0, m, C);   \\
    else                                                                         \\
        hipLaunchKernelGGL((gemm_kernel<T>), dim3(m), dim3(DIM), 0, 0, m, n, k, alpha, alpha, C, C);
    RUN(64);
}"""
    context = _context(launcher=launcher, launch_line=59, grid="", block="")
    answer = [i for i in OfflineGenerator(context, kernel_facts(context)).items() if i.kind == "launch"][0].answer
    assert "from the expansion of `RUN(64);` (line 59)" in answer
    assert "inside the macro when `if(pivot)` does not hold (line 55)" in answer


def test_an_implementation_sample_shows_every_overload_of_a_helper_it_shows() -> None:
    kernel = KERNEL.replace("    C[row] = beta != 0 ? beta * C[row] : 0;", "    C[row] = scale(beta, C + row);")
    assert kernel != KERNEL
    helpers = (
        (
            "scale",
            "template <typename T>\n__device__ T scale(T beta, T* c)\n{\n    return beta ? beta * *c : 0;\n}",
            100,
        ),
        ("scale", "template <typename T>\n__device__ T scale(T beta, T** c)\n{\n    return beta * **c;\n}", 110),
    )
    context = _context(kernel, helpers=helpers)
    sample = OfflineGenerator(context, kernel_facts(context)).implementation()
    assert sample is not None
    assert "Its math sits in `scale` and `scale`, written out below too." in sample.question
    assert "beta * **c" in sample.answer  # the overload without a branch of its own, shown beside the other


def test_a_serial_combine_of_lds_partials_after_a_barrier_is_the_block_stage() -> None:
    serial = TREE_KERNEL.replace(
        TREE_KERNEL[TREE_KERNEL.index("    for(int s = 32") :],
        "    if(tx == 0)\n    {\n        for(int i = 1; i < 64; i++)\n            sum += tile[i];\n"
        "        D[blockIdx.x] = sum;\n    }\n}",
    )
    answer = _item("reduction_hierarchy", serial)
    assert "per thread, accumulating partial results in the loop `for(int i = tx; i < m; i += 64)`" in answer
    assert (
        "across the block, after a barrier, the threads for which `if(tx == 0)` holds (line 80) add up the LDS "
        "partials in `for(int i = 1; i < 64; i++)` (lines 82-83)"
    ) in answer
