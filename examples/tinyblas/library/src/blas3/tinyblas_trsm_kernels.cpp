// Example library for rocm-miner tests. MIT licence.
// Blocked trsm: diagonal blocks solved by a kernel, the trailing update
// delegated to the gemm internal templates (cross-routine call).
#include "device_helpers.hpp"
#include "macros.hpp"
#include "tinyblas_gemm.hpp"
#include "tinyblas_trsm.hpp"
#include "utility.hpp"
#include <algorithm>
#include <type_traits>

// B := alpha * B
template <int DIM, typename T, typename TPtr>
TINYBLAS_KERNEL(DIM* DIM)
tinyblas_trsm_scale_kernel(int m, int n, T alpha, TPtr Ba, tinyblas_stride offset_B, int64_t ldb,
                           tinyblas_stride stride_B)
{
    T*  B   = load_ptr_batch(Ba, blockIdx.z, offset_B, stride_B);
    int row = blockIdx.x * DIM + threadIdx.x;
    int col = blockIdx.y * DIM + threadIdx.y;
    if(row < m && col < n)
        B[row + col * ldb] = tb_mul(alpha, B[row + col * ldb]);
}

// forward substitution with one lower-triangular jb x jb block held in shared memory;
// each thread owns one column of B
template <int NB, typename T, typename TConstPtr, typename TPtr>
TINYBLAS_KERNEL(NB)
tinyblas_trsm_diag_kernel(bool unit_diag, int jb, int n, TConstPtr Aa, tinyblas_stride offset_A,
                          int64_t lda, tinyblas_stride stride_A, TPtr Ba, tinyblas_stride offset_B,
                          int64_t ldb, tinyblas_stride stride_B)
{
    __shared__ T sA[NB * NB];
    const T*     A = load_ptr_batch(Aa, blockIdx.z, offset_A, stride_A);
    T*           B = load_ptr_batch(Ba, blockIdx.z, offset_B, stride_B);

    for(int idx = threadIdx.x; idx < jb * jb; idx += NB)
        sA[idx] = A[(idx % jb) + (idx / jb) * lda];
    __syncthreads();

    int col = blockIdx.x * NB + threadIdx.x;
    if(col >= n)
        return;
    T* b = B + col * ldb;
    for(int i = 0; i < jb; ++i)
    {
        T acc = b[i];
        for(int k = 0; k < i; ++k)
            acc = tb_sub(acc, tb_mul(sA[i + k * jb], b[k]));
        b[i] = unit_diag ? acc : tb_div(acc, sA[i + i * jb]);
    }
}

