// Example library for rocm-miner tests. MIT licence.
// Internal scal templates. TINYBLAS_API(...) gives the _64 names when the
// including TU is compiled with -DTINYBLAS_INTERNAL_ILP64.
#pragma once

#include "handle.hpp"
#include "int64_helpers.hpp"

template <typename T, typename U>
tinyblas_status TINYBLAS_API(tinyblas_internal_scal_template)(tinyblas_handle  handle,
                                                              TINYBLAS_API_INT n,
                                                              const U*         alpha,
                                                              tinyblas_stride  stride_alpha,
                                                              T*               x,
                                                              tinyblas_stride  offset_x,
                                                              TINYBLAS_API_INT incx,
                                                              tinyblas_stride  stride_x,
                                                              TINYBLAS_API_INT batch_count);

template <typename T, typename U>
tinyblas_status TINYBLAS_API(tinyblas_internal_scal_batched_template)(tinyblas_handle  handle,
                                                                      TINYBLAS_API_INT n,
                                                                      const U*         alpha,
                                                                      tinyblas_stride  stride_alpha,
                                                                      T* const*        x,
                                                                      tinyblas_stride  offset_x,
                                                                      TINYBLAS_API_INT incx,
                                                                      tinyblas_stride  stride_x,
                                                                      TINYBLAS_API_INT batch_count);
