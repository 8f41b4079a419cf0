// Example library for rocm-miner tests. MIT licence.
// Hand-written glue that lives in a folder named after the generator (as rocBLAS's
// library/src/blas3/Tensile/gemm_templates.cpp does): it is ordinary source and is followed;
// the boundary is the call into the generated code.
#pragma once

#include "tensile_host.hpp"

template <typename T>
tinyblas_status tinyblas_set_call_generated(tinyblas_handle handle, tinyblas_int n, const T* alpha, T* const* x)
{
    TensileContractionProblem<T, const T*, T*> problem{};
    problem.handle = handle;
    problem.m      = n;
    problem.n      = 1;
    problem.k      = 1;
    problem.alpha  = alpha;
    return runContractionProblem(problem);
}
