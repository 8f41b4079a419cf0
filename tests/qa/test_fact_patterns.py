"""Kernel patterns the audits of the real libraries found answered wrong or incompletely, each in a few lines we
wrote: what the facts and the answers say of them now."""

from __future__ import annotations

from miner.qa.facts import kernel_facts
from miner.qa.grounding import check_item
from miner.qa.offline import OfflineGenerator
from tests.qa.test_grounding import make_context

# The kernel region starts at line 10, the launcher's at line 20 (``make_context``).
TILE_LOOP_KERNEL = """template <int NB, typename T>
__global__ void scale_kernel(int n, const T* x, T* y)
{
    __shared__ T tile[NB];
    T acc = 0;
    for(int k = 0; k < n; k += NB)
    {
        tile[threadIdx.x] = x[k + threadIdx.x];
        __syncthreads();
        for(int j = 0; j < NB; ++j)
            acc += tile[j];
        __syncthreads();
    }
    int i = blockIdx.x * NB + threadIdx.x;
    if(i >= n)
        return;
    if(blockIdx.x == 0)
        y[i] = acc;
    else
        y[i] = 2 * acc;
}"""

BRANCHED_LAUNCHER = """template <typename T>
void launch_scale(int n, const T* x, T* y, hipStream_t stream, bool device)
{
    if(n <= 0)
        return;
    if(device)
    {
        hipLaunchKernelGGL((scale_kernel<256, T>), dim3(n), dim3(256), 0, stream, n, x, y);
    }
    else
    {
        if(n == 1)
            return;
        hipLaunchKernelGGL((scale_kernel<256, T>), dim3(n), dim3(256), 0, stream, n, x, y);
    }
}"""


def _context(launch_line: int):
    return make_context(
        TILE_LOOP_KERNEL, BRANCHED_LAUNCHER, launch_line, "hipLaunchKernelGGL", ("dim3(n)", "dim3(256)", "0", "stream")
    )


def _item(context, kind: str):
    items = [i for i in OfflineGenerator(context, kernel_facts(context)).items() if i.kind == kind]
    assert len(items) == 1, [i.kind for i in items]
    grounding = check_item(items[0], context)
    assert grounding.grounded, grounding.findings
    return items[0]


def test_the_last_barrier_of_a_tile_loop_guards_the_next_rounds_writes() -> None:
    facts = kernel_facts(_context(27))
    first, last = facts.barrier_uses
    assert [w.start_line for w in first.written_before] == [17] and [r.start_line for r in first.read_after] == [20]
    assert first.overwritten_after == [] and first.loop is None  # not the loop's last barrier
    assert last.written_before == [] and last.read_after == []
    assert [w.start_line for w in last.overwritten_after] == [17]  # the next round's tile load
    answer = _item(_context(27), "barriers").answer
    assert "the next round of the loop `for(int k = 0; k < n; k += NB)`" in answer
    assert (
        "the block's reads of `tile` before it come ahead of the writes to `tile` after it, in the next round of the "
        "loop `for(int k = 0; k < n; k += NB)` (lines 15-16), `tile[threadIdx.x] = x[k + threadIdx.x];` (line 17)"
    ) in answer
    assert "overwrites" not in answer  # the barrier orders the accesses; which elements overlap is not claimed


def test_a_store_in_an_else_branch_says_its_condition_does_not_hold() -> None:
    answer = _item(_context(27), "output").answer
    assert "`y[i] = acc` (line 27) when `if(blockIdx.x == 0)` holds (line 26)" in answer
    assert "`y[i] = 2 * acc` (line 29) when `if(blockIdx.x == 0)` does not hold (line 26)" in answer


def test_tile_lds_is_not_a_block_reduction() -> None:
    context = _context(27)
    items = [i for i in OfflineGenerator(context, kernel_facts(context)).items() if i.kind == "reduction_hierarchy"]
    assert all("across the block" not in i.answer for i in items)


def test_an_early_return_names_the_branch_it_sits_in_and_one_of_the_other_branch_is_not_on_the_way() -> None:
    host = _item(_context(33), "quick_returns").answer  # the launch in the else branch
    assert "`if(n <= 0) return;` (lines 23-24)" in host
    assert "`if(n == 1) return;` (lines 31-32), reached only when `if(device)` does not hold (line 25)" in host
    device = _item(_context(27), "quick_returns").answer  # the launch in the then branch
    assert "`if(n <= 0) return;`" in device and "n == 1" not in device


