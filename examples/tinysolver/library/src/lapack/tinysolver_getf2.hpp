// Example library for rocm-miner tests. MIT licence.
// Unblocked LU with partial pivoting (mirrors roclapack_getf2.hpp).
#pragma once

#include "lapack_device_functions.hpp"
#include "lib_macros.hpp"
#include "tinyblas_wrappers.hpp"
#include "tinysolver_logger.hpp"
#include <algorithm>

// pivot search in column j: iamax over rows j..m-1, one block per batch instance.
// Writes ipiv[j] (global, 1-based), info on a zero pivot, and 1/pivot to pivot_inv[b].
template <int NB, typename T, typename U>
TINYSOLVER_KERNEL void getf2_pivot_kernel(tinyblas_int m, tinyblas_int j, U A, tinyblas_stride shiftA,
                                          tinyblas_int lda, tinyblas_stride strideA, tinyblas_int* ipiv,
                                          tinyblas_stride shiftP, tinyblas_stride strideP,
                                          tinyblas_int* info, tinyblas_int pivot_offset, T* pivot_inv)
{
    using S = typename ts_real_type<T>::type;
    __shared__ S   sval[NB];
    __shared__ int sidx[NB];

    tinyblas_int b = blockIdx.z;
    T*           a = load_ptr_batch(A, b, shiftA, strideA);

    S   best = -1;
    int bidx = j;
    for(tinyblas_int i = j + threadIdx.x; i < m; i += NB)
    {
        S v = ts_abs1(a[idx2D(i, j, lda)]);
        if(ts_iamax_better(best, bidx, v, i))
        {
            best = v;
            bidx = i;
        }
    }
    sval[threadIdx.x] = best;
    sidx[threadIdx.x] = bidx;
    __syncthreads();
    ts_iamax_block<NB>(sval, sidx);

    if(threadIdx.x == 0)
    {
        int piv                          = sidx[0];
        ipiv[b * strideP + shiftP + j]   = piv + 1 + pivot_offset;
        T pivot                          = a[idx2D(piv, j, lda)];
        if(sval[0] == 0)
        {
            if(info[b] == 0)
                info[b] = j + 1 + pivot_offset;
            pivot_inv[b] = T{};
        }
        else
            pivot_inv[b] = ts_inv(pivot);
    }
}

// swap row j with the pivot row across the n columns of the panel
template <typename T, typename U>
TINYSOLVER_KERNEL void getf2_swap_kernel(tinyblas_int n, tinyblas_int j, U A, tinyblas_stride shiftA,
                                         tinyblas_int lda, tinyblas_stride strideA,
                                         const tinyblas_int* ipiv, tinyblas_stride shiftP,
                                         tinyblas_stride strideP, tinyblas_int pivot_offset)
{
    tinyblas_int b   = blockIdx.y;
    tinyblas_int col = blockIdx.x * blockDim.x + threadIdx.x;
    T*           a   = load_ptr_batch(A, b, shiftA, strideA);
    tinyblas_int piv = ipiv[b * strideP + shiftP + j] - 1 - pivot_offset;
    if(col < n && piv != j)
    {
        T tmp                 = a[idx2D(j, col, lda)];
        a[idx2D(j, col, lda)]   = a[idx2D(piv, col, lda)];
        a[idx2D(piv, col, lda)] = tmp;
    }
}

// rank-1 update of the trailing panel: A[j+1:m, j+1:n] -= A[j+1:m, j] * A[j, j+1:n]
template <typename T, typename U>
TINYSOLVER_KERNEL void getf2_ger_kernel(tinyblas_int m, tinyblas_int n, tinyblas_int j, U A,
                                        tinyblas_stride shiftA, tinyblas_int lda, tinyblas_stride strideA)
{
    tinyblas_int b = blockIdx.z;
    tinyblas_int i = j + 1 + blockIdx.x * blockDim.x + threadIdx.x;
    tinyblas_int c = j + 1 + blockIdx.y * blockDim.y + threadIdx.y;
    T*           a = load_ptr_batch(A, b, shiftA, strideA);
    if(i < m && c < n)
        a[idx2D(i, c, lda)] = ts_sub(a[idx2D(i, c, lda)], ts_mul(a[idx2D(i, j, lda)], a[idx2D(j, c, lda)]));
}

