"""What the compiler instantiated: the concrete host bodies reachable from a TU's definitions.

The facts of ``clang_facts`` describe template *patterns*, where a launcher names every kernel
it could launch for any type. Here we follow the same code as clang instantiated it for the
concrete types of each entry point (``rocblas_sscal`` → ``rocblas_scal_impl<int, float>`` → …):
a branch clang folds to a constant (``if constexpr``, ``if (using_float && incx == 1)`` with a
``static constexpr bool``, tuning macros) contributes only its taken side, and an overload or
specialisation clang did not select is simply not called. Branches clang cannot fold are kept
as guards, reduced to expressions over the function's parameters, so that constants passed
down the call path (``batch_count = 1``) can decide them later.

Device code (kernels and their helpers) is read only for what it calls: which kernels run is decided on the
host, and walking every instantiated kernel body with the host analysis costs more than the parse itself
(measured: 8.8 s for rocblas_gemv_kernels.cpp). Its calls name the helper overloads and specialisations clang
selected for the kernel's types, on the side of each branch its template arguments fold.

Specialisations are identified by USR (``c:@F@f<#f>#...``), which is the same in every TU, so a
call to ``f<float>`` that is only declared here (an extern template) is linked to the TU that
explicitly instantiates it.
"""

from miner.parse.instances.walk import InstanceWalker, instance_starts

__all__ = ["InstanceWalker", "instance_starts"]
