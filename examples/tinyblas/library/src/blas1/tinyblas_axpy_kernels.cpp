// Example library for rocm-miner tests. MIT licence.
// axpy kernels, launched with the triple-chevron syntax.
#include "device_helpers.hpp"
#include "macros.hpp"
#include "tinyblas_axpy.hpp"
#include <type_traits>

// plain (non-template) kernel, declared without the TINYBLAS_KERNEL macro:
// single precision, unit increments, host alpha
__global__ void tinyblas_saxpy_unit_kernel(int n, float alpha, const float* x, float* y)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if(i < n)
        y[i] += alpha * x[i];
}

template <int NB, typename T, typename Ta>
TINYBLAS_KERNEL(NB)
tinyblas_axpy_kernel(int64_t n, Ta alpha_dev_host, const T* x, int64_t incx, T* y, int64_t incy)
{
    auto    alpha = load_scalar(alpha_dev_host, 0, 0);
    int64_t i     = blockIdx.x * int64_t(NB) + threadIdx.x;
    if(i < n)
        y[i * incy] = tb_fma(alpha, x[i * incx], y[i * incy]);
}

// gfx94x and newer: four elements per thread
template <int NB, typename T, typename Ta>
TINYBLAS_KERNEL(NB)
tinyblas_axpy_unrolled_kernel(int64_t n, Ta alpha_dev_host, const T* x, int64_t incx, T* y, int64_t incy)
{
    auto    alpha = load_scalar(alpha_dev_host, 0, 0);
    int64_t base  = (blockIdx.x * int64_t(NB) + threadIdx.x) * 4;
#pragma unroll
    for(int u = 0; u < 4; ++u)
    {
        int64_t i = base + u;
        if(i < n)
            y[i * incy] = tb_fma(alpha, x[i * incx], y[i * incy]);
    }
}

// double precision, unit increments: two elements per thread
template <int NB, typename T>
TINYBLAS_KERNEL(NB)
tinyblas_daxpy_pair_kernel(int64_t n, T alpha, const T* x, T* y)
{
    int64_t i = (blockIdx.x * int64_t(NB) + threadIdx.x) * 2;
    if(i < n)
        y[i] = tb_fma(alpha, x[i], y[i]);
    if(i + 1 < n)
        y[i + 1] = tb_fma(alpha, x[i + 1], y[i + 1]);
}

template <typename T, typename Ta>
tinyblas_status TINYBLAS_API(tinyblas_internal_axpy_template)(tinyblas_handle  handle,
                                                              TINYBLAS_API_INT n,
                                                              const Ta*        alpha,
                                                              const T*         x,
                                                              tinyblas_stride  offset_x,
                                                              TINYBLAS_API_INT incx,
                                                              T*               y,
                                                              tinyblas_stride  offset_y,
                                                              TINYBLAS_API_INT incy)
{
    if(n <= 0)
        return tinyblas_status_success;

    constexpr int NB          = TINYBLAS_AXPY_NB;
    hipStream_t   stream      = handle->get_stream();
    bool          device_mode = handle->pointer_mode == tinyblas_pointer_mode_device;
    // negative increments start at the far end
    const T* xs = x + offset_x - (incx < 0 ? int64_t(incx) * (n - 1) : 0);
    T*       ys = y + offset_y - (incy < 0 ? int64_t(incy) * (n - 1) : 0);

    if constexpr(std::is_same_v<T, float> && std::is_same_v<Ta, float>)
    {
        if(!device_mode && *alpha == 0)
            return tinyblas_status_success; // y += 0 * x leaves y as it is
        if(incx == 1 && incy == 1 && !device_mode)
        {
            tinyblas_saxpy_unit_kernel<<<dim3((n - 1) / NB + 1), dim3(NB), 0, stream>>>(n, *alpha, xs, ys);
            return tinyblas_status_success;
        }
    }

    // a plain if on a compile-time flag: the branch exists in every instantiation, but only
    // double can take it
    static constexpr bool using_double = std::is_same_v<T, double> && std::is_same_v<Ta, double>;
    if(using_double && incx == 1 && incy == 1 && !device_mode)
    {
        tinyblas_daxpy_pair_kernel<NB, T>
            <<<dim3((n - 1) / (2 * NB) + 1), dim3(NB), 0, stream>>>(n, *alpha, xs, ys);
        return tinyblas_status_success;
    }

    if(handle->getArch() >= 940)
    {
        dim3 grid((n - 1) / (4 * NB) + 1);
        if(device_mode)
            tinyblas_axpy_unrolled_kernel<NB, T><<<grid, dim3(NB), 0, stream>>>(n, alpha, xs, incx, ys, incy);
        else
            tinyblas_axpy_unrolled_kernel<NB, T><<<grid, dim3(NB), 0, stream>>>(n, *alpha, xs, incx, ys, incy);
    }
    else
    {
        dim3 grid((n - 1) / NB + 1);
        if(device_mode)
            tinyblas_axpy_kernel<NB, T><<<grid, dim3(NB), 0, stream>>>(n, alpha, xs, incx, ys, incy);
        else
            tinyblas_axpy_kernel<NB, T><<<grid, dim3(NB), 0, stream>>>(n, *alpha, xs, incx, ys, incy);
    }
    return hipPeekAtLastError() == hipSuccess ? tinyblas_status_success : tinyblas_status_internal_error;
}

#define INST_AXPY_TEMPLATE(T_, Ta_)                                                               \
    template tinyblas_status TINYBLAS_API(tinyblas_internal_axpy_template)<T_, Ta_>(              \
        tinyblas_handle, TINYBLAS_API_INT, const Ta_*, const T_*, tinyblas_stride,                \
        TINYBLAS_API_INT, T_*, tinyblas_stride, TINYBLAS_API_INT)

INST_AXPY_TEMPLATE(float, float);
INST_AXPY_TEMPLATE(double, double);
INST_AXPY_TEMPLATE(tinyblas_float_complex, tinyblas_float_complex);
INST_AXPY_TEMPLATE(tinyblas_double_complex, tinyblas_double_complex);