def test_a_thread_strided_loop_bound_is_a_bounds_check() -> None:
    kernel = TILE_LOOP_KERNEL.replace("for(int j = 0; j < NB; ++j)", "for(int j = threadIdx.x; j < NB; j += 64)")
    context = make_context(kernel, BRANCHED_LAUNCHER, 27, "hipLaunchKernelGGL", ("dim3(n)", "dim3(256)", "0", "stream"))
    answer = _item(context, "bounds_checks").answer
    assert "`j < NB` in `for(int j = threadIdx.x; j < NB; j += 64)` (lines 19-20)" in answer
    assert "`if(i >= n)` (line 24)" in answer


def test_lds_carved_from_extern_shared_memory_is_lds_in_the_helpers_it_is_handed_to() -> None:
    kernel = """template <typename T>
__global__ void scale_kernel(int n, T* y)
{
    extern __shared__ double lmem[];
    T* vals = reinterpret_cast<T*>(lmem);
    int* idx = reinterpret_cast<int*>(vals + n);
    vals[threadIdx.x] = y[threadIdx.x];
    idx[threadIdx.x] = threadIdx.x;
    __syncthreads();
    y[threadIdx.x] = vals[idx[n - 1 - threadIdx.x]];
}"""
    context = make_context(kernel, BRANCHED_LAUNCHER, 27, "hipLaunchKernelGGL", ("dim3(n)", "dim3(256)", "0", "stream"))
    facts = kernel_facts(context)
    assert [c.start_line for c in facts.lds_carving] == [14, 15]
    assert all("vals" not in a.expression and "idx" not in a.expression for a in facts.global_accesses)
    (use,) = facts.barrier_uses
    assert [w.start_line for w in use.written_before] == [16, 17] and [r.start_line for r in use.read_after] == [19]
    answer = _item(context, "lds_layout").answer
    assert "it is carved into `T* vals = reinterpret_cast<T*>(lmem);` (line 14)" in answer


def test_an_implementation_sample_names_every_branch_of_the_kernel_and_the_launchers_returns_on_the_way() -> None:
    context = _context(27)  # the device-mode launch
    sample = OfflineGenerator(context, kernel_facts(context)).implementation()
    assert sample is not None and check_item(sample, context, answer_is_code=True).grounded
    inside = sample.question.partition("Inside, it branches on")[2]
    assert "`if(i >= n)` (line 24, returning)" in inside
    assert "`if(blockIdx.x == 0)` (line 26)" in inside
    assert "returns on `if(n <= 0) return;` (lines 23-24)" in sample.question
    assert "n == 1" not in sample.question  # the host-mode branch's return is not on the way to this launch


MACRO_BETWEEN_BRANCHES = """template <typename T>
void launch_scale(int n, const T* x, T* y, hipStream_t stream, bool device)
{
    if(device)
    {
        if(n == 2)
            return;
        hipLaunchKernelGGL((scale_kernel<256, T>), dim3(n), dim3(256), 0, stream, n, x, y);
    }
#define SCALE_ARGS n, x, y
    else
    {
        if(n == 1)
            return;
        hipLaunchKernelGGL((scale_kernel<256, T>), dim3(n), dim3(256), 0, stream, SCALE_ARGS);
    }
}"""


def test_a_macro_defined_between_an_if_and_its_else_leaves_the_else_branch_whole() -> None:
    context = make_context(
        TILE_LOOP_KERNEL, MACRO_BETWEEN_BRANCHES, 34, "hipLaunchKernelGGL", ("dim3(n)", "dim3(256)", "0", "stream")
    )
    item = _item(context, "quick_returns")
    assert "`if(n == 1) return;` (lines 32-33)" in item.answer
    assert "n == 2" not in item.answer  # in the other branch of `if(device)`: never on the way to line 34


def test_a_pointer_moved_to_the_thread_indexes_its_accesses_and_a_single_thread_store_is_named_apart() -> None:
    kernel = """template <int NB, typename T>
__global__ void scale_kernel(int n, int lda, const T* A, T* y)
{
    int tx = threadIdx.x;
    int col = blockIdx.x;
    A += col * lda + tx;
    T sum = 0;
    for(int i = 0; i < n; i += NB)
        sum += A[i];
    if(tx == 0)
        y[col] = sum;
}"""
    context = make_context(kernel, BRANCHED_LAUNCHER, 27, "hipLaunchKernelGGL", ("dim3(n)", "dim3(256)", "0", "stream"))
    item = _item(context, "indexing")
    each, _, alone = item.answer.partition("One thread alone accesses")
    assert "`A[i]` (line 18)" in each.partition("Each thread then works on")[2]
    assert "`y[col]` (line 20, when `if(tx == 0)` holds (line 19))" in alone
    assert "y[col]" not in each


