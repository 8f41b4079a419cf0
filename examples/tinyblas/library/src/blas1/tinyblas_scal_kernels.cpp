// Example library for rocm-miner tests. MIT licence.
// LP64 internal scal templates.
#include "tinyblas_scal.hpp"
#include "tinyblas_scal_kernels.hpp"

template <typename T, typename U>
tinyblas_status TINYBLAS_API(tinyblas_internal_scal_template)(tinyblas_handle  handle,
                                                              TINYBLAS_API_INT n,
                                                              const U*         alpha,
                                                              tinyblas_stride  stride_alpha,
                                                              T*               x,
                                                              tinyblas_stride  offset_x,
                                                              TINYBLAS_API_INT incx,
                                                              tinyblas_stride  stride_x,
                                                              TINYBLAS_API_INT batch_count)
{
    return tinyblas_scal_launcher<TINYBLAS_API_INT, TINYBLAS_SCAL_NB, T, U>(
        handle, n, alpha, stride_alpha, x, offset_x, incx, stride_x, batch_count);
}

template <typename T, typename U>
tinyblas_status TINYBLAS_API(tinyblas_internal_scal_batched_template)(tinyblas_handle  handle,
                                                                      TINYBLAS_API_INT n,
                                                                      const U*         alpha,
                                                                      tinyblas_stride  stride_alpha,
                                                                      T* const*        x,
                                                                      tinyblas_stride  offset_x,
                                                                      TINYBLAS_API_INT incx,
                                                                      tinyblas_stride  stride_x,
                                                                      TINYBLAS_API_INT batch_count)
{
    return tinyblas_scal_launcher<TINYBLAS_API_INT, TINYBLAS_SCAL_NB, T, U>(
        handle, n, alpha, stride_alpha, x, offset_x, incx, stride_x, batch_count);
}

INST_SCAL_ALL_TYPES();
