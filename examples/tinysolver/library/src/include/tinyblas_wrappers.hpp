// Example library for rocm-miner tests. MIT licence.
// Calls into the sibling library tinyblas through its exported internal
// templates (mirrors rocSOLVER's rocblas.hpp / rocblasCall_* wrappers).
#pragma once

#include "internal/tinyblas-exported-proto.hpp"
#include "tinysolver_logger.hpp"
#include <type_traits>

// host-side constant of any tinyblas type
template <typename T>
inline T ts_host_scalar(double v)
{
    if constexpr(std::is_same_v<T, float> || std::is_same_v<T, double>)
        return T(v);
    else
        return T{decltype(T{}.x)(v), 0};
}

// x := alpha * x, alpha in device memory (one per batch instance)
template <typename T>
tinyblas_status tinysolver_scal(tinyblas_handle handle, tinyblas_int n, const T* alpha,
                                tinyblas_stride stride_alpha, T* x, tinyblas_stride offset_x,
                                tinyblas_int incx, tinyblas_stride stride_x, tinyblas_int batch_count)
{
    TINYSOLVER_ENTER("scal", "n:", n, "shiftX:", offset_x, "bc:", batch_count);
    tinyblas_pointer_mode old_mode;
    tinyblas_get_pointer_mode(handle, &old_mode);
    tinyblas_set_pointer_mode(handle, tinyblas_pointer_mode_device);
    tinyblas_status st = tinyblas_internal_scal_template<T, T>(handle, n, alpha, stride_alpha, x,
                                                               offset_x, incx, stride_x, batch_count);
    tinyblas_set_pointer_mode(handle, old_mode);
    return st;
}

template <typename T>
tinyblas_status tinysolver_scal(tinyblas_handle handle, tinyblas_int n, const T* alpha,
                                tinyblas_stride stride_alpha, T* const* x, tinyblas_stride offset_x,
                                tinyblas_int incx, tinyblas_stride stride_x, tinyblas_int batch_count)
{
    TINYSOLVER_ENTER("scal_batched", "n:", n, "shiftX:", offset_x, "bc:", batch_count);
    tinyblas_pointer_mode old_mode;
    tinyblas_get_pointer_mode(handle, &old_mode);
    tinyblas_set_pointer_mode(handle, tinyblas_pointer_mode_device);
    tinyblas_status st = tinyblas_internal_scal_batched_template<T, T>(
        handle, n, alpha, stride_alpha, x, offset_x, incx, stride_x, batch_count);
    tinyblas_set_pointer_mode(handle, old_mode);
    return st;
}

// B := inv(L) * B with L unit lower triangular (left side)
template <typename T>
tinyblas_status tinysolver_trsm_llnu(tinyblas_handle handle, tinyblas_int m, tinyblas_int n, T* A,
                                     tinyblas_stride offset_A, tinyblas_int lda, tinyblas_stride stride_A,
                                     T* B, tinyblas_stride offset_B, tinyblas_int ldb,
                                     tinyblas_stride stride_B, tinyblas_int batch_count)
{
    TINYSOLVER_ENTER("trsm", "m:", m, "n:", n, "bc:", batch_count);
    const T one = ts_host_scalar<T>(1.0);
    tinyblas_set_pointer_mode(handle, tinyblas_pointer_mode_host);
    return tinyblas_internal_trsm_template<T>(handle, tinyblas_side_left, tinyblas_fill_lower,
                                              tinyblas_operation_none, tinyblas_diagonal_unit, m, n,
                                              &one, A, offset_A, lda, stride_A, B, offset_B, ldb,
                                              stride_B, batch_count);
}

template <typename T>
tinyblas_status tinysolver_trsm_llnu(tinyblas_handle handle, tinyblas_int m, tinyblas_int n,
                                     T* const* A, tinyblas_stride offset_A, tinyblas_int lda,
                                     tinyblas_stride stride_A, T* const* B, tinyblas_stride offset_B,
                                     tinyblas_int ldb, tinyblas_stride stride_B, tinyblas_int batch_count)
{
    TINYSOLVER_ENTER("trsm_batched", "m:", m, "n:", n, "bc:", batch_count);
    const T one = ts_host_scalar<T>(1.0);
    tinyblas_set_pointer_mode(handle, tinyblas_pointer_mode_host);
    return tinyblas_internal_trsm_batched_template<T>(
        handle, tinyblas_side_left, tinyblas_fill_lower, tinyblas_operation_none,
        tinyblas_diagonal_unit, m, n, &one, A, offset_A, lda, stride_A, B, offset_B, ldb, stride_B,
        batch_count);
}

// C := C - A * B
template <typename T>
tinyblas_status tinysolver_gemm_update(tinyblas_handle handle, tinyblas_int m, tinyblas_int n,
                                       tinyblas_int k, T* A, tinyblas_stride offset_A, tinyblas_int lda,
                                       T* B, tinyblas_stride offset_B, tinyblas_int ldb, T* C,
                                       tinyblas_stride offset_C, tinyblas_int ldc, tinyblas_stride stride,
                                       tinyblas_int batch_count)
{
    TINYSOLVER_ENTER("gemm", "m:", m, "n:", n, "k:", k, "bc:", batch_count);
    const T one = ts_host_scalar<T>(1.0), minus_one = ts_host_scalar<T>(-1.0);
    tinyblas_set_pointer_mode(handle, tinyblas_pointer_mode_host);
    return tinyblas_internal_gemm_template<T>(handle, tinyblas_operation_none, tinyblas_operation_none,
                                              m, n, k, &minus_one, A, offset_A, lda, stride, B,
                                              offset_B, ldb, stride, &one, C, offset_C, ldc, stride,
                                              batch_count);
}

template <typename T>
tinyblas_status tinysolver_gemm_update(tinyblas_handle handle, tinyblas_int m, tinyblas_int n,
                                       tinyblas_int k, T* const* A, tinyblas_stride offset_A,
                                       tinyblas_int lda, T* const* B, tinyblas_stride offset_B,
                                       tinyblas_int ldb, T* const* C, tinyblas_stride offset_C,
                                       tinyblas_int ldc, tinyblas_stride stride, tinyblas_int batch_count)
{
    TINYSOLVER_ENTER("gemm_batched", "m:", m, "n:", n, "k:", k, "bc:", batch_count);
    const T one = ts_host_scalar<T>(1.0), minus_one = ts_host_scalar<T>(-1.0);
    tinyblas_set_pointer_mode(handle, tinyblas_pointer_mode_host);
    return tinyblas_internal_gemm_batched_template<T>(
        handle, tinyblas_operation_none, tinyblas_operation_none, m, n, k, &minus_one, A, offset_A,
        lda, stride, B, offset_B, ldb, stride, &one, C, offset_C, ldc, stride, batch_count);
}