template <int NB, typename T, typename TConstPtr, typename TPtr>
static tinyblas_status tinyblas_trsm_launcher(tinyblas_handle    handle,
                                              tinyblas_side      side,
                                              tinyblas_fill      uplo,
                                              tinyblas_operation transA,
                                              tinyblas_diagonal  diag,
                                              tinyblas_int       m,
                                              tinyblas_int       n,
                                              const T*           alpha,
                                              TConstPtr          A,
                                              tinyblas_stride    offset_A,
                                              tinyblas_int       lda,
                                              tinyblas_stride    stride_A,
                                              TPtr               B,
                                              tinyblas_stride    offset_B,
                                              tinyblas_int       ldb,
                                              tinyblas_stride    stride_B,
                                              tinyblas_int       batch_count)
{
    if(side != tinyblas_side_left || uplo != tinyblas_fill_lower || transA != tinyblas_operation_none)
        return tinyblas_status_not_implemented;
    if(m == 0 || n == 0 || batch_count == 0)
        return tinyblas_status_success;

    hipStream_t stream = handle->get_stream();

    T h_alpha;
    if(handle->pointer_mode == tinyblas_pointer_mode_device)
    {
        if(hipMemcpy(&h_alpha, alpha, sizeof(T), hipMemcpyDeviceToHost) != hipSuccess)
            return tinyblas_status_internal_error;
    }
    else
        h_alpha = *alpha;

    if(!tinyblas_is_one(h_alpha))
    {
        constexpr int DIM = 16;
        dim3          grid((m - 1) / DIM + 1, (n - 1) / DIM + 1, batch_count);
        TINYBLAS_LAUNCH_KERNEL((tinyblas_trsm_scale_kernel<DIM, T>), grid, dim3(DIM, DIM), 0, stream,
                               m, n, h_alpha, B, offset_B, ldb, stride_B);
    }

    // the gemm updates take host scalars
    const T                     one       = tinyblas_make_scalar<T>(1.0);
    const T                     minus_one = tinyblas_make_scalar<T>(-1.0);
    const tinyblas_pointer_mode saved     = handle->pointer_mode;
    handle->pointer_mode                  = tinyblas_pointer_mode_host;

    tinyblas_status status = tinyblas_status_success;
    for(tinyblas_int j = 0; j < m && status == tinyblas_status_success; j += NB)
    {
        tinyblas_int jb = std::min(NB, m - j);
        dim3         grid((n - 1) / NB + 1, 1, batch_count);
        hipLaunchKernelGGL((tinyblas_trsm_diag_kernel<NB, T>), grid, dim3(NB), 0, stream,
                           diag == tinyblas_diagonal_unit, jb, n, A, offset_A + j + int64_t(j) * lda,
                           lda, stride_A, B, offset_B + j, ldb, stride_B);

        tinyblas_int rest = m - j - jb;
        if(rest > 0)
        {
            // B[j+jb:, :] -= A[j+jb:, j:j+jb] * B[j:j+jb, :]
            if constexpr(std::is_pointer_v<std::remove_pointer_t<TPtr>>)
                status = tinyblas_internal_gemm_batched_template<T>(
                    handle, tinyblas_operation_none, tinyblas_operation_none, rest, n, jb, &minus_one,
                    A, offset_A + j + jb + int64_t(j) * lda, lda, stride_A, B, offset_B + j, ldb,
                    stride_B, &one, B, offset_B + j + jb, ldb, stride_B, batch_count);
            else
                status = tinyblas_internal_gemm_template<T>(
                    handle, tinyblas_operation_none, tinyblas_operation_none, rest, n, jb, &minus_one,
                    A, offset_A + j + jb + int64_t(j) * lda, lda, stride_A, B, offset_B + j, ldb,
                    stride_B, &one, B, offset_B + j + jb, ldb, stride_B, batch_count);
        }
    }
    handle->pointer_mode = saved;
    return status;
}

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
                                                              TINYBLAS_API_INT   batch_count)
{
    return tinyblas_trsm_launcher<TINYBLAS_TRSM_NB, T>(handle, side, uplo, transA, diag, m, n, alpha,
                                                       A, offset_A, lda, stride_A, B, offset_B, ldb,
                                                       stride_B, batch_count);
}

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
                                                                      TINYBLAS_API_INT   batch_count)
{
    return tinyblas_trsm_launcher<TINYBLAS_TRSM_NB, T>(handle, side, uplo, transA, diag, m, n, alpha,
                                                       A, offset_A, lda, stride_A, B, offset_B, ldb,
                                                       stride_B, batch_count);
}

#define INST_TRSM_TEMPLATES(T_)                                                                    \
    template tinyblas_status TINYBLAS_API(tinyblas_internal_trsm_template)<T_>(                    \
        tinyblas_handle, tinyblas_side, tinyblas_fill, tinyblas_operation, tinyblas_diagonal,      \
        TINYBLAS_API_INT, TINYBLAS_API_INT, const T_*, const T_*, tinyblas_stride,                 \
        TINYBLAS_API_INT, tinyblas_stride, T_*, tinyblas_stride, TINYBLAS_API_INT,                 \
        tinyblas_stride, TINYBLAS_API_INT);                                                        \
    template tinyblas_status TINYBLAS_API(tinyblas_internal_trsm_batched_template)<T_>(            \
        tinyblas_handle, tinyblas_side, tinyblas_fill, tinyblas_operation, tinyblas_diagonal,      \
        TINYBLAS_API_INT, TINYBLAS_API_INT, const T_*, const T_* const*, tinyblas_stride,          \
        TINYBLAS_API_INT, tinyblas_stride, T_* const*, tinyblas_stride, TINYBLAS_API_INT,          \
        tinyblas_stride, TINYBLAS_API_INT)

INST_TRSM_TEMPLATES(float);
INST_TRSM_TEMPLATES(double);
INST_TRSM_TEMPLATES(tinyblas_float_complex);
INST_TRSM_TEMPLATES(tinyblas_double_complex);