template <typename T>
void tinysolver_getf2_getMemorySize(tinyblas_int m, tinyblas_int n, tinyblas_int batch_count,
                                    size_t* size_pivot_inv)
{
    *size_pivot_inv = (m == 0 || n == 0 || batch_count == 0) ? 0 : sizeof(T) * batch_count;
}

template <typename T, typename U>
tinyblas_status tinysolver_getf2_getrf_argCheck(tinyblas_handle handle, tinyblas_int m, tinyblas_int n,
                                                tinyblas_int lda, U A, tinyblas_int* ipiv,
                                                tinyblas_int* info, tinyblas_int batch_count = 1)
{
    if(m < 0 || n < 0 || lda < m || lda < 1 || batch_count < 0)
        return tinyblas_status_invalid_size;
    if(!handle)
        return tinyblas_status_invalid_handle;
    if((m && n && !A) || (m && n && !ipiv) || (batch_count && !info))
        return tinyblas_status_invalid_pointer;
    return tinyblas_status_continue;
}

template <typename T, typename U>
tinyblas_status tinysolver_getf2_template(tinyblas_handle handle, tinyblas_int m, tinyblas_int n, U A,
                                          tinyblas_stride shiftA, tinyblas_int lda,
                                          tinyblas_stride strideA, tinyblas_int* ipiv,
                                          tinyblas_stride shiftP, tinyblas_stride strideP,
                                          tinyblas_int* info, tinyblas_int batch_count,
                                          T* pivot_inv, tinyblas_int pivot_offset)
{
    TINYSOLVER_ENTER("getf2", "m:", m, "n:", n, "shiftA:", shiftA, "lda:", lda, "bc:", batch_count);
    if(batch_count == 0)
        return tinyblas_status_success;

    hipStream_t stream;
    tinyblas_get_stream(handle, &stream);

    if(pivot_offset == 0)
        TINYSOLVER_LAUNCH_KERNEL((reset_info_kernel<tinyblas_int, int>), dim3((batch_count - 1) / 256 + 1),
                                 dim3(256), 0, stream, info, batch_count, 0);
    if(m == 0 || n == 0)
        return tinyblas_status_success;

    constexpr int NB  = TINYSOLVER_GETF2_NB;
    tinyblas_int  dim = std::min(m, n);
    for(tinyblas_int j = 0; j < dim; ++j)
    {
        TINYSOLVER_LAUNCH_KERNEL((getf2_pivot_kernel<NB, T>), dim3(1, 1, batch_count), dim3(NB), 0,
                                 stream, m, j, A, shiftA, lda, strideA, ipiv, shiftP, strideP, info,
                                 pivot_offset, pivot_inv);
        TINYSOLVER_LAUNCH_KERNEL((getf2_swap_kernel<T>), dim3((n - 1) / NB + 1, batch_count), dim3(NB),
                                 0, stream, n, j, A, shiftA, lda, strideA, ipiv, shiftP, strideP,
                                 pivot_offset);
        if(j + 1 < m)
        {
            // scale the sub-column by 1/pivot through tinyblas
            tinyblas_status st = tinysolver_scal<T>(handle, m - j - 1, pivot_inv, 1, A,
                                                    shiftA + idx2D(j + 1, j, lda), 1, strideA, batch_count);
            if(st != tinyblas_status_success)
                return st;
            if(j + 1 < n)
            {
                dim3 threads(16, 16);
                dim3 grid((m - j - 2) / 16 + 1, (n - j - 2) / 16 + 1, batch_count);
                TINYSOLVER_LAUNCH_KERNEL((getf2_ger_kernel<T>), grid, threads, 0, stream, m, n, j, A,
                                         shiftA, lda, strideA);
            }
        }
    }
    return tinyblas_status_success;
}
