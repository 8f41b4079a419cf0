import pytest

from miner.parse.launch_text import parse_launch, split_arguments
from miner.source.profile import LaunchMacro

MACROS = (
    LaunchMacro("LIB_LAUNCH", kernel=0, grid=1, block=2, shared_mem=3, stream=4),
    LaunchMacro("LIB_LAUNCH_GRID", kernel=1, grid=2, block=3, shared_mem=4, stream=5),
)


@pytest.mark.parametrize(
    ("snippet", "via", "kernel", "grid", "block", "shm", "stream", "resolution"),
    [
        pytest.param("LIB_LAUNCH((k<NB, T>), grid, threads, 0, h->stream(), n, x)", "LIB_LAUNCH", "k<NB, T>",
                     "grid", "threads", "0", "h->stream()", "macro-rule", id="library-macro-parenthesised-kernel"),
        pytest.param("LIB_LAUNCH_GRID(grid, k<T>, grid, dim3(NB, 1), lds * sizeof(T), s, x)", "LIB_LAUNCH_GRID",
                     "k<T>", "grid", "dim3(NB, 1)", "lds * sizeof(T)", "s", "macro-rule", id="macro-with-grid-first"),
        pytest.param("hipLaunchKernelGGL(kern<NB,T>, dim3(a, b), dim3(NB), 0, stream, x)", "hipLaunchKernelGGL",
                     "kern<NB,T>", "dim3(a, b)", "dim3(NB)", "0", "stream", "macro-rule", id="hipLaunchKernelGGL"),
        pytest.param("axpy_kernel<T><<<grid, dim3(NB, 1), 0, stream>>>(n, x)", "<<<>>>", "axpy_kernel<T>", "grid",
                     "dim3(NB, 1)", "0", "stream", "clang", id="chevrons"),
        pytest.param("k<<<blocks(n<3?1:2), 256>>>(n)", "<<<>>>", "k", "blocks(n<3?1:2)", "256", "0", "0", "clang",
                     id="chevrons-defaults-and-comparison"),
    ],
)  # fmt: skip
def test_parse_launch_reads_configuration(snippet, via, kernel, grid, block, shm, stream, resolution):
    config, how = parse_launch(snippet, MACROS)
    assert (config.via, config.kernel, config.grid, config.block, config.shared_mem, config.stream) == (
        via, kernel, grid, block, shm, stream,
    )  # fmt: skip
    assert how == resolution


@pytest.mark.parametrize("snippet", ["OTHER_MACRO(k, g, b, 0, s)", "LIB_LAUNCH(k, g)", "plain_call(x)", ""])
def test_parse_launch_rejects_what_is_not_a_launch(snippet):
    assert parse_launch(snippet, MACROS) is None


def test_split_arguments_keeps_template_commas_and_strings():
    args, end = split_arguments('f<a, b>(1, 2), "x, y", c < d, e)', 0)
    assert args == ["f<a, b>(1, 2)", '"x, y"', "c < d", "e"]
    assert end == len('f<a, b>(1, 2), "x, y", c < d, e')
