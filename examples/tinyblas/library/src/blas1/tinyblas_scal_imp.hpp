// Example library for rocm-miner tests. MIT licence.
// scal C API, generated for LP64 (blas1/tinyblas_scal.cpp) and ILP64
// (src64/blas1/tinyblas_scal_64.cpp) from the same IMPL/INST macros.
#pragma once

#include "check_numerics.hpp"
#include "handle.hpp"
#include "int64_helpers.hpp"
#include "logging.hpp"
#include "tinyblas_scal.hpp"
#include "utility.hpp"

namespace
{
    template <typename T, typename U = T>
    constexpr const char* tinyblas_scal_name = "unknown";
    template <>
    constexpr const char* tinyblas_scal_name<float> = TINYBLAS_API_STR(tinyblas_sscal);
    template <>
    constexpr const char* tinyblas_scal_name<double> = TINYBLAS_API_STR(tinyblas_dscal);
    template <>
    constexpr const char* tinyblas_scal_name<tinyblas_half> = TINYBLAS_API_STR(tinyblas_hscal);
    template <>
    constexpr const char* tinyblas_scal_name<tinyblas_float_complex> = TINYBLAS_API_STR(tinyblas_cscal);
    template <>
    constexpr const char* tinyblas_scal_name<tinyblas_double_complex> = TINYBLAS_API_STR(tinyblas_zscal);
    template <>
    constexpr const char* tinyblas_scal_name<tinyblas_float_complex, float> = TINYBLAS_API_STR(tinyblas_csscal);
    template <>
    constexpr const char* tinyblas_scal_name<tinyblas_double_complex, double> = TINYBLAS_API_STR(tinyblas_zdscal);

    template <typename API_INT, typename T, typename U>
    tinyblas_status tinyblas_scal_impl(tinyblas_handle handle, API_INT n, const U* alpha, T* x, API_INT incx)
    {
        if(!handle)
            return tinyblas_status_invalid_handle;

        RETURN_ZERO_DEVICE_MEMORY_SIZE_IF_QUERIED(handle);

        auto layer_mode     = handle->layer_mode;
        auto check_numerics = handle->check_numerics;

        if(layer_mode & tinyblas_layer_mode_log_trace)
            log_trace(handle, tinyblas_scal_name<T, U>, n, x, incx);
        if(layer_mode & tinyblas_layer_mode_log_bench)
            log_bench(handle, "-f scal --a_type", precision_string<T>, "--b_type",
                      precision_string<U>, "-n", n, "--incx", incx);

        if(n <= 0 || incx <= 0)
            return tinyblas_status_success;
        if(!x || !alpha)
            return tinyblas_status_invalid_pointer;

        if(check_numerics)
        {
            tinyblas_status st = tinyblas_internal_check_numerics_vector_template(
                tinyblas_scal_name<T, U>, handle, n, x, 0, incx, 0, 1, check_numerics, true);
            if(st != tinyblas_status_success)
                return st;
        }

        tinyblas_status status = TINYBLAS_API(tinyblas_internal_scal_template)<T, U>(
            handle, n, alpha, 0, x, 0, incx, 0, 1);
        if(status != tinyblas_status_success)
            return status;

        if(check_numerics)
            return tinyblas_internal_check_numerics_vector_template(
                tinyblas_scal_name<T, U>, handle, n, x, 0, incx, 0, 1, check_numerics, false);
        return status;
    }
} // namespace

#ifdef IMPL
#error IMPL ALREADY DEFINED
#endif

#define IMPL(name_, TI_, TA_, T_)                                                           \
    tinyblas_status name_(tinyblas_handle handle, TI_ n, const TA_* alpha, T_* x, TI_ incx) \
    try                                                                                     \
    {                                                                                       \
        return tinyblas_scal_impl<TI_>(handle, n, alpha, x, incx);                          \
    }                                                                                       \
    catch(...)                                                                              \
    {                                                                                       \
        return exception_to_tinyblas_status();                                              \
    }

#define INST_SCAL_C_API(TI_)                                                                         \
    extern "C" {                                                                                     \
    IMPL(TINYBLAS_API(tinyblas_sscal), TI_, float, float);                                           \
    IMPL(TINYBLAS_API(tinyblas_dscal), TI_, double, double);                                         \
    IMPL(TINYBLAS_API(tinyblas_hscal), TI_, tinyblas_half, tinyblas_half);                           \
    IMPL(TINYBLAS_API(tinyblas_cscal), TI_, tinyblas_float_complex, tinyblas_float_complex);         \
    IMPL(TINYBLAS_API(tinyblas_zscal), TI_, tinyblas_double_complex, tinyblas_double_complex);       \
    IMPL(TINYBLAS_API(tinyblas_csscal), TI_, float, tinyblas_float_complex);                         \
    IMPL(TINYBLAS_API(tinyblas_zdscal), TI_, double, tinyblas_double_complex);                       \
    } // extern "C"
