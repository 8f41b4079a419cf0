// Example library for rocm-miner tests. MIT licence.
#pragma once

#include "handle.hpp"
#include "int64_helpers.hpp"

template <typename T, typename Ta>
tinyblas_status TINYBLAS_API(tinyblas_internal_axpy_template)(tinyblas_handle  handle,
                                                              TINYBLAS_API_INT n,
                                                              const Ta*        alpha,
                                                              const T*         x,
                                                              tinyblas_stride  offset_x,
                                                              TINYBLAS_API_INT incx,
                                                              T*               y,
                                                              tinyblas_stride  offset_y,
                                                              TINYBLAS_API_INT incy);
