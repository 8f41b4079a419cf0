// Example library for rocm-miner tests. MIT licence.
// scal kernels and the launcher shared by the LP64 and ILP64 builds.
#pragma once

#include "device_helpers.hpp"
#include "handle.hpp"
#include "macros.hpp"
#include <type_traits>

// contiguous x (incx == 1)
template <typename API_INT, int NB, typename T, typename Ta, typename Tx>
TINYBLAS_KERNEL(NB)
tinyblas_scal_kernel(API_INT n, Ta alpha_dev_host, tinyblas_stride stride_alpha, Tx xa,
                     tinyblas_stride offset_x, tinyblas_stride stride_x)
{
    auto    alpha = load_scalar(alpha_dev_host, blockIdx.z, stride_alpha);
    T*      x     = load_ptr_batch(xa, blockIdx.z, offset_x, stride_x);
    int64_t tid   = blockIdx.x * int64_t(NB) + threadIdx.x;
    if(tid < n)
        x[tid] = tb_mul(alpha, x[tid]);
}

// strided x (incx != 1)
template <typename API_INT, int NB, typename T, typename Ta, typename Tx>
TINYBLAS_KERNEL(NB)
tinyblas_scal_strided_kernel(API_INT n, Ta alpha_dev_host, tinyblas_stride stride_alpha, Tx xa,
                             tinyblas_stride offset_x, API_INT incx, tinyblas_stride stride_x)
{
    auto    alpha = load_scalar(alpha_dev_host, blockIdx.z, stride_alpha);
    T*      x     = load_ptr_batch(xa, blockIdx.z, offset_x, stride_x);
    int64_t tid   = blockIdx.x * int64_t(NB) + threadIdx.x;
    if(tid < n)
        x[tid * incx] = tb_mul(alpha, x[tid * incx]);
}

// half precision only: two elements per thread when contiguous
template <typename API_INT, int NB, typename Ta, typename Tx>
TINYBLAS_KERNEL(NB)
tinyblas_hscal_2_kernel(API_INT n, Ta alpha_dev_host, tinyblas_stride stride_alpha, Tx xa,
                        tinyblas_stride offset_x, API_INT incx, tinyblas_stride stride_x)
{
    tinyblas_half  alpha = load_scalar(alpha_dev_host, blockIdx.z, stride_alpha);
    tinyblas_half* x     = load_ptr_batch(xa, blockIdx.z, offset_x, stride_x);
    int64_t        tid   = blockIdx.x * int64_t(NB) + threadIdx.x;
    if(incx == 1)
    {
        int64_t i = 2 * tid;
        if(tid < tb_pairs(n))
            x[i] = tb_half_mul(alpha, x[i]);
        if(i + 1 < n)
            x[i + 1] = tb_half_mul(alpha, x[i + 1]);
    }
    else if(tid < n)
        x[tid * incx] = tb_half_mul(alpha, x[tid * incx]);
}

// dispatch on type (if constexpr), increment and pointer mode
template <typename API_INT, int NB, typename T, typename U, typename Tx>
tinyblas_status tinyblas_scal_launcher(tinyblas_handle handle,
                                       API_INT         n,
                                       const U*        alpha,
                                       tinyblas_stride stride_alpha,
                                       Tx              x,
                                       tinyblas_stride offset_x,
                                       API_INT         incx,
                                       tinyblas_stride stride_x,
                                       API_INT         batch_count)
{
    if(n <= 0 || incx <= 0 || batch_count <= 0)
        return tinyblas_status_success;

    hipStream_t stream      = handle->get_stream();
    bool        device_mode = handle->pointer_mode == tinyblas_pointer_mode_device;
    dim3        threads(NB);

    if constexpr(std::is_same_v<T, tinyblas_half>)
    {
        int64_t work = incx == 1 ? (int64_t(n) + 1) / 2 : int64_t(n);
        dim3    grid((work - 1) / NB + 1, 1, batch_count);
        if(device_mode)
            TINYBLAS_LAUNCH_KERNEL((tinyblas_hscal_2_kernel<API_INT, NB>), grid, threads, 0, stream,
                                   n, alpha, stride_alpha, x, offset_x, incx, stride_x);
        else
            TINYBLAS_LAUNCH_KERNEL((tinyblas_hscal_2_kernel<API_INT, NB>), grid, threads, 0, stream,
                                   n, *alpha, stride_alpha, x, offset_x, incx, stride_x);
    }
    else
    {
        dim3 grid((int64_t(n) - 1) / NB + 1, 1, batch_count);
        if(incx == 1)
        {
            if(device_mode)
                TINYBLAS_LAUNCH_KERNEL((tinyblas_scal_kernel<API_INT, NB, T>), grid, threads, 0, stream,
                                       n, alpha, stride_alpha, x, offset_x, stride_x);
            else
                TINYBLAS_LAUNCH_KERNEL((tinyblas_scal_kernel<API_INT, NB, T>), grid, threads, 0, stream,
                                       n, *alpha, stride_alpha, x, offset_x, stride_x);
        }
        else
        {
            if(device_mode)
                TINYBLAS_LAUNCH_KERNEL((tinyblas_scal_strided_kernel<API_INT, NB, T>), grid, threads, 0,
                                       stream, n, alpha, stride_alpha, x, offset_x, incx, stride_x);
            else
                TINYBLAS_LAUNCH_KERNEL((tinyblas_scal_strided_kernel<API_INT, NB, T>), grid, threads, 0,
                                       stream, n, *alpha, stride_alpha, x, offset_x, incx, stride_x);
        }
    }
    return tinyblas_status_success;
}

#define INST_SCAL_TEMPLATES(T_, U_)                                                                     \
    template tinyblas_status TINYBLAS_API(tinyblas_internal_scal_template)<T_, U_>(                     \
        tinyblas_handle, TINYBLAS_API_INT, const U_*, tinyblas_stride, T_*, tinyblas_stride,            \
        TINYBLAS_API_INT, tinyblas_stride, TINYBLAS_API_INT);                                           \
    template tinyblas_status TINYBLAS_API(tinyblas_internal_scal_batched_template)<T_, U_>(             \
        tinyblas_handle, TINYBLAS_API_INT, const U_*, tinyblas_stride, T_* const*, tinyblas_stride,     \
        TINYBLAS_API_INT, tinyblas_stride, TINYBLAS_API_INT)

#define INST_SCAL_ALL_TYPES()                                       \
    INST_SCAL_TEMPLATES(float, float);                              \
    INST_SCAL_TEMPLATES(double, double);                            \
    INST_SCAL_TEMPLATES(tinyblas_half, tinyblas_half);              \
    INST_SCAL_TEMPLATES(tinyblas_float_complex, tinyblas_float_complex);   \
    INST_SCAL_TEMPLATES(tinyblas_double_complex, tinyblas_double_complex); \
    INST_SCAL_TEMPLATES(tinyblas_float_complex, float);             \
    INST_SCAL_TEMPLATES(tinyblas_double_complex, double)
