// Example library for rocm-miner tests. MIT licence.
#pragma once

#include "handle.hpp"
#include "int64_helpers.hpp"

template <typename T>
tinyblas_status TINYBLAS_API(tinyblas_internal_gemm_template)(tinyblas_handle    handle,
                                                              tinyblas_operation transA,
                                                              tinyblas_operation transB,
                                                              TINYBLAS_API_INT   m,
                                                              TINYBLAS_API_INT   n,
                                                              TINYBLAS_API_INT   k,
                                                              const T*           alpha,
                                                              const T*           A,
                                                              tinyblas_stride    offset_A,
                                                              TINYBLAS_API_INT   lda,
                                                              tinyblas_stride    stride_A,
                                                              const T*           B,
                                                              tinyblas_stride    offset_B,
                                                              TINYBLAS_API_INT   ldb,
                                                              tinyblas_stride    stride_B,
                                                              const T*           beta,
                                                              T*                 C,
                                                              tinyblas_stride    offset_C,
                                                              TINYBLAS_API_INT   ldc,
                                                              tinyblas_stride    stride_C,
                                                              TINYBLAS_API_INT   batch_count);

template <typename T>
tinyblas_status TINYBLAS_API(tinyblas_internal_gemm_batched_template)(tinyblas_handle    handle,
                                                                      tinyblas_operation transA,
                                                                      tinyblas_operation transB,
                                                                      TINYBLAS_API_INT   m,
                                                                      TINYBLAS_API_INT   n,
                                                                      TINYBLAS_API_INT   k,
                                                                      const T*           alpha,
                                                                      const T* const*    A,
                                                                      tinyblas_stride    offset_A,
                                                                      TINYBLAS_API_INT   lda,
                                                                      tinyblas_stride    stride_A,
                                                                      const T* const*    B,
                                                                      tinyblas_stride    offset_B,
                                                                      TINYBLAS_API_INT   ldb,
                                                                      tinyblas_stride    stride_B,
                                                                      const T*           beta,
                                                                      T* const*          C,
                                                                      tinyblas_stride    offset_C,
                                                                      TINYBLAS_API_INT   ldc,
                                                                      tinyblas_stride    stride_C,
                                                                      TINYBLAS_API_INT   batch_count);
