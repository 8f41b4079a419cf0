// Example library for rocm-miner tests. MIT licence.
// Only side=left, uplo=lower, transA=none is implemented.
#pragma once

#include "handle.hpp"
#include "int64_helpers.hpp"

template <typename T>
tinyblas_status TINYBLAS_API(tinyblas_internal_trsm_template)(tinyblas_handle    handle,
                                                              tinyblas_side      side,
                                                              tinyblas_fill      uplo,
                                                              tinyblas_operation transA,
                                                              tinyblas_diagonal  diag,
                                                              TINYBLAS_API_INT   m,
                                                              TINYBLAS_API_INT   n,
                                                              const T*           alpha,
                                                              const T*           A,
                                                              tinyblas_stride    offset_A,
                                                              TINYBLAS_API_INT   lda,
                                                              tinyblas_stride    stride_A,
                                                              T*                 B,
                                                              tinyblas_stride    offset_B,
                                                              TINYBLAS_API_INT   ldb,
                                                              tinyblas_stride    stride_B,
                                                              TINYBLAS_API_INT   batch_count);

template <typename T>
tinyblas_status TINYBLAS_API(tinyblas_internal_trsm_batched_template)(tinyblas_handle    handle,
                                                                      tinyblas_side      side,
                                                                      tinyblas_fill      uplo,
                                                                      tinyblas_operation transA,
                                                                      tinyblas_diagonal  diag,
                                                                      TINYBLAS_API_INT   m,
                                                                      TINYBLAS_API_INT   n,
                                                                      const T*           alpha,
                                                                      const T* const*    A,
                                                                      tinyblas_stride    offset_A,
                                                                      TINYBLAS_API_INT   lda,
                                                                      tinyblas_stride    stride_A,
                                                                      T* const*          B,
                                                                      tinyblas_stride    offset_B,
                                                                      TINYBLAS_API_INT   ldb,
                                                                      tinyblas_stride    stride_B,
                                                                      TINYBLAS_API_INT   batch_count);
