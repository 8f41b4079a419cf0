// Example library for rocm-miner tests. MIT licence.
// Cholesky driver; this small example always delegates to potf2.
#pragma once

#include "tinysolver_potf2.hpp"

template <typename T>
void tinysolver_potrf_getMemorySize(tinyblas_int n, tinyblas_int batch_count, size_t* size_work)
{
    *size_work = 0;
    (void)n;
    (void)batch_count;
}

template <typename T>
tinyblas_status tinysolver_potf2_potrf_argCheck(tinyblas_handle handle, tinyblas_fill uplo,
                                                tinyblas_int n, tinyblas_int lda, T A,
                                                tinyblas_int* info, tinyblas_int batch_count = 1)
{
    if(uplo != tinyblas_fill_lower && uplo != tinyblas_fill_upper)
        return tinyblas_status_invalid_value;
    if(n < 0 || lda < n || lda < 1 || batch_count < 0)
        return tinyblas_status_invalid_size;
    if(!handle)
        return tinyblas_status_invalid_handle;
    if((n && !A) || (batch_count && !info))
        return tinyblas_status_invalid_pointer;
    return tinyblas_status_continue;
}

template <typename T, typename U>
tinyblas_status tinysolver_potrf_template(tinyblas_handle handle, tinyblas_fill uplo, tinyblas_int n,
                                          U A, tinyblas_stride shiftA, tinyblas_int lda,
                                          tinyblas_stride strideA, tinyblas_int* info,
                                          tinyblas_int batch_count)
{
    TINYSOLVER_ENTER("potrf", "uplo:", uplo, "n:", n, "shiftA:", shiftA, "bc:", batch_count);
    if(batch_count == 0)
        return tinyblas_status_success;
    hipStream_t stream;
    tinyblas_get_stream(handle, &stream);
    TINYSOLVER_LAUNCH_KERNEL((reset_info_kernel<tinyblas_int, int>), dim3((batch_count - 1) / 256 + 1),
                             dim3(256), 0, stream, info, batch_count, 0);
    return tinysolver_potf2_template<T>(handle, uplo, n, A, shiftA, lda, strideA, info, batch_count);
}
