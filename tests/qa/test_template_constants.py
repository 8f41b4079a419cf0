"""Template constants each launch fixes, and the patterns of the thirteenth audit round: LDS pointers given their
value after the declaration, positions rescaled in place, pointers placed at the thread's element, shared scalars
and loop bounds of a helper's own counter."""

from __future__ import annotations

import dataclasses

from miner.qa.constants import decided_branches
from miner.qa.facts import kernel_facts
from tests.qa.test_fact_patterns import _item
from tests.qa.test_grounding import make_context

# The kernel region starts at line 10, the launcher's at line 20 (``make_context``).
ONE_BLOCK_KERNEL = """template <bool ONE_BLOCK, int NB, typename T>
__global__ void scale_kernel(int n, const T* x, T* work, T* out)
{
    __shared__ T part[NB];
    part[threadIdx.x] = x[blockIdx.x * NB + threadIdx.x];
    __syncthreads();
    for(int s = NB / 2; s > 0; s /= 2)
    {
        if(threadIdx.x < s)
            part[threadIdx.x] += part[threadIdx.x + s];
        __syncthreads();
    }
    if(threadIdx.x == 0)
    {
        if(ONE_BLOCK || gridDim.x == 1)
            out[0] = part[0];
        else
            work[blockIdx.x] = part[0];
    }
}"""


def _launcher(*constants: str) -> str:
    branches = "\n".join(
        f"""    {"if(n <= 1024)" if i == 0 else "else"}
    {{
        static constexpr bool ONE_BLOCK = {value};
        hipLaunchKernelGGL((scale_kernel<ONE_BLOCK, 256, T>), dim3(1), dim3(256), 0, stream, n, x, w, y);
    }}"""
        for i, value in enumerate(constants)
    )
    return f"""template <typename T>
void launch_scale(int n, const T* x, T* w, T* y, hipStream_t stream)
{{
{branches}
}}"""


def _context(*constants: str):
    launch_line = 26  # the first launch
    return make_context(
        ONE_BLOCK_KERNEL,
        _launcher(*constants),
        launch_line,
        "hipLaunchKernelGGL",
        ("dim3(1)", "dim3(256)", "0", "stream"),
    )


def test_a_constexpr_template_argument_decides_the_kernels_branch_and_the_branch_not_taken_is_dropped() -> None:
    context = _context("true")
    decided = decided_branches(context)
    assert decided.constants[context.kernel.id] == {"ONE_BLOCK": True, "NB": 256}
    assert decided.conditions == {(context.kernel.id, 24): True}
    facts = kernel_facts(context)
    assert [s.expression for s in facts.stores] == ["out[0] = part[0]"]
    assert [g.text for g in facts.stores[0].guards] == ["if(threadIdx.x == 0)"]
    answer = _item(context, "output").answer
    assert "work[blockIdx.x]" not in answer and "ONE_BLOCK" not in answer
    hierarchy = _item(context, "reduction_hierarchy").answer
    assert "not across blocks: the block's results are stored by `out[0] = part[0]`" in hierarchy


def test_a_template_argument_the_launches_disagree_on_or_that_is_no_constant_decides_nothing() -> None:
    context = _context("true", "false")
    second = context.launch_sites[0].model_copy(update={"line": 31})
    both = dataclasses.replace(context, launch_sites=(*context.launch_sites, second))
    assert "ONE_BLOCK" not in decided_branches(both).constants.get(both.kernel.id, {})
    assert {s.expression for s in kernel_facts(both).stores} == {"out[0] = part[0]", "work[blockIdx.x] = part[0]"}
    unknown = make_context(
        ONE_BLOCK_KERNEL,
        _launcher("true").replace("scale_kernel<ONE_BLOCK, 256, T>", "scale_kernel<n == 1, 256, T>"),
        26,
        "hipLaunchKernelGGL",
        ("dim3(1)", "dim3(256)", "0", "stream"),
    )
    assert "ONE_BLOCK" not in decided_branches(unknown).constants.get(unknown.kernel.id, {})
    assert len(kernel_facts(unknown).stores) == 2


POSITION_KERNEL = """template <int WIN, typename T>
__global__ void scale_kernel(int n, int m, const T* x, T* y, T* a, int incy)
{
    extern __shared__ double smem[];
    __shared__ int pivot;
    T* sA;
    int ty = blockIdx.y * blockDim.y + threadIdx.y;
    ty *= WIN;
    int tid = blockIdx.x * blockDim.x + threadIdx.x;
    auto py = load_ptr_batch(y, blockIdx.z, tid * incy, 0);
    sA = reinterpret_cast<T*>(smem) + n;
    sA[threadIdx.x] = x[tid];
    for(int j = 0; j < WIN && tid < n; j++)
        *py += sA[threadIdx.x] * a[ty + j];
    if(tid == 0)
        pivot = m;
}"""


def _position_context():
    return make_context(
        POSITION_KERNEL,
        _launcher("true").replace("scale_kernel<ONE_BLOCK, 256, T>", "scale_kernel<2, T>"),
        26,
        "hipLaunchKernelGGL",
        ("dim3(1)", "dim3(256)", "0", "stream"),
    )


