// Example library for rocm-miner tests. MIT licence.
#pragma once

#include "check_numerics.hpp"
#include "handle.hpp"
#include "int64_helpers.hpp"
#include "logging.hpp"
#include "macros.hpp"
#include "tinyblas_axpy.hpp"
#include "utility.hpp"

namespace
{
    template <typename API_INT, typename T>
    tinyblas_status tinyblas_axpy_impl(tinyblas_handle handle, API_INT n, const T* alpha,
                                       const T* x, API_INT incx, T* y, API_INT incy)
    {
        if(!handle)
            return tinyblas_status_invalid_handle;
        RETURN_ZERO_DEVICE_MEMORY_SIZE_IF_QUERIED(handle);

        if(handle->layer_mode & tinyblas_layer_mode_log_trace)
            log_trace(handle, TINYBLAS_API_STR(tinyblas_axpy), n, x, incx, y, incy);
        if(handle->layer_mode & tinyblas_layer_mode_log_bench)
            log_bench(handle, "-f axpy -r", precision_string<T>, "-n", n, "--incx", incx, "--incy", incy);

        if(n <= 0)
            return tinyblas_status_success;
        if(!alpha || !x || !y)
            return tinyblas_status_invalid_pointer;

        if(handle->check_numerics)
            RETURN_IF_TINYBLAS_ERROR(tinyblas_internal_check_numerics_vector_template(
                "axpy", handle, n, x, 0, incx, 0, 1, handle->check_numerics, true));

        return TINYBLAS_API(tinyblas_internal_axpy_template)<T, T>(handle, n, alpha, x, 0, incx, y, 0, incy);
    }
} // namespace

#ifdef IMPL
#error IMPL ALREADY DEFINED
#endif

#define IMPL(name_, TI_, T_)                                                                  \
    tinyblas_status name_(tinyblas_handle handle, TI_ n, const T_* alpha, const T_* x,        \
                          TI_ incx, T_* y, TI_ incy)                                          \
    try                                                                                       \
    {                                                                                         \
        return tinyblas_axpy_impl<TI_>(handle, n, alpha, x, incx, y, incy);                   \
    }                                                                                         \
    catch(...)                                                                                \
    {                                                                                         \
        return exception_to_tinyblas_status();                                                \
    }

#define INST_AXPY_C_API(TI_)                                              \
    extern "C" {                                                          \
    IMPL(TINYBLAS_API(tinyblas_saxpy), TI_, float);                       \
    IMPL(TINYBLAS_API(tinyblas_daxpy), TI_, double);                      \
    IMPL(TINYBLAS_API(tinyblas_caxpy), TI_, tinyblas_float_complex);      \
    IMPL(TINYBLAS_API(tinyblas_zaxpy), TI_, tinyblas_double_complex);     \
    } // extern "C"
