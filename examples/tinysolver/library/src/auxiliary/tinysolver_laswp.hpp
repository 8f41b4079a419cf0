// Example library for rocm-miner tests. MIT licence.
// Row interchanges A(k, :) <-> A(ipiv[k]-1, :) for k in [k1, k2).
#pragma once

#include "lapack_device_functions.hpp"
#include "lib_macros.hpp"
#include "tinysolver_logger.hpp"

template <typename T, typename U>
TINYSOLVER_KERNEL void laswp_kernel(tinyblas_int n, U A, tinyblas_stride shiftA, tinyblas_int lda,
                                    tinyblas_stride strideA, tinyblas_int k1, tinyblas_int k2,
                                    const tinyblas_int* ipiv, tinyblas_stride strideP)
{
    tinyblas_int b   = blockIdx.y;
    tinyblas_int col = blockIdx.x * blockDim.x + threadIdx.x;
    if(col >= n)
        return;
    T*                  a = load_ptr_batch(A, b, shiftA, strideA);
    const tinyblas_int* p = ipiv + b * strideP;
    for(tinyblas_int k = k1; k < k2; ++k)
    {
        tinyblas_int r = p[k] - 1;
        if(r != k)
        {
            T tmp                 = a[k + col * tinyblas_stride(lda)];
            a[k + col * tinyblas_stride(lda)] = a[r + col * tinyblas_stride(lda)];
            a[r + col * tinyblas_stride(lda)] = tmp;
        }
    }
}

template <typename T, typename U>
tinyblas_status tinysolver_laswp_template(tinyblas_handle handle, tinyblas_int n, U A,
                                          tinyblas_stride shiftA, tinyblas_int lda,
                                          tinyblas_stride strideA, tinyblas_int k1, tinyblas_int k2,
                                          const tinyblas_int* ipiv, tinyblas_stride strideP,
                                          tinyblas_int batch_count)
{
    TINYSOLVER_ENTER("laswp", "n:", n, "k1:", k1, "k2:", k2, "bc:", batch_count);
    if(n == 0 || batch_count == 0)
        return tinyblas_status_success;
    hipStream_t stream;
    tinyblas_get_stream(handle, &stream);
    constexpr int NB = TINYSOLVER_LASWP_NB;
    TINYSOLVER_LAUNCH_KERNEL((laswp_kernel<T>), dim3((n - 1) / NB + 1, batch_count), dim3(NB), 0,
                             stream, n, A, shiftA, lda, strideA, k1, k2, ipiv, strideP);
    return tinyblas_status_success;
}