SWITCH_MACRO_LAUNCHER = """template <typename T>
void launch_scale(int n, const T* x, T* y, hipStream_t stream, bool device)
{
#define RUN_SCALE(NB) \\
    hipLaunchKernelGGL((scale_kernel<NB, T>), grid, block, 0, stream, n, x, y)

    dim3 grid(n, 1, 1);
    dim3 block(64, 1, 1);
    switch(n)
    {
    case 1: RUN_SCALE(1); break;
    case 2: RUN_SCALE(2); break;
    }
}"""


def test_a_launch_inside_a_macro_a_switch_case_calls_takes_its_grid_and_block_from_the_expansion() -> None:
    context = make_context(TILE_LOOP_KERNEL, SWITCH_MACRO_LAUNCHER, 31, "<<<>>>", ("", "", "", ""))
    item = _item(context, "launch")
    assert "through `hipLaunchKernelGGL`, whose configuration comes from `RUN_SCALE` (lines 23-24)" in item.answer
    assert "grid `grid`, block `block`" in item.answer
    assert "`dim3 block(64, 1, 1);` (line 27)" in item.answer


LOOPED_LAUNCHER = """template <typename T>
void launch_scale(int n, const T* x, T* y, hipStream_t stream, bool device)
{
    for(int level = 0; level < 4; ++level)
    {
        int blocks = (n >> level) + 1;
        hipLaunchKernelGGL((scale_kernel<256, T>), dim3(blocks), dim3(256), 0, stream, n, x, y);
    }
}"""


def test_a_launch_inside_a_loop_runs_once_a_round_and_its_grid_variable_is_declared_in_the_loop() -> None:
    context = make_context(
        TILE_LOOP_KERNEL, LOOPED_LAUNCHER, 26, "hipLaunchKernelGGL", ("dim3(blocks)", "dim3(256)", "0", "stream")
    )
    item = _item(context, "launch")
    assert check_item(item, context).grounded
    assert "once per round of `for(int level = 0; level < 4; ++level)` (lines 23-24)" in item.answer
    assert "`int blocks = (n >> level) + 1;` (line 25)" in item.answer


def test_threads_or_blocks_that_return_are_bounds_checks_and_a_window_of_the_thread_is_not() -> None:
    kernel = """template <int NB, typename T>
__global__ void scale_kernel(int n, const T* x, T* y)
{
    int tx = threadIdx.x;
    int bx = blockIdx.x;
    if(bx == gridDim.x - 1)
        return;
    T acc = 0;
    for(int k = tx; k < tx + NB / 2; k++)
        acc += x[k];
    for(int i = tx; i < n; i += NB)
        y[i] = acc;
}"""
    context = make_context(kernel, BRANCHED_LAUNCHER, 27, "hipLaunchKernelGGL", ("dim3(n)", "dim3(256)", "0", "stream"))
    item = _item(context, "bounds_checks")
    assert "`if(bx == gridDim.x - 1)` (line 15, returning)" in item.answer
    assert "`i < n` in `for(int i = tx; i < n; i += NB)`" in item.answer
    assert "k < tx" not in item.answer


def test_a_barrier_publishes_no_store_of_a_branch_that_returns_before_it() -> None:
    kernel = """template <int NB, typename T>
__global__ void scale_kernel(int n, const T* x, T* y, T alpha)
{
    __shared__ T tile[NB];
    int i = blockIdx.x * NB + threadIdx.x;
    if(!alpha)
    {
        y[i] = 0;
        return;
    }
    tile[threadIdx.x] = x[i];
    __syncthreads();
    y[i] = tile[NB - 1 - threadIdx.x];
}"""
    context = make_context(kernel, BRANCHED_LAUNCHER, 27, "hipLaunchKernelGGL", ("dim3(n)", "dim3(256)", "0", "stream"))
    (use,) = kernel_facts(context).barrier_uses
    assert [a.start_line for a in use.written_before] == [20]
    assert use.stored_before == []  # `y[i] = 0` at line 17 is on a path that never reaches the barrier


