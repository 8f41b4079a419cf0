// Example library for rocm-miner tests. MIT licence.
// C++-only prototypes of internal templates that tinyblas exports for sibling
// libraries such as tinysolver (mirrors rocblas-exported-proto.hpp).
#pragma once

#include "internal/tinyblas-export.h"
#include "tinyblas-types.h"

// Defined in code tinyblas generates at build time, absent from a checkout: a sibling library sees only this.
tinyblas_status tinyblas_workspace_hint(tinyblas_handle handle, size_t* bytes);

template <typename T, typename U>
TINYBLAS_EXPORT tinyblas_status tinyblas_internal_scal_template(tinyblas_handle handle, tinyblas_int n, const U* alpha, tinyblas_stride stride_alpha, T* x, tinyblas_stride offset_x, tinyblas_int incx, tinyblas_stride stride_x, tinyblas_int batch_count);

template <typename T, typename U>
TINYBLAS_EXPORT tinyblas_status tinyblas_internal_scal_batched_template(tinyblas_handle handle, tinyblas_int n, const U* alpha, tinyblas_stride stride_alpha, T* const* x, tinyblas_stride offset_x, tinyblas_int incx, tinyblas_stride stride_x, tinyblas_int batch_count);

template <typename T>
TINYBLAS_EXPORT tinyblas_status tinyblas_internal_gemm_template(tinyblas_handle handle, tinyblas_operation transA, tinyblas_operation transB, tinyblas_int m, tinyblas_int n, tinyblas_int k, const T* alpha, const T* A, tinyblas_stride offset_A, tinyblas_int lda, tinyblas_stride stride_A, const T* B, tinyblas_stride offset_B, tinyblas_int ldb, tinyblas_stride stride_B, const T* beta, T* C, tinyblas_stride offset_C, tinyblas_int ldc, tinyblas_stride stride_C, tinyblas_int batch_count);

template <typename T>
TINYBLAS_EXPORT tinyblas_status tinyblas_internal_gemm_batched_template(tinyblas_handle handle, tinyblas_operation transA, tinyblas_operation transB, tinyblas_int m, tinyblas_int n, tinyblas_int k, const T* alpha, const T* const* A, tinyblas_stride offset_A, tinyblas_int lda, tinyblas_stride stride_A, const T* const* B, tinyblas_stride offset_B, tinyblas_int ldb, tinyblas_stride stride_B, const T* beta, T* const* C, tinyblas_stride offset_C, tinyblas_int ldc, tinyblas_stride stride_C, tinyblas_int batch_count);

template <typename T>
TINYBLAS_EXPORT tinyblas_status tinyblas_internal_trsm_template(tinyblas_handle handle, tinyblas_side side, tinyblas_fill uplo, tinyblas_operation transA, tinyblas_diagonal diag, tinyblas_int m, tinyblas_int n, const T* alpha, const T* A, tinyblas_stride offset_A, tinyblas_int lda, tinyblas_stride stride_A, T* B, tinyblas_stride offset_B, tinyblas_int ldb, tinyblas_stride stride_B, tinyblas_int batch_count);

template <typename T>
TINYBLAS_EXPORT tinyblas_status tinyblas_internal_trsm_batched_template(tinyblas_handle handle, tinyblas_side side, tinyblas_fill uplo, tinyblas_operation transA, tinyblas_diagonal diag, tinyblas_int m, tinyblas_int n, const T* alpha, const T* const* A, tinyblas_stride offset_A, tinyblas_int lda, tinyblas_stride stride_A, T* const* B, tinyblas_stride offset_B, tinyblas_int ldb, tinyblas_stride stride_B, tinyblas_int batch_count);
