// Example library for rocm-miner tests. MIT licence.
// gemm: Tensile (generated code) when BUILD_WITH_TENSILE=1 (the default build),
// a source kernel otherwise. C := beta*C is always done here when k == 0.
#include "device_helpers.hpp"
#include "macros.hpp"
#include "tinyblas_gemm.hpp"

#if BUILD_WITH_TENSILE
#include "tensile_host.hpp"
#endif

template <int DIM, typename T, typename Tb, typename TPtr>
TINYBLAS_KERNEL(DIM* DIM)
tinyblas_gemm_scale_kernel(int m, int n, Tb beta_dev_host, TPtr Ca, tinyblas_stride offset_C,
                           int64_t ldc, tinyblas_stride stride_C)
{
    auto beta = load_scalar(beta_dev_host, blockIdx.z, 0);
    T*   C    = load_ptr_batch(Ca, blockIdx.z, offset_C, stride_C);
    int  row  = blockIdx.x * DIM + threadIdx.x;
    int  col  = blockIdx.y * DIM + threadIdx.y;
    if(row < m && col < n)
        C[row + col * ldc] = tb_mul(beta, C[row + col * ldc]);
}

// source fallback: shared-memory tiled C := alpha*op(A)*op(B) + beta*C
template <int TILE, typename T, typename Ta, typename TConstPtr, typename TPtr>
TINYBLAS_KERNEL(TILE* TILE)
tinyblas_gemm_source_kernel(tinyblas_operation transA, tinyblas_operation transB, int m, int n,
                            int k, Ta alpha_dev_host, TConstPtr Aa, tinyblas_stride offset_A,
                            int64_t lda, tinyblas_stride stride_A, TConstPtr Ba,
                            tinyblas_stride offset_B, int64_t ldb, tinyblas_stride stride_B,
                            Ta beta_dev_host, TPtr Ca, tinyblas_stride offset_C, int64_t ldc,
                            tinyblas_stride stride_C)
{
    __shared__ T sA[TILE][TILE];
    __shared__ T sB[TILE][TILE];

    auto     alpha = load_scalar(alpha_dev_host, blockIdx.z, 0);
    auto     beta  = load_scalar(beta_dev_host, blockIdx.z, 0);
    const T* A     = load_ptr_batch(Aa, blockIdx.z, offset_A, stride_A);
    const T* B     = load_ptr_batch(Ba, blockIdx.z, offset_B, stride_B);
    T*       C     = load_ptr_batch(Ca, blockIdx.z, offset_C, stride_C);

    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.x * TILE + tx;
    int col = blockIdx.y * TILE + ty;

    T acc = tb_zero<T>();
    for(int k0 = 0; k0 < k; k0 += TILE)
    {
        sA[ty][tx] = (row < m && k0 + ty < k) ? tb_elem_op(A, lda, transA, row, k0 + ty) : tb_zero<T>();
        sB[ty][tx] = (col < n && k0 + tx < k) ? tb_elem_op(B, ldb, transB, k0 + tx, col) : tb_zero<T>();
        __syncthreads();
        for(int kk = 0; kk < TILE; ++kk)
            acc = tb_fma(sA[kk][tx], sB[ty][kk], acc);
        __syncthreads();
    }
    if(row < m && col < n)
        C[row + col * ldc] = tb_add(tb_mul(alpha, acc), tb_mul(beta, C[row + col * ldc]));
}

