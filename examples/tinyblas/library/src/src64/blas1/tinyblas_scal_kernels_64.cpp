// Example library for rocm-miner tests. MIT licence.
// ILP64 internal scal templates (compiled with -DTINYBLAS_INTERNAL_ILP64, so
// TINYBLAS_API(f) is f##_64). Large batch counts are split into grid.z chunks.
#include "blas1/tinyblas_scal.hpp"
#include "blas1/tinyblas_scal_kernels.hpp"
#include <algorithm>

template <typename T, typename U, typename Tx>
static tinyblas_status tinyblas_scal_launcher_64(tinyblas_handle handle,
                                                 int64_t         n,
                                                 const U*        alpha,
                                                 tinyblas_stride stride_alpha,
                                                 Tx              x,
                                                 tinyblas_stride offset_x,
                                                 int64_t         incx,
                                                 tinyblas_stride stride_x,
                                                 int64_t         batch_count)
{
    for(int64_t b = 0; b < batch_count; b += c_tb_grid_z_chunk)
    {
        int64_t  chunk = std::min(batch_count - b, c_tb_grid_z_chunk);
        const U* a     = handle->pointer_mode == tinyblas_pointer_mode_device ? alpha + b * stride_alpha : alpha;
        tinyblas_status status;
        if constexpr(std::is_pointer_v<std::remove_pointer_t<Tx>>)
            status = tinyblas_scal_launcher<int64_t, TINYBLAS_SCAL_NB, T, U>(
                handle, n, a, stride_alpha, x + b, offset_x, incx, stride_x, chunk);
        else
            status = tinyblas_scal_launcher<int64_t, TINYBLAS_SCAL_NB, T, U>(
                handle, n, a, stride_alpha, x + b * stride_x, offset_x, incx, stride_x, chunk);
        if(status != tinyblas_status_success)
            return status;
    }
    return tinyblas_status_success;
}

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
    return tinyblas_scal_launcher_64<T, U>(handle, n, alpha, stride_alpha, x, offset_x, incx,
                                           stride_x, batch_count);
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
    return tinyblas_scal_launcher_64<T, U>(handle, n, alpha, stride_alpha, x, offset_x, incx,
                                           stride_x, batch_count);
}

INST_SCAL_ALL_TYPES();
