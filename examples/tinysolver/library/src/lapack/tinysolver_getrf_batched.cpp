// Example library for rocm-miner tests. MIT licence.
#include "tinysolver_getrf.hpp"

namespace tinysolver
{
    template <typename T>
    tinyblas_status getrf_batched_impl(tinyblas_handle handle, tinyblas_int m, tinyblas_int n,
                                       T* const A[], tinyblas_int lda, tinyblas_int* ipiv,
                                       tinyblas_stride strideP, tinyblas_int* info,
                                       tinyblas_int batch_count)
    {
        TINYSOLVER_ENTER_TOP("getrf_batched", "-m", m, "-n", n, "--lda", lda, "--strideP", strideP,
                             "--batch_count", batch_count);

        tinyblas_status st
            = tinysolver_getf2_getrf_argCheck<T>(handle, m, n, lda, A, ipiv, info, batch_count);
        if(st != tinyblas_status_continue)
            TINYSOLVER_RETURN_TOP(st);

        size_t size_pivot_inv;
        tinysolver_getrf_getMemorySize<T>(m, n, batch_count, &size_pivot_inv);
        if(tinyblas_is_device_memory_size_query(handle))
            return tinyblas_set_optimal_device_memory_size(handle, size_pivot_inv);

        void* pivot_inv;
        st = tinyblas_get_workspace(handle, size_pivot_inv, &pivot_inv);
        if(st != tinyblas_status_success)
            TINYSOLVER_RETURN_TOP(st);

        // batched: the array of pointers has no strideA
        TINYSOLVER_RETURN_TOP(tinysolver_getrf_template<T>(handle, m, n, A, 0, lda, 0, ipiv, strideP,
                                                           info, batch_count,
                                                           static_cast<T*>(pivot_inv)));
    }
} // namespace tinysolver

extern "C" tinyblas_status tinysolver_sgetrf_batched(tinyblas_handle handle, const tinyblas_int m,
                                                     const tinyblas_int n, float* const A[],
                                                     const tinyblas_int lda, tinyblas_int* ipiv,
                                                     const tinyblas_stride strideP, tinyblas_int* info,
                                                     const tinyblas_int batch_count)
{
    return tinysolver::getrf_batched_impl<float>(handle, m, n, A, lda, ipiv, strideP, info, batch_count);
}

extern "C" tinyblas_status tinysolver_dgetrf_batched(tinyblas_handle handle, const tinyblas_int m,
                                                     const tinyblas_int n, double* const A[],
                                                     const tinyblas_int lda, tinyblas_int* ipiv,
                                                     const tinyblas_stride strideP, tinyblas_int* info,
                                                     const tinyblas_int batch_count)
{
    return tinysolver::getrf_batched_impl<double>(handle, m, n, A, lda, ipiv, strideP, info, batch_count);
}