def test_an_lds_pointer_assigned_after_its_declaration_is_lds_not_global_memory() -> None:
    facts = kernel_facts(_position_context())
    assert [a.expression for a in facts.lds_accesses if a.expression.startswith("sA")] == ["sA[threadIdx.x]"] * 2
    assert not any(a.expression.startswith("sA") for a in facts.global_accesses)


def test_a_position_rescaled_in_place_and_a_pointer_placed_at_the_threads_element_are_named() -> None:
    context = _position_context()
    indexing = _item(context, "indexing").answer
    assert "`ty *= WIN` (line 17)" in indexing
    accesses = _item(context, "global_accesses").answer
    assert "`*py` (line 23)" in accesses and "`x[tid]` (line 21)" in accesses


def test_a_shared_scalar_is_one_value_not_an_array_of_runtime_size() -> None:
    answer = _item(_position_context(), "lds_layout").answer
    assert "`__shared__ int pivot;` in `scale_kernel` (line 14): one `int` shared by the block" in answer
    assert "extents a size set at launch" in answer  # ``extern __shared__ double smem[]``


def test_a_bound_on_the_position_joined_by_and_to_a_counter_bound_is_a_bounds_check() -> None:
    answer = _item(_position_context(), "bounds_checks").answer
    assert "`j < WIN && tid < n` in `for(int j = 0; j < WIN && tid < n; j++)` (lines 22-23)" in answer


def test_a_launch_passing_another_overloads_number_of_arguments_is_not_this_kernels() -> None:
    launcher = """template <typename T>
void launch_scale(int n, const T* x, T* w, T* y, hipStream_t stream)
{
    if(n > 0)
        hipLaunchKernelGGL((scale_kernel<256, T>), dim3(1), dim3(256), 0, stream, n, x, w, y, n);
}"""
    context = make_context(
        ONE_BLOCK_KERNEL, launcher, 24, "hipLaunchKernelGGL", ("dim3(1)", "dim3(256)", "0", "stream")
    )
    assert kernel_facts(context).launches == []  # five arguments: ``scale_kernel`` takes four
    fits = make_context(
        ONE_BLOCK_KERNEL,
        launcher.replace(", n);", ");"),
        24,
        "hipLaunchKernelGGL",
        ("dim3(1)", "dim3(256)", "0", "stream"),
    )
    assert len(kernel_facts(fits).launches) == 1


LOOP_BARRIERS_KERNEL = """template <int NB, typename T>
__global__ void scale_kernel(int n, const T* x, T* y)
{
    __shared__ T xs[NB];
    __shared__ T acc[NB];
    xs[threadIdx.x] = x[threadIdx.x];
    __syncthreads();
    for(int b = 0; b < n; b++)
    {
        T r = xs[threadIdx.x] * 2;
        __syncthreads();
        acc[threadIdx.x] = r;
        __syncthreads();
        if(threadIdx.x == 0)
            for(int k = 0; k < NB; k++)
                REDUCE{}(r, acc[k]);
        y[b] = r;
    }
}"""


def test_a_barrier_orders_only_the_arrays_written_before_it_and_the_first_in_a_loop_guards_the_last_rounds_reads() -> (
    None
):
    context = make_context(
        LOOP_BARRIERS_KERNEL, BRANCHED_LAUNCHER, 27, "hipLaunchKernelGGL", ("dim3(n)", "dim3(256)", "0", "stream")
    )
    first_in_loop, last_in_loop = kernel_facts(context).barrier_uses[1:]
    assert [w.start_line for w in first_in_loop.overwritten_after] == [21]  # acc, read at line 25 the round before
    assert [r.start_line for r in last_in_loop.read_after] == [25]
    assert last_in_loop.read_next_round == []  # xs is read at the top of the loop, but acc was written
    folding = [loop for loop in kernel_facts(context).loops if loop.header.startswith("for(int k")]
    assert folding and folding[0].accumulates  # ``REDUCE{}(r, acc[k])`` folds into r


BRANCHED_LAUNCHER = """template <typename T>
void launch_scale(int n, const T* x, T* y, hipStream_t stream, bool device)
{
    if(n <= 0)
        return;
    if(device)
    {
        hipLaunchKernelGGL((scale_kernel<256, T>), dim3(n), dim3(256), 0, stream, n, x, y);
    }
}"""


COUNTING_KERNEL = """template <int NB, typename T>
__global__ void scale_kernel(int n, const T* x, int incx, T* res, int* done)
{
    int tid = blockIdx.x * NB + threadIdx.x;
    T v = 0;
    if(tid < n)
        v = x[tid * incx];
    v = __shfl_down(v, 1);
    if(threadIdx.x == 0)
    {
        res[blockIdx.y] = v;
        atomicAdd(done, 1);
    }
}"""


def test_a_counting_atomic_is_no_reduction_stage_and_a_unit_increment_may_be_negative() -> None:
    context = make_context(
        COUNTING_KERNEL, BRANCHED_LAUNCHER, 27, "hipLaunchKernelGGL", ("dim3(n)", "dim3(256)", "0", "stream")
    )
    hierarchy = _item(context, "reduction_hierarchy").answer
    assert "through atomic updates" not in hierarchy
    assert "`atomicAdd(done, 1);` (line 21) only counts: no value is summed through it." in hierarchy
    coalescing = _item(context, "coalescing").answer
    assert "the access coalesces only when `incx` is 1 or -1" in coalescing
