"""Names and enumerations shared by every stage: USRs, bundle ids, call resolutions, execution spaces, region roles,
boundary kinds."""

from __future__ import annotations

from enum import StrEnum
from typing import NewType

Usr = NewType("Usr", str)
"""A clang Unified Symbol Resolution string, or ``ts:<file>:<name>`` for tree-sitter facts."""

BundleId = NewType("BundleId", str)


class Resolution(StrEnum):
    """How a call edge was resolved; an audit can filter the heuristic ones."""

    CLANG = "clang"  # clang resolved the callee to one declaration
    OVERLOAD_SET = "overload-set"  # dependent call: clang's candidate set, all kept
    MACRO_RULE = "macro-rule"  # a library launch macro configured in the profile
    NAME_MATCH = "name-match"  # matched by name only (dependent member calls, tree-sitter)


class ExecSpace(StrEnum):
    HOST = "host"
    DEVICE = "device"
    GLOBAL = "global"
    HOST_DEVICE = "host_device"


class Role(StrEnum):
    API = "api"
    IMPL = "impl"
    TEMPLATE = "template"
    LAUNCHER = "launcher"
    KERNEL = "kernel"
    DEVICE_HELPER = "device_helper"


class BoundaryKind(StrEnum):
    GENERATED = "generated"  # Tensile / hipBLASLt generated kernels
    HIP_RUNTIME = "hip-runtime"
    STD = "std"
    SYSTEM = "system"  # other system headers
    OTHER_LIBRARY = "other-library"  # e.g. rocSOLVER -> rocBLAS without its checkout
    UNDEFINED = "undefined"  # declared in the project, defined nowhere we parsed
