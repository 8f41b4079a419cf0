// Example library for rocm-miner tests. MIT licence.
// Unblocked Cholesky, lower triangle only (mirrors roclapack_potf2.hpp).
#pragma once

#include "lapack_device_functions.hpp"
#include "lib_macros.hpp"
#include "tinysolver_logger.hpp"
#include <cmath>

// A(j,j) := sqrt(A(j,j) - sum_k A(j,k)^2); info on a non-positive pivot
template <int NB, typename T, typename U>
TINYSOLVER_KERNEL void potf2_diag_kernel(tinyblas_int j, U A, tinyblas_stride shiftA, tinyblas_int lda,
                                         tinyblas_stride strideA, tinyblas_int* info)
{
    tinyblas_int b   = blockIdx.x;
    T*           a   = load_ptr_batch(A, b, shiftA, strideA);
    T            acc = 0;
    for(tinyblas_int k = threadIdx.x; k < j; k += NB)
        acc += a[idx2D(j, k, lda)] * a[idx2D(j, k, lda)];
    acc = ts_block_sum<NB>(acc);
    if(threadIdx.x == 0)
    {
        T d = a[idx2D(j, j, lda)] - acc;
        if(d <= 0)
        {
            if(info[b] == 0)
                info[b] = j + 1;
        }
        else
            a[idx2D(j, j, lda)] = sqrt(d);
    }
}

// A(i,j) := (A(i,j) - sum_k A(i,k) A(j,k)) / A(j,j) for i > j
template <int NB, typename T, typename U>
TINYSOLVER_KERNEL void potf2_update_kernel(tinyblas_int n, tinyblas_int j, U A, tinyblas_stride shiftA,
                                           tinyblas_int lda, tinyblas_stride strideA,
                                           const tinyblas_int* info)
{
    tinyblas_int b = blockIdx.y;
    tinyblas_int i = j + 1 + blockIdx.x * NB + threadIdx.x;
    T*           a = load_ptr_batch(A, b, shiftA, strideA);
    if(i >= n || info[b] != 0)
        return;
    T s = a[idx2D(i, j, lda)];
    for(tinyblas_int k = 0; k < j; ++k)
        s -= a[idx2D(i, k, lda)] * a[idx2D(j, k, lda)];
    a[idx2D(i, j, lda)] = s / a[idx2D(j, j, lda)];
}

template <typename T, typename U>
tinyblas_status tinysolver_potf2_template(tinyblas_handle handle, tinyblas_fill uplo, tinyblas_int n,
                                          U A, tinyblas_stride shiftA, tinyblas_int lda,
                                          tinyblas_stride strideA, tinyblas_int* info,
                                          tinyblas_int batch_count)
{
    TINYSOLVER_ENTER("potf2", "uplo:", uplo, "n:", n, "shiftA:", shiftA, "bc:", batch_count);
    if(uplo != tinyblas_fill_lower)
        return tinyblas_status_not_implemented;
    if(n == 0 || batch_count == 0)
        return tinyblas_status_success;

    hipStream_t stream;
    tinyblas_get_stream(handle, &stream);
    constexpr int NB = TINYSOLVER_POTF2_NB;
    for(tinyblas_int j = 0; j < n; ++j)
    {
        TINYSOLVER_LAUNCH_KERNEL((potf2_diag_kernel<NB, T>), dim3(batch_count), dim3(NB), 0, stream, j,
                                 A, shiftA, lda, strideA, info);
        if(j + 1 < n)
            TINYSOLVER_LAUNCH_KERNEL((potf2_update_kernel<NB, T>), dim3((n - j - 2) / NB + 1, batch_count),
                                     dim3(NB), 0, stream, n, j, A, shiftA, lda, strideA, info);
    }
    return tinyblas_status_success;
}
