// Example library for rocm-miner tests. MIT licence.
// gemv: y = alpha*op(A)*x + beta*y, op chosen at run time.
#include "device_helpers.hpp"
#include "macros.hpp"
#include "tinyblas_gemv.hpp"

// op(A) = A: one thread per row of y; the launcher may shrink the block to one wavefront
template <int DIM_X, typename T, typename Ta>
TINYBLAS_KERNEL(DIM_X)
tinyblas_gemvn_kernel(int m, int n, Ta alpha_dev_host, const T* A, int64_t lda, const T* x,
                      int64_t incx, Ta beta_dev_host, T* y, int64_t incy)
{
    auto alpha = load_scalar(alpha_dev_host, 0, 0);
    auto beta  = load_scalar(beta_dev_host, 0, 0);
    int  row   = blockIdx.x * blockDim.x + threadIdx.x;
    if(row >= m)
        return;
    T acc = tb_zero<T>();
    for(int col = 0; col < n; ++col)
        acc = tb_fma(A[row + col * lda], x[col * incx], acc);
    y[row * incy] = tb_add(tb_mul(alpha, acc), tb_mul(beta, y[row * incy]));
}

// op(A) = A^T or A^H: one block per entry of y, columns staged in shared memory
template <int NB, bool CONJ, typename T, typename Ta>
TINYBLAS_KERNEL(NB)
tinyblas_gemvt_kernel(int m, int n, Ta alpha_dev_host, const T* A, int64_t lda, const T* x,
                      int64_t incx, Ta beta_dev_host, T* y, int64_t incy)
{
    __shared__ T tile[NB];
    auto         alpha = load_scalar(alpha_dev_host, 0, 0);
    auto         beta  = load_scalar(beta_dev_host, 0, 0);
    int          col   = blockIdx.x;
    const T*     Acol  = A + col * lda;

    T acc = tb_zero<T>();
    for(int r = threadIdx.x; r < m; r += NB)
    {
        T a = CONJ ? tb_conj(Acol[r]) : Acol[r];
        acc = tb_fma(a, x[r * incx], acc);
    }
    tile[threadIdx.x] = acc;
    __syncthreads();
    for(int s = NB / 2; s > 0; s /= 2)
    {
        if(threadIdx.x < s)
            tile[threadIdx.x] = tb_add(tile[threadIdx.x], tile[threadIdx.x + s]);
        __syncthreads();
    }
    if(threadIdx.x == 0 && col < n)
        y[col * incy] = tb_add(tb_mul(alpha, tile[0]), tb_mul(beta, y[col * incy]));
}

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
                                                              TINYBLAS_API_INT   incy)
{
    hipStream_t stream = handle->get_stream();
    bool        dev    = handle->pointer_mode == tinyblas_pointer_mode_device;

    if(transA == tinyblas_operation_none)
    {
        constexpr int DIM_X = TINYBLAS_GEMV_DIM_X;
        dim3          threads(DIM_X);
        if(m < DIM_X)
            threads.x = 64; // a short y: one wavefront per block
        dim3 grid((m - 1) / threads.x + 1);
        if(dev)
            TINYBLAS_LAUNCH_KERNEL((tinyblas_gemvn_kernel<DIM_X, T>), grid, threads, 0, stream,
                                   m, n, alpha, A, lda, x, incx, beta, y, incy);
        else
            TINYBLAS_LAUNCH_KERNEL((tinyblas_gemvn_kernel<DIM_X, T>), grid, threads, 0, stream,
                                   m, n, *alpha, A, lda, x, incx, *beta, y, incy);
    }
    else if(transA == tinyblas_operation_transpose)
    {
        constexpr int NB = TINYBLAS_GEMVT_NB;
#define GEMVT_KARGS(alpha_, beta_) \
    dim3(n), dim3(NB), 0, stream, m, n, alpha_, A, lda, x, incx, beta_, y, incy
        if(dev)
            TINYBLAS_LAUNCH_KERNEL((tinyblas_gemvt_kernel<NB, false, T>), GEMVT_KARGS(alpha, beta));
        else
            TINYBLAS_LAUNCH_KERNEL((tinyblas_gemvt_kernel<NB, false, T>), GEMVT_KARGS(*alpha, *beta));
    }
    else
    {
        constexpr int NB = TINYBLAS_GEMVT_NB;
        if(dev)
            TINYBLAS_LAUNCH_KERNEL((tinyblas_gemvt_kernel<NB, true, T>), GEMVT_KARGS(alpha, beta));
        else
            TINYBLAS_LAUNCH_KERNEL((tinyblas_gemvt_kernel<NB, true, T>), GEMVT_KARGS(*alpha, *beta));
    }
#undef GEMVT_KARGS
    return tinyblas_status_success;
}

#define INST_GEMV_TEMPLATE(T_)                                                                     \
    template tinyblas_status TINYBLAS_API(tinyblas_internal_gemv_template)<T_>(                    \
        tinyblas_handle, tinyblas_operation, TINYBLAS_API_INT, TINYBLAS_API_INT, const T_*,        \
        const T_*, TINYBLAS_API_INT, const T_*, TINYBLAS_API_INT, const T_*, T_*, TINYBLAS_API_INT)

INST_GEMV_TEMPLATE(float);
INST_GEMV_TEMPLATE(double);
INST_GEMV_TEMPLATE(tinyblas_float_complex);
INST_GEMV_TEMPLATE(tinyblas_double_complex);
