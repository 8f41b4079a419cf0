// Example library for rocm-miner tests. MIT licence.
// scal_batched and scal_strided_batched C API (LP64 and ILP64).
#pragma once

#include "check_numerics.hpp"
#include "handle.hpp"
#include "int64_helpers.hpp"
#include "logging.hpp"
#include "macros.hpp"
#include "tinyblas_scal.hpp"
#include "utility.hpp"

namespace
{
    template <typename API_INT, typename T>
    tinyblas_status tinyblas_scal_batched_impl(
        tinyblas_handle handle, API_INT n, const T* alpha, T* const x[], API_INT incx, API_INT batch_count)
    {
        if(!handle)
            return tinyblas_status_invalid_handle;
        RETURN_ZERO_DEVICE_MEMORY_SIZE_IF_QUERIED(handle);

        if(handle->layer_mode & tinyblas_layer_mode_log_trace)
            log_trace(handle, TINYBLAS_API_STR(tinyblas_scal_batched), n, x, incx, batch_count);

        if(n <= 0 || incx <= 0 || batch_count <= 0)
            return tinyblas_status_success;
        if(!x || !alpha)
            return tinyblas_status_invalid_pointer;

        if(handle->check_numerics)
            RETURN_IF_TINYBLAS_ERROR(tinyblas_internal_check_numerics_vector_template(
                "scal_batched", handle, n, x, 0, incx, 0, batch_count, handle->check_numerics, true));

        return TINYBLAS_API(tinyblas_internal_scal_batched_template)<T, T>(
            handle, n, alpha, 0, x, 0, incx, 0, batch_count);
    }

    template <typename API_INT, typename T>
    tinyblas_status tinyblas_scal_strided_batched_impl(tinyblas_handle handle,
                                                       API_INT         n,
                                                       const T*        alpha,
                                                       T*              x,
                                                       API_INT         incx,
                                                       tinyblas_stride stride_x,
                                                       API_INT         batch_count)
    {
        if(!handle)
            return tinyblas_status_invalid_handle;
        RETURN_ZERO_DEVICE_MEMORY_SIZE_IF_QUERIED(handle);

        if(handle->layer_mode & tinyblas_layer_mode_log_bench)
            log_bench(handle, "-f scal_strided_batched -r", precision_string<T>, "-n", n,
                      "--incx", incx, "--stride_x", stride_x, "--batch_count", batch_count);

        if(n <= 0 || incx <= 0 || batch_count <= 0)
            return tinyblas_status_success;
        if(!x || !alpha)
            return tinyblas_status_invalid_pointer;

        if(handle->check_numerics)
            RETURN_IF_TINYBLAS_ERROR(tinyblas_internal_check_numerics_vector_template(
                "scal_strided_batched", handle, n, x, 0, incx, stride_x, batch_count,
                handle->check_numerics, true));

        return TINYBLAS_API(tinyblas_internal_scal_template)<T, T>(
            handle, n, alpha, 0, x, 0, incx, stride_x, batch_count);
    }
} // namespace

#define IMPL_BATCHED(name_, TI_, T_)                                                              \
    tinyblas_status name_(                                                                        \
        tinyblas_handle handle, TI_ n, const T_* alpha, T_* const x[], TI_ incx, TI_ batch_count) \
    try                                                                                           \
    {                                                                                             \
        return tinyblas_scal_batched_impl<TI_>(handle, n, alpha, x, incx, batch_count);           \
    }                                                                                             \
    catch(...)                                                                                    \
    {                                                                                             \
        return exception_to_tinyblas_status();                                                    \
    }

#define IMPL_STRIDED_BATCHED(name_, TI_, T_)                                                        \
    tinyblas_status name_(tinyblas_handle handle, TI_ n, const T_* alpha, T_* x, TI_ incx,          \
                          tinyblas_stride stride_x, TI_ batch_count)                                \
    try                                                                                             \
    {                                                                                               \
        return tinyblas_scal_strided_batched_impl<TI_>(handle, n, alpha, x, incx, stride_x,         \
                                                       batch_count);                                \
    }                                                                                               \
    catch(...)                                                                                      \
    {                                                                                               \
        return exception_to_tinyblas_status();                                                      \
    }

#define INST_SCAL_BATCHED_C_API(TI_)                                             \
    extern "C" {                                                                 \
    IMPL_BATCHED(TINYBLAS_API(tinyblas_sscal_batched), TI_, float);              \
    IMPL_BATCHED(TINYBLAS_API(tinyblas_dscal_batched), TI_, double);             \
    IMPL_STRIDED_BATCHED(TINYBLAS_API(tinyblas_sscal_strided_batched), TI_, float);  \
    IMPL_STRIDED_BATCHED(TINYBLAS_API(tinyblas_dscal_strided_batched), TI_, double); \
    } // extern "C"
