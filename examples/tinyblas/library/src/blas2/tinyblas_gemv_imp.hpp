// Example library for rocm-miner tests. MIT licence.
#pragma once

#include "check_numerics.hpp"
#include "handle.hpp"
#include "int64_helpers.hpp"
#include "logging.hpp"
#include "macros.hpp"
#include "tinyblas_gemv.hpp"
#include "utility.hpp"

namespace
{
    template <typename API_INT>
    tinyblas_status tinyblas_gemv_arg_check(tinyblas_operation transA, API_INT m, API_INT n,
                                            API_INT lda, API_INT incx, API_INT incy)
    {
        if(!tinyblas_is_op(transA))
            return tinyblas_status_invalid_value;
        if(m < 0 || n < 0 || lda < m || lda < 1 || !incx || !incy)
            return tinyblas_status_invalid_size;
        return tinyblas_status_continue;
    }

    template <typename API_INT, typename T>
    tinyblas_status tinyblas_gemv_impl(tinyblas_handle handle, tinyblas_operation transA, API_INT m,
                                       API_INT n, const T* alpha, const T* A, API_INT lda,
                                       const T* x, API_INT incx, const T* beta, T* y, API_INT incy)
    {
        if(!handle)
            return tinyblas_status_invalid_handle;
        RETURN_ZERO_DEVICE_MEMORY_SIZE_IF_QUERIED(handle);

        if(handle->layer_mode & tinyblas_layer_mode_log_trace)
            log_trace(handle, TINYBLAS_API_STR(tinyblas_gemv), transA, m, n, A, lda, x, incx, y, incy);
        if(handle->layer_mode & tinyblas_layer_mode_log_bench)
            log_bench(handle, "-f gemv -r", precision_string<T>, "--transposeA", transA, "-m", m,
                      "-n", n, "--lda", lda, "--incx", incx, "--incy", incy);

        tinyblas_status arg_status = tinyblas_gemv_arg_check<API_INT>(transA, m, n, lda, incx, incy);
        if(arg_status != tinyblas_status_continue)
            return arg_status;
        if(!m || !n)
            return tinyblas_status_success;
        if(!alpha || !beta || !A || !x || !y)
            return tinyblas_status_invalid_pointer;

        API_INT xlen = transA == tinyblas_operation_none ? n : m;
        if(handle->check_numerics)
            RETURN_IF_TINYBLAS_ERROR(tinyblas_internal_check_numerics_vector_template(
                "gemv", handle, xlen, x, 0, incx, 0, 1, handle->check_numerics, true));

        return TINYBLAS_API(tinyblas_internal_gemv_template)<T>(handle, transA, m, n, alpha, A, lda,
                                                                x, incx, beta, y, incy);
    }
} // namespace

#ifdef IMPL
#error IMPL ALREADY DEFINED
#endif

#define IMPL(name_, TI_, T_)                                                                      \
    tinyblas_status name_(tinyblas_handle handle, tinyblas_operation transA, TI_ m, TI_ n,        \
                          const T_* alpha, const T_* A, TI_ lda, const T_* x, TI_ incx,           \
                          const T_* beta, T_* y, TI_ incy)                                        \
    try                                                                                           \
    {                                                                                             \
        return tinyblas_gemv_impl<TI_>(handle, transA, m, n, alpha, A, lda, x, incx, beta, y,     \
                                       incy);                                                     \
    }                                                                                             \
    catch(...)                                                                                    \
    {                                                                                             \
        return exception_to_tinyblas_status();                                                    \
    }

#define INST_GEMV_C_API(TI_)                                          \
    extern "C" {                                                      \
    IMPL(TINYBLAS_API(tinyblas_sgemv), TI_, float);                   \
    IMPL(TINYBLAS_API(tinyblas_dgemv), TI_, double);                  \
    IMPL(TINYBLAS_API(tinyblas_cgemv), TI_, tinyblas_float_complex);  \
    IMPL(TINYBLAS_API(tinyblas_zgemv), TI_, tinyblas_double_complex); \
    } // extern "C"
