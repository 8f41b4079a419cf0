"""Static kernel facts read off the code, each at the lines it came from."""

from __future__ import annotations

from miner.models import Bundle
from miner.qa.context import live_kernels
from miner.qa.facts import kernel_facts
from tests.conftest import read_jsonl
from tests.qa.test_grounding import make_context, scale_context


def test_facts_of_a_simple_kernel() -> None:
    facts = kernel_facts(scale_context())
    assert facts.template_params == ["int NB", "typename T"]
    assert facts.params == ["int n", "T alpha", "T* x", "int incx"]
    assert facts.launch_bounds == "__launch_bounds__(NB)"
    assert [(m.variable, m.start_line) for m in facts.thread_mapping] == [("tid", 13)]
    assert [(c.text, c.start_line) for c in facts.boundary_checks] == [("if(tid < n)", 14)]
    assert [a.expression for a in facts.global_accesses] == ["x[tid * incx]"]
    assert facts.barriers == facts.atomics == facts.cross_lane == facts.shared == []
    (launch,) = facts.launches
    assert (launch.statement.start_line, launch.statement.end_line) == (27, 27)
    assert [(d.text, d.start_line) for d in launch.declarations] == [
        ("dim3 grid((n - 1) / 256 + 1);", 25),
        ("dim3 threads(256);", 26),
    ]
    assert [(e.start_line, e.end_line) for e in facts.early_exits] == [(23, 24)]


def _context(out, kernel: str):
    for row in read_jsonl(out / "bundles.jsonl"):
        bundle = Bundle.model_validate(row)
        for context in live_kernels(bundle):
            if context.kernel.name == kernel:
                return context
    raise AssertionError(f"{kernel} is in no bundle as a live kernel")


def test_shared_memory_barriers_and_reduction_of_block_reduction_kernels(tinyblas) -> None:
    _, out = tinyblas
    finalize = kernel_facts(_context(out, "tinyblas_dot_finalize_kernel"))
    assert [s.name for s in finalize.shared] == ["sdata"]
    assert [b.name for b in finalize.barriers] == ["__syncthreads", "__syncthreads"]
    assert [(loop.header, loop.depth) for loop in finalize.loops] == [
        ("for(int i = threadIdx.x; i < n_partials; i += NB)", 1),
        ("for(int s = NB / 2; s > 0; s /= 2)", 1),
    ]
    partial = kernel_facts(_context(out, "tinyblas_dot_partial_kernel"))
    helper = partial.shared[0].region
    assert helper != partial.kernel  # staged in the device helper, found through the bundle's edges
    assert {r.name for r in partial.reductions} >= {"block_reduce_sum"}
    assert all(b.region == helper for b in partial.barriers)


def test_preprocessor_blocks_are_read_off_the_text() -> None:
    from miner.qa.facts.syntax import _directives

    code = "void f()\n{\n#if WIDE\n    for(;;) {\n#endif\n    x();\n#if WIDE\n    }\n#else\n    y();\n#endif\n}"
    table = _directives(code)
    assert table[3] == ("#if WIDE", (2,))
    assert table[5] is None  # between the blocks: no directive, whatever the braces say
    assert table[9] == ("#else of #if WIDE", (6, 8))


TILED_KERNEL = """template <int NB, typename T>
__global__ void scale_kernel(int n, const T* x, T* y)
{
    __shared__ T tile[NB];
    extern __shared__ double raw[];
    T*  staged = reinterpret_cast<T*>(raw) + NB;
    T   r[2];
    int tid = blockIdx.x * NB + threadIdx.x;
    tile[threadIdx.x] = tid < n ? x[tid] : T(0);
    __syncthreads();
    r[0] = tile[NB - 1 - threadIdx.x];
    staged[threadIdx.x] = r[0];
    if(tid < n)
        y[tid] = r[0];
}"""
CHEVRON_LAUNCHER = """template <typename T>
void launch_scale(int n, const T* x, T* y, hipStream_t stream)
{
    LAUNCH_ALL(n);
    scale_kernel<256, T><<<dim3((n - 1) / 256 + 1), dim3(256), 0, stream>>>(n, x, y);
}"""


def test_global_accesses_exclude_lds_and_register_arrays() -> None:
    context = make_context(TILED_KERNEL, CHEVRON_LAUNCHER, 24, "<<<>>>", ("", "", "", ""))
    facts = kernel_facts(context)
    assert [a.expression for a in facts.global_accesses] == ["x[tid]", "y[tid]"]
    assert [(s.name, s.element_type, s.extents) for s in facts.shared] == [
        ("tile", "T", ["NB"]),
        ("raw", "double", [""]),
    ]


def test_launches_are_described_as_written() -> None:
    chevrons = kernel_facts(make_context(TILED_KERNEL, CHEVRON_LAUNCHER, 24, "<<<>>>", ("", "", "", "")))
    (launch,) = chevrons.launches
    assert (launch.via, launch.grid, launch.block, launch.shared_mem, launch.stream) == (
        "<<<>>>",
        "dim3((n - 1) / 256 + 1)",
        "dim3(256)",
        "0",
        "stream",
    )
    # a library macro that clang saw expand to <<<...>>> is named as the source writes it
    hidden = kernel_facts(make_context(TILED_KERNEL, CHEVRON_LAUNCHER, 23, "<<<>>>", ("", "", "", "")))
    assert hidden.launches[0].via == "LAUNCH_ALL"


def test_a_launch_size_declared_with_the_librarys_own_integer_type_is_cited():
    """The library's integer typedefs come from its profile (``integer_types``), not from a list in the code."""
    from dataclasses import replace

    from tests.qa.test_grounding import KERNEL_CODE, LAUNCHER_CODE

    launcher = LAUNCHER_CODE.replace("dim3 grid((n - 1) / 256 + 1);", "tinyblas_int blocks = (n - 1) / 256 + 1;")
    launcher = launcher.replace("(scale_kernel<256, T>), grid,", "(scale_kernel<256, T>), blocks,")
    context = make_context(KERNEL_CODE, launcher, 27, "hipLaunchKernelGGL", ("blocks", "threads", "0", "stream"))

    def declared(library: str) -> list[str]:
        mined_from = replace(context, library=library)
        (launch,) = kernel_facts(mined_from).launches
        return [d.text for d in launch.declarations]

    assert "tinyblas_int blocks = (n - 1) / 256 + 1;" in declared("tinyblas")
    assert "tinyblas_int blocks = (n - 1) / 256 + 1;" not in declared("rocblas")
