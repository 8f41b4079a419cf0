"""Code the preprocessor left out of a TU (``#if`` blocks not taken under the build's defines),
from clang's record of skipped ranges. Liveness needs it: a kernel launched only in the
``#else`` of ``#ifdef BUILD_WITH_TENSILE`` cannot run in the default build."""

from __future__ import annotations

import ctypes

import clang.cindex as ci

from miner.parse.clang_facts import Extractor


class _RangeList(ctypes.Structure):
    _fields_ = [("count", ctypes.c_uint), ("ranges", ctypes.POINTER(ci.SourceRange))]


def _bind() -> ci.conf.lib:
    lib = ci.conf.lib
    if not getattr(lib, "_miner_inactive_bound", False):
        lib.clang_getAllSkippedRanges.argtypes = [ci.TranslationUnit]
        lib.clang_getAllSkippedRanges.restype = ctypes.POINTER(_RangeList)
        lib.clang_disposeSourceRangeList.argtypes = [ctypes.POINTER(_RangeList)]
        lib.clang_disposeSourceRangeList.restype = None
        lib._miner_inactive_bound = True
    return lib


def inactive_blocks(tu: ci.TranslationUnit, extractor: Extractor) -> list[tuple[str, int, int]]:
    """(checkout-relative file, first line, last line) of every skipped block in the checkout's
    files. Needs a TU parsed with ``PARSE_DETAILED_PROCESSING_RECORD``."""
    lib = _bind()
    ranges = lib.clang_getAllSkippedRanges(tu)
    if not ranges:
        return []
    try:
        out = set()
        for i in range(ranges.contents.count):
            r = ranges.contents.ranges[i]
            f = r.start.file
            rel = extractor.rel(f.name) if f is not None else None
            if rel is not None:
                out.add((rel, r.start.line, r.end.line))
        return sorted(out)
    finally:
        lib.clang_disposeSourceRangeList(ranges)