def test_an_odd_tail_test_is_a_bounds_check_and_a_thread_s_own_loop_is_named_in_its_indexing() -> None:
    kernel = """template <int NB, typename T>
__global__ void scale_kernel(int n, int m, const T* x, T* y)
{
    int tid = blockIdx.x * NB + threadIdx.x;
    if(n % 2 != 0 && tid == n - 1)
        y[tid] = x[tid];
    for(int j = 0; j < m; j++)
        y[tid + j * n] = 2 * x[tid + j * n];
}"""
    context = make_context(kernel, BRANCHED_LAUNCHER, 27, "hipLaunchKernelGGL", ("dim3(n)", "dim3(256)", "0", "stream"))
    assert "`if(n % 2 != 0 && tid == n - 1)` (line 14)" in _item(context, "bounds_checks").answer
    indexing = _item(context, "indexing")
    assert "Each thread also loops over the elements in `for(int j = 0; j < m; j++)` (lines 16-17)" in indexing.answer


def test_no_absence_of_communication_is_claimed_over_code_under_an_if_directive() -> None:
    kernel = """template <int NB, typename T>
__global__ void scale_kernel(int n, const T* x, T* y)
{
#if defined(__gfx90a__)
    scale_calc<NB>(n, x, y);
#else
    y[threadIdx.x] = x[threadIdx.x];
#endif
}"""
    context = make_context(kernel, BRANCHED_LAUNCHER, 27, "hipLaunchKernelGGL", ("dim3(n)", "dim3(256)", "0", "stream"))
    items = OfflineGenerator(context, kernel_facts(context)).items()
    assert not [i for i in items if i.kind == "communication"]


def test_a_store_in_the_else_of_a_single_thread_test_is_each_thread_s_and_its_branch_is_worded_with_polarity() -> None:
    kernel = """template <int NB, typename T>
__global__ void scale_kernel(int n, const T* x, T* y, T* out)
{
    int tid = blockIdx.x * NB + threadIdx.x;
    if(tid == 0)
        out[tid] = x[tid];
    else
        y[tid] = x[tid];
}"""
    context = make_context(kernel, BRANCHED_LAUNCHER, 27, "hipLaunchKernelGGL", ("dim3(n)", "dim3(256)", "0", "stream"))
    each, _, alone = _item(context, "indexing").answer.partition("One thread alone accesses")
    assert "`y[tid]` (line 17)" in each
    assert "`out[tid]` (line 15, when `if(tid == 0)` holds (line 14))" in alone
    assert "`x[tid]` (line 15, when `if(tid == 0)` holds (line 14))" in alone  # a read by thread 0 only


def test_a_loop_only_thread_zero_runs_is_not_each_thread_s() -> None:
    kernel = """template <int NB, typename T>
__global__ void scale_kernel(int n, const T* x, T* y)
{
    int tid = threadIdx.x;
    for(int i = tid; i < n; i += NB)
        y[i] = x[i];
    if(tid == 0)
    {
        for(int j = 1; j < n; j++)
            y[tid + j] += y[tid + j - 1];
    }
}"""
    context = make_context(kernel, BRANCHED_LAUNCHER, 27, "hipLaunchKernelGGL", ("dim3(n)", "dim3(256)", "0", "stream"))
    answer = _item(context, "indexing").answer
    assert "Each thread also loops" not in answer
    alone = answer.partition("One thread alone accesses")[2]
    assert "`y[tid + j]` (line 19, when `if(tid == 0)` holds (line 16))" in alone


SCALAR_CASE_LAUNCHER = """template <typename T>
void launch_scale(int n, const T* x, T* y, hipStream_t stream, bool device)
{
    if(n <= 0)
        return;
    if(n == 1)
    {
        hipLaunchKernelGGL((scale_kernel<256, T>), dim3(1), dim3(1), 0, stream, n, x, y);
        return;
    }
    y[0] = x[0];
}"""


def test_a_block_that_launches_the_kernel_and_then_returns_is_no_return_before_the_launch() -> None:
    """rocSOLVER's larfg and syev (`if(n == 1) { launch; return; }`), rocBLAS's geam_ex host-mode `*alpha == 0`."""
    context = make_context(
        TILE_LOOP_KERNEL, SCALAR_CASE_LAUNCHER, 27, "hipLaunchKernelGGL", ("dim3(1)", "dim3(1)", "0", "stream")
    )
    answer = _item(context, "quick_returns").answer
    assert "`if(n <= 0) return;` (lines 23-24)" in answer
    assert "n == 1" not in answer
