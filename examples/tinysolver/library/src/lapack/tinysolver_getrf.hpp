// Example library for rocm-miner tests. MIT licence.
// Blocked right-looking LU (mirrors roclapack_getrf.hpp): getf2 on panels,
// laswp on the other columns, trsm + gemm from tinyblas on the trailing matrix.
#pragma once

#include "../auxiliary/tinysolver_laswp.hpp"
#include "tinysolver_getf2.hpp"

template <typename T>
void tinysolver_getrf_getMemorySize(tinyblas_int m, tinyblas_int n, tinyblas_int batch_count,
                                    size_t* size_pivot_inv)
{
    tinysolver_getf2_getMemorySize<T>(m, n, batch_count, size_pivot_inv);
}

template <typename T, typename U>
tinyblas_status tinysolver_getrf_template(tinyblas_handle handle, tinyblas_int m, tinyblas_int n, U A,
                                          tinyblas_stride shiftA, tinyblas_int lda,
                                          tinyblas_stride strideA, tinyblas_int* ipiv,
                                          tinyblas_stride strideP, tinyblas_int* info,
                                          tinyblas_int batch_count, T* pivot_inv)
{
    TINYSOLVER_ENTER("getrf", "m:", m, "n:", n, "shiftA:", shiftA, "lda:", lda, "bc:", batch_count);
    if(batch_count == 0)
        return tinyblas_status_success;

    hipStream_t stream;
    tinyblas_get_stream(handle, &stream);
    TINYSOLVER_LAUNCH_KERNEL((reset_info_kernel<tinyblas_int, int>), dim3((batch_count - 1) / 256 + 1),
                             dim3(256), 0, stream, info, batch_count, 0);
    if(m == 0 || n == 0)
        return tinyblas_status_success;

    tinyblas_int dim = std::min(m, n);
    if(dim <= TINYSOLVER_GETRF_GETF2_SWITCHSIZE)
        return tinysolver_getf2_template<T>(handle, m, n, A, shiftA, lda, strideA, ipiv, 0, strideP,
                                            info, batch_count, pivot_inv, 0);

    constexpr tinyblas_int NB = TINYSOLVER_GETRF_BLOCKSIZE;
    for(tinyblas_int j = 0; j < dim; j += NB)
    {
        tinyblas_int jb = std::min(dim - j, NB);

        // factor the panel A[j:m, j:j+jb]; pivots are stored with global row numbers
        tinyblas_status st = tinysolver_getf2_template<T>(handle, m - j, jb, A, shiftA + idx2D(j, j, lda),
                                                          lda, strideA, ipiv, j, strideP, info,
                                                          batch_count, pivot_inv, j);
        if(st != tinyblas_status_success)
            return st;

        // apply the panel's interchanges to the columns left and right of it
        tinysolver_laswp_template<T>(handle, j, A, shiftA, lda, strideA, j, j + jb, ipiv, strideP,
                                     batch_count);
        if(j + jb < n)
        {
            tinysolver_laswp_template<T>(handle, n - j - jb, A, shiftA + idx2D(0, j + jb, lda), lda,
                                         strideA, j, j + jb, ipiv, strideP, batch_count);

            // U12 := inv(L11) * A12
            st = tinysolver_trsm_llnu<T>(handle, jb, n - j - jb, A, shiftA + idx2D(j, j, lda), lda,
                                         strideA, A, shiftA + idx2D(j, j + jb, lda), lda, strideA,
                                         batch_count);
            if(st != tinyblas_status_success)
                return st;

            // A22 := A22 - L21 * U12
            if(j + jb < m)
            {
                st = tinysolver_gemm_update<T>(handle, m - j - jb, n - j - jb, jb, A,
                                               shiftA + idx2D(j + jb, j, lda), lda, A,
                                               shiftA + idx2D(j, j + jb, lda), lda, A,
                                               shiftA + idx2D(j + jb, j + jb, lda), lda, strideA,
                                               batch_count);
                if(st != tinyblas_status_success)
                    return st;
            }
        }
    }
    return tinyblas_status_success;
}
