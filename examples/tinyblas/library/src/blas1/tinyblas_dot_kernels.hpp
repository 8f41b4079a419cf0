// Example library for rocm-miner tests. MIT licence.
// dot kernels and the internal template. This header is compiled twice:
// by blas1/tinyblas_dot_kernels.cpp (LP64) and src64/blas1/tinyblas_dot_kernels_64.cpp
// (ILP64), so the same definition yields tinyblas_internal_dot_template and
// tinyblas_internal_dot_template_64.
#pragma once

#include "device_helpers.hpp"
#include "macros.hpp"
#include "tinyblas_dot.hpp"

template <bool CONJ, typename T>
__device__ inline T tb_dot_term(T x, T y)
{
    return tb_mul(CONJ ? tb_conj(x) : x, y);
}

// small n: one block per batch does the whole reduction
template <typename API_INT, int NB, bool CONJ, typename T>
TINYBLAS_KERNEL(NB)
tinyblas_dot_single_block_kernel(API_INT n, const T* xa, tinyblas_stride offset_x, API_INT incx,
                                 tinyblas_stride stride_x, const T* ya, tinyblas_stride offset_y,
                                 API_INT incy, tinyblas_stride stride_y, T* out)
{
    const T* x   = load_ptr_batch(xa, blockIdx.z, offset_x, stride_x);
    const T* y   = load_ptr_batch(ya, blockIdx.z, offset_y, stride_y);
    T        sum = tb_zero<T>();
    for(int64_t i = threadIdx.x; i < n; i += NB)
        sum = tb_add(sum, tb_dot_term<CONJ>(x[i * incx], y[i * incy]));
    sum = block_reduce_sum<NB>(sum);
    if(threadIdx.x == 0)
        out[blockIdx.z] = sum;
}

// large n, stage 1: one partial sum per block
template <typename API_INT, int NB, bool CONJ, typename T>
TINYBLAS_KERNEL(NB)
tinyblas_dot_partial_kernel(API_INT n, const T* xa, tinyblas_stride offset_x, API_INT incx,
                            tinyblas_stride stride_x, const T* ya, tinyblas_stride offset_y,
                            API_INT incy, tinyblas_stride stride_y, T* workspace)
{
    const T* x   = load_ptr_batch(xa, blockIdx.z, offset_x, stride_x);
    const T* y   = load_ptr_batch(ya, blockIdx.z, offset_y, stride_y);
    int64_t  i   = blockIdx.x * int64_t(NB) + threadIdx.x;
    T        val = i < n ? tb_dot_term<CONJ>(x[i * incx], y[i * incy]) : tb_zero<T>();
    val          = block_reduce_sum<NB>(val);
    if(threadIdx.x == 0)
        workspace[blockIdx.z * gridDim.x + blockIdx.x] = val;
}

// large n, stage 2: sum the partials of each batch
template <int NB, typename T>
TINYBLAS_KERNEL(NB)
tinyblas_dot_finalize_kernel(int32_t n_partials, const T* workspace, T* out)
{
    __shared__ T sdata[NB];
    const T*     w   = workspace + blockIdx.x * int64_t(n_partials);
    T            acc = tb_zero<T>();
    for(int i = threadIdx.x; i < n_partials; i += NB)
        acc = tb_add(acc, w[i]);
    sdata[threadIdx.x] = acc;
    __syncthreads();
    for(int s = NB / 2; s > 0; s /= 2)
    {
        if(threadIdx.x < s)
            sdata[threadIdx.x] = tb_add(sdata[threadIdx.x], sdata[threadIdx.x + s]);
        __syncthreads();
    }
    if(threadIdx.x == 0)
        out[blockIdx.x] = sdata[0];
}

template <bool CONJ, typename T>
tinyblas_status TINYBLAS_API(tinyblas_internal_dot_template)(tinyblas_handle  handle,
                                                             TINYBLAS_API_INT n,
                                                             const T*         x,
                                                             tinyblas_stride  offset_x,
                                                             TINYBLAS_API_INT incx,
                                                             tinyblas_stride  stride_x,
                                                             const T*         y,
                                                             tinyblas_stride  offset_y,
                                                             TINYBLAS_API_INT incy,
                                                             tinyblas_stride  stride_y,
                                                             TINYBLAS_API_INT batch_count,
                                                             T*               results,
                                                             T*               workspace)
{
    constexpr int NB          = TINYBLAS_DOT_NB;
    hipStream_t   stream      = handle->get_stream();
    bool          device_mode = handle->pointer_mode == tinyblas_pointer_mode_device;
    int32_t       blocks      = int32_t((n - 1) / NB + 1);
    // partials first, then one result per batch
    T* dev_out = device_mode ? results : workspace + int64_t(blocks) * batch_count;

    if(n <= TINYBLAS_DOT_SMALL_N)
    {
        hipLaunchKernelGGL((tinyblas_dot_single_block_kernel<TINYBLAS_API_INT, NB, CONJ, T>),
                           dim3(1, 1, batch_count), dim3(NB), 0, stream,
                           n, x, offset_x, incx, stride_x, y, offset_y, incy, stride_y, dev_out);
    }
    else
    {
        hipLaunchKernelGGL((tinyblas_dot_partial_kernel<TINYBLAS_API_INT, NB, CONJ, T>),
                           dim3(blocks, 1, batch_count), dim3(NB), 0, stream,
                           n, x, offset_x, incx, stride_x, y, offset_y, incy, stride_y, workspace);
        hipLaunchKernelGGL((tinyblas_dot_finalize_kernel<NB, T>), dim3(batch_count), dim3(NB), 0,
                           stream, blocks, workspace, dev_out);
    }

    if(!device_mode)
    {
        if(hipMemcpyAsync(results, dev_out, sizeof(T) * batch_count, hipMemcpyDeviceToHost, stream)
           != hipSuccess)
            return tinyblas_status_internal_error;
        if(hipStreamSynchronize(stream) != hipSuccess)
            return tinyblas_status_internal_error;
    }
    return tinyblas_status_success;
}

#define INST_DOT_TEMPLATE(CONJ_, T_)                                                             \
    template tinyblas_status TINYBLAS_API(tinyblas_internal_dot_template)<CONJ_, T_>(            \
        tinyblas_handle, TINYBLAS_API_INT, const T_*, tinyblas_stride, TINYBLAS_API_INT,         \
        tinyblas_stride, const T_*, tinyblas_stride, TINYBLAS_API_INT, tinyblas_stride,          \
        TINYBLAS_API_INT, T_*, T_*)
