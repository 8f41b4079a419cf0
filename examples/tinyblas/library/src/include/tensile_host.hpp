// Example library for rocm-miner tests. MIT licence.
// Boundary to the generated (Tensile) GEMM code. The definition lives in
// tensile_host.cpp, which needs generated headers that are not in the tree.
#pragma once

#include "handle.hpp"

template <typename T, typename TConstPtr, typename TPtr>
struct TensileContractionProblem
{
    tinyblas_handle    handle;
    tinyblas_operation trans_a, trans_b;
    tinyblas_int       m, n, k;
    const T*           alpha;
    TConstPtr          A;
    tinyblas_stride    offset_a;
    tinyblas_int       lda;
    tinyblas_stride    stride_a;
    TConstPtr          B;
    tinyblas_stride    offset_b;
    tinyblas_int       ldb;
    tinyblas_stride    stride_b;
    const T*           beta;
    TPtr               C;
    tinyblas_stride    offset_c;
    tinyblas_int       ldc;
    tinyblas_stride    stride_c;
    tinyblas_int       batch_count;
};

template <typename T, typename TConstPtr, typename TPtr>
tinyblas_status runContractionProblem(const TensileContractionProblem<T, TConstPtr, TPtr>& problem);

// true when the Tensile library for the current device was loaded
bool tinyblas_tensile_is_initialized();
