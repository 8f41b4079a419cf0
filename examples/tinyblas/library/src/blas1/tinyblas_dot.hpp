// Example library for rocm-miner tests. MIT licence.
#pragma once

#include "handle.hpp"
#include "int64_helpers.hpp"

// results: host or device memory depending on handle->pointer_mode;
// workspace: device memory of tinyblas_reduction_workspace_size<TINYBLAS_DOT_NB, T>(n, batch_count) bytes
template <bool CONJ, typename T>
tinyblas_status TINYBLAS_API(tinyblas_internal_dot_template)(tinyblas_handle  handle,
                                                             TINYBLAS_API_INT n,
                                                             const T*         x,
                                                             tinyblas_stride  offset_x,
                                                             TINYBLAS_API_INT incx,
                                                             tinyblas_stride  stride_x,
                                                             const T*         y,
                                                             tinyblas_stride  offset_y,
                                                             TINYBLAS_API_INT incy,
                                                             tinyblas_stride  stride_y,
                                                             TINYBLAS_API_INT batch_count,
                                                             T*               results,
                                                             T*               workspace);
