// Example library for rocm-miner tests. MIT licence.
#pragma once

#include "handle.hpp"
#include "int64_helpers.hpp"

template <typename T>
tinyblas_status TINYBLAS_API(tinyblas_internal_gemv_template)(tinyblas_handle    handle,
                                                              tinyblas_operation transA,
                                                              TINYBLAS_API_INT   m,
                                                              TINYBLAS_API_INT   n,
                                                              const T*           alpha,
                                                              const T*           A,
                                                              TINYBLAS_API_INT   lda,
                                                              const T*           x,
                                                              TINYBLAS_API_INT   incx,
                                                              const T*           beta,
                                                              T*                 y,
                                                              TINYBLAS_API_INT   incy);
