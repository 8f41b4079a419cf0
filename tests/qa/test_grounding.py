"""The grounding check rejects each way an answer can cite code it does not match."""

from __future__ import annotations

import hashlib

from miner.models import Bundle, Evidence, LaunchSite, Provenance, QAItem, Region
from miner.qa.context import live_kernels
from miner.qa.facts import kernel_facts
from miner.qa.grounding import check_item, contradictions

KERNEL_CODE = """template <int NB, typename T>
__global__ void __launch_bounds__(NB) scale_kernel(int n, T alpha, T* x, int incx)
{
    int tid = blockIdx.x * NB + threadIdx.x;
    if(tid < n)
        x[tid * incx] *= alpha;
}"""
LAUNCHER_CODE = """template <typename T>
void launch_scale(int n, T alpha, T* x, int incx, hipStream_t stream)
{
    if(n <= 0)
        return;
    dim3 grid((n - 1) / 256 + 1);
    dim3 threads(256);
    hipLaunchKernelGGL((scale_kernel<256, T>), grid, threads, 0, stream, n, alpha, x, incx);
}"""


def _region(role: str, name: str, code: str, start: int) -> Region:
    end = start + code.count("\n")
    return Region(
        id=f"src/scale.hpp:{start}-{end}",
        role=role,
        name=name,
        qualified_name=name,
        names=[name],
        file="src/scale.hpp",
        start_line=start,
        end_line=end,
        code=code,
        sha256=hashlib.sha256(code.encode()).hexdigest(),  # what a mine records: memoised facts follow it
        exec_space="global" if role == "kernel" else "host",
        entries=["lib_sscal"],
        live_for=["lib_sscal"],
    )


def make_context(kernel_code: str, launcher_code: str, line: int, via: str, config: tuple[str, str, str, str]):
    kernel = _region("kernel", "scale_kernel", kernel_code, 10)
    launcher = _region("launcher", "launch_scale", launcher_code, 20)
    grid, block, shared_mem, stream = config
    site = LaunchSite(
        launcher=launcher.id,
        kernel=kernel.id,
        file="src/scale.hpp",
        line=line,
        via=via,
        kernel_expr="scale_kernel<256, T>",
        grid=grid,
        block=block,
        shared_mem=shared_mem,
        stream=stream,
    )
    provenance = Provenance(
        library="lib", repo_url="", commit="", tag="", dirty=False, tool_version="", config_hash="", file_hashes={}
    )
    bundle = Bundle(
        id="lib_scal",
        library="lib",
        family="lib_scal",
        entries=["lib_sscal"],
        regions=[launcher, kernel],
        call_paths=[[launcher.id, kernel.id]],
        edges=[],
        launch_sites=[site],
        boundaries=[],
        exclusions=[],
        provenance=provenance,
        sha256="b" * 64,
    )
    (context,) = live_kernels(bundle)
    return context


def scale_context():
    return make_context(KERNEL_CODE, LAUNCHER_CODE, 27, "hipLaunchKernelGGL", ("grid", "threads", "0", "stream"))


def _item(answer: str, *evidence: Evidence, question: str = "How?") -> QAItem:
    return QAItem(category="launch", question=question, answer=answer, evidence=list(evidence))


KERNEL = "src/scale.hpp:10-16"
LAUNCHER = "src/scale.hpp:20-28"


def test_an_answer_that_matches_its_lines_is_grounded() -> None:
    item = _item(
        "Each thread computes `tid = blockIdx.x * NB + threadIdx.x` (line 13) and the block has 256 threads (line 26).",
        Evidence(region=KERNEL, start_line=13, end_line=13, identifiers=["tid", "threadIdx"]),
        Evidence(region=LAUNCHER, start_line=26, end_line=26, identifiers=["threads"], numbers=["256"]),
    )
    assert check_item(item, scale_context()).grounded


def test_unknown_region_and_lines_outside_it_are_rejected() -> None:
    context = scale_context()
    assert not check_item(_item("x", Evidence(region="src/other.hpp:1-5", start_line=1, end_line=2)), context).grounded
    verdict = check_item(_item("x", Evidence(region=KERNEL, start_line=15, end_line=19)), context)
    assert not verdict.grounded and "outside" in verdict.findings[0]
    assert check_item(_item("no evidence"), context).findings == ["no evidence cited"]


def test_identifier_must_occur_as_a_token_in_the_cited_lines() -> None:
    context = scale_context()
    # "incx" occurs on line 15, not on line 13; "tid" occurs inside no other token of line 15 but as itself
    wrong = _item("x", Evidence(region=KERNEL, start_line=13, end_line=13, identifiers=["incx"]))
    assert "identifier 'incx'" in check_item(wrong, context).findings[0]
    partial = _item("x", Evidence(region=KERNEL, start_line=11, end_line=11, identifiers=["scale"]))
    assert not check_item(partial, context).grounded  # only part of "scale_kernel"


def test_stated_numbers_must_be_in_the_cited_code_or_the_launch_configuration() -> None:
    context = scale_context()
    cited = Evidence(region=KERNEL, start_line=13, end_line=13)
    assert not check_item(_item("Blocks have 512 threads.", cited), context).grounded
    assert check_item(_item("Blocks of 256 threads.", cited), context).grounded  # launch config: scale_kernel<256, T>
    assert check_item(_item("See lines 13-14 and line 15.", cited), context).grounded  # line references are no claims
    listed = _item("x", Evidence(region=KERNEL, start_line=13, end_line=13, numbers=["64"]))
    assert not check_item(listed, context).grounded


def test_quoted_code_must_occur_in_the_cited_lines() -> None:
    context = scale_context()
    cited = Evidence(region=KERNEL, start_line=13, end_line=14)
    assert check_item(_item("`if(tid < n)` bounds it; `tid=blockIdx.x*NB+threadIdx.x`.", cited), context).grounded
    verdict = check_item(_item("`if(tid <= n)` bounds it.", cited), context)
    assert verdict.findings == ["quoted code `if(tid <= n)` does not occur in the cited lines"]
    assert check_item(_item("`scale_kernel` for `lib_sscal`.", cited), context).grounded  # names of the context


def test_answers_naming_primitives_the_kernel_never_uses_are_flagged() -> None:
    context = scale_context()
    facts = kernel_facts(context)
    item = _item(
        "Threads meet at __syncthreads and add with atomicAdd.", Evidence(region=KERNEL, start_line=13, end_line=13)
    )
    flags = contradictions(item, facts)
    assert len(flags) == 2 and "__syncthreads" in flags[0] and "atomicAdd" in flags[1]
    assert (
        contradictions(_item("Each thread is independent.", Evidence(region=KERNEL, start_line=13, end_line=13)), facts)
        == []
    )


def test_a_quote_may_leave_out_a_trailing_line_comment_but_not_code() -> None:
    kernel = """template <typename T>
__global__ void scale_kernel(int n, T* y)
{
    if(n <= 0) // nothing to do
    {
        return;
    }
    y[threadIdx.x] = 0;
}"""
    context = make_context(kernel, LAUNCHER_CODE, 27, "hipLaunchKernelGGL", ("grid", "threads", "0", "stream"))
    cited = [Evidence(region=context.kernel.id, start_line=13, end_line=16)]
    quoted = QAItem(category="constraints", question="Q?", answer="`if(n <= 0) { return; }`", evidence=cited)
    invented = QAItem(category="constraints", question="Q?", answer="`if(n <= 1) { return; }`", evidence=cited)
    assert check_item(quoted, context).grounded
    assert not check_item(invented, context).grounded
