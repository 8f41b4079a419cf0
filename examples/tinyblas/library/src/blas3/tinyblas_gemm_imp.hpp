// Example library for rocm-miner tests. MIT licence.
#pragma once

#include "handle.hpp"
#include "int64_helpers.hpp"
#include "logging.hpp"
#include "tinyblas_gemm.hpp"
#include "utility.hpp"

namespace
{
    template <typename API_INT, typename T>
    tinyblas_status tinyblas_gemm_impl(tinyblas_handle handle, tinyblas_operation transA,
                                       tinyblas_operation transB, API_INT m, API_INT n, API_INT k,
                                       const T* alpha, const T* A, API_INT lda, const T* B,
                                       API_INT ldb, const T* beta, T* C, API_INT ldc)
    {
        if(!handle)
            return tinyblas_status_invalid_handle;
        RETURN_ZERO_DEVICE_MEMORY_SIZE_IF_QUERIED(handle);

        if(handle->layer_mode & tinyblas_layer_mode_log_trace)
            log_trace(handle, TINYBLAS_API_STR(tinyblas_gemm), transA, transB, m, n, k, A, lda, B,
                      ldb, C, ldc);
        if(handle->layer_mode & tinyblas_layer_mode_log_bench)
            log_bench(handle, "-f gemm -r", precision_string<T>, "--transposeA", transA,
                      "--transposeB", transB, "-m", m, "-n", n, "-k", k);

        if(!tinyblas_is_op(transA) || !tinyblas_is_op(transB))
            return tinyblas_status_invalid_value;
        API_INT rows_a = transA == tinyblas_operation_none ? m : k;
        API_INT rows_b = transB == tinyblas_operation_none ? k : n;
        if(m < 0 || n < 0 || k < 0 || lda < rows_a || ldb < rows_b || ldc < m)
            return tinyblas_status_invalid_size;
        if(!m || !n)
            return tinyblas_status_success;
        if(!alpha || !beta || !C || (k && (!A || !B)))
            return tinyblas_status_invalid_pointer;

        return TINYBLAS_API(tinyblas_internal_gemm_template)<T>(
            handle, transA, transB, m, n, k, alpha, A, 0, lda, 0, B, 0, ldb, 0, beta, C, 0, ldc, 0, 1);
    }
} // namespace

#ifdef IMPL
#error IMPL ALREADY DEFINED
#endif

#define IMPL(name_, TI_, T_)                                                                      \
    tinyblas_status name_(tinyblas_handle handle, tinyblas_operation transA,                      \
                          tinyblas_operation transB, TI_ m, TI_ n, TI_ k, const T_* alpha,        \
                          const T_* A, TI_ lda, const T_* B, TI_ ldb, const T_* beta, T_* C,      \
                          TI_ ldc)                                                                \
    try                                                                                           \
    {                                                                                             \
        return tinyblas_gemm_impl<TI_>(handle, transA, transB, m, n, k, alpha, A, lda, B, ldb,    \
                                       beta, C, ldc);                                             \
    }                                                                                             \
    catch(...)                                                                                    \
    {                                                                                             \
        return exception_to_tinyblas_status();                                                    \
    }

#define INST_GEMM_C_API(TI_)                                          \
    extern "C" {                                                      \
    IMPL(TINYBLAS_API(tinyblas_sgemm), TI_, float);                   \
    IMPL(TINYBLAS_API(tinyblas_dgemm), TI_, double);                  \
    IMPL(TINYBLAS_API(tinyblas_cgemm), TI_, tinyblas_float_complex);  \
    IMPL(TINYBLAS_API(tinyblas_zgemm), TI_, tinyblas_double_complex); \
    } // extern "C"