template <typename T, typename TConstPtr, typename TPtr>
static tinyblas_status tinyblas_gemm_launcher(tinyblas_handle    handle,
                                              tinyblas_operation transA,
                                              tinyblas_operation transB,
                                              tinyblas_int       m,
                                              tinyblas_int       n,
                                              tinyblas_int       k,
                                              const T*           alpha,
                                              TConstPtr          A,
                                              tinyblas_stride    offset_A,
                                              tinyblas_int       lda,
                                              tinyblas_stride    stride_A,
                                              TConstPtr          B,
                                              tinyblas_stride    offset_B,
                                              tinyblas_int       ldb,
                                              tinyblas_stride    stride_B,
                                              const T*           beta,
                                              TPtr               C,
                                              tinyblas_stride    offset_C,
                                              tinyblas_int       ldc,
                                              tinyblas_stride    stride_C,
                                              tinyblas_int       batch_count)
{
    if(m == 0 || n == 0 || batch_count == 0)
        return tinyblas_status_success;

    hipStream_t stream = handle->get_stream();
    bool        dev    = handle->pointer_mode == tinyblas_pointer_mode_device;
    constexpr int TILE = TINYBLAS_GEMM_TILE;
    dim3 grid((m - 1) / TILE + 1, (n - 1) / TILE + 1, batch_count);
    dim3 threads(TILE, TILE);

    if(k == 0)
    {
        if(dev)
            TINYBLAS_LAUNCH_KERNEL((tinyblas_gemm_scale_kernel<TILE, T>), grid, threads, 0, stream, m,
                                   n, beta, C, offset_C, ldc, stride_C);
        else
            TINYBLAS_LAUNCH_KERNEL((tinyblas_gemm_scale_kernel<TILE, T>), grid, threads, 0, stream, m,
                                   n, *beta, C, offset_C, ldc, stride_C);
        return tinyblas_status_success;
    }

#if BUILD_WITH_TENSILE
    TensileContractionProblem<T, TConstPtr, TPtr> problem{handle, transA,   transB, m,        n,
                                                          k,      alpha,    A,      offset_A, lda,
                                                          stride_A, B,      offset_B, ldb,    stride_B,
                                                          beta,   C,        offset_C, ldc,    stride_C,
                                                          batch_count};
    return runContractionProblem(problem);
#else
    if(dev)
        TINYBLAS_LAUNCH_KERNEL((tinyblas_gemm_source_kernel<TILE, T>), grid, threads, 0, stream,
                               transA, transB, m, n, k, alpha, A, offset_A, lda, stride_A, B,
                               offset_B, ldb, stride_B, beta, C, offset_C, ldc, stride_C);
    else
        TINYBLAS_LAUNCH_KERNEL((tinyblas_gemm_source_kernel<TILE, T>), grid, threads, 0, stream,
                               transA, transB, m, n, k, *alpha, A, offset_A, lda, stride_A, B,
                               offset_B, ldb, stride_B, *beta, C, offset_C, ldc, stride_C);
    return tinyblas_status_success;
#endif
}

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
                                                              TINYBLAS_API_INT   batch_count)
{
    return tinyblas_gemm_launcher<T>(handle, transA, transB, m, n, k, alpha, A, offset_A, lda,
                                     stride_A, B, offset_B, ldb, stride_B, beta, C, offset_C, ldc,
                                     stride_C, batch_count);
}

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
                                                                      TINYBLAS_API_INT   batch_count)
{
    return tinyblas_gemm_launcher<T>(handle, transA, transB, m, n, k, alpha, A, offset_A, lda,
                                     stride_A, B, offset_B, ldb, stride_B, beta, C, offset_C, ldc,
                                     stride_C, batch_count);
}

#define INST_GEMM_TEMPLATES(T_)                                                                     \
    template tinyblas_status TINYBLAS_API(tinyblas_internal_gemm_template)<T_>(                     \
        tinyblas_handle, tinyblas_operation, tinyblas_operation, TINYBLAS_API_INT,                  \
        TINYBLAS_API_INT, TINYBLAS_API_INT, const T_*, const T_*, tinyblas_stride,                  \
        TINYBLAS_API_INT, tinyblas_stride, const T_*, tinyblas_stride, TINYBLAS_API_INT,            \
        tinyblas_stride, const T_*, T_*, tinyblas_stride, TINYBLAS_API_INT, tinyblas_stride,        \
        TINYBLAS_API_INT);                                                                          \
    template tinyblas_status TINYBLAS_API(tinyblas_internal_gemm_batched_template)<T_>(             \
        tinyblas_handle, tinyblas_operation, tinyblas_operation, TINYBLAS_API_INT,                  \
        TINYBLAS_API_INT, TINYBLAS_API_INT, const T_*, const T_* const*, tinyblas_stride,           \
        TINYBLAS_API_INT, tinyblas_stride, const T_* const*, tinyblas_stride, TINYBLAS_API_INT,     \
        tinyblas_stride, const T_*, T_* const*, tinyblas_stride, TINYBLAS_API_INT,                  \
        tinyblas_stride, TINYBLAS_API_INT)

INST_GEMM_TEMPLATES(float);
INST_GEMM_TEMPLATES(double);
INST_GEMM_TEMPLATES(tinyblas_float_complex);
INST_GEMM_TEMPLATES(tinyblas_double_complex);
