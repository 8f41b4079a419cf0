// Example library for rocm-miner tests. MIT licence.
#include "tinysolver_getrf.hpp"
#include "tinysolver/tinysolver-export.h"

namespace tinysolver
{
    template <typename T>
    tinyblas_status getrf_impl(tinyblas_handle handle, tinyblas_int m, tinyblas_int n, T* A,
                               tinyblas_int lda, tinyblas_int* ipiv, tinyblas_int* info)
    {
        TINYSOLVER_ENTER_TOP("getrf", "-m", m, "-n", n, "--lda", lda);

        tinyblas_status st = tinysolver_getf2_getrf_argCheck<T>(handle, m, n, lda, A, ipiv, info);
        if(st != tinyblas_status_continue)
            TINYSOLVER_RETURN_TOP(st);

        // non-batched: strides are unused, batch_count = 1
        tinyblas_stride strideA = 0, strideP = 0;
        tinyblas_int    batch_count = 1;

        size_t size_pivot_inv;
        tinysolver_getrf_getMemorySize<T>(m, n, batch_count, &size_pivot_inv);
        if(tinyblas_is_device_memory_size_query(handle))
            return tinyblas_set_optimal_device_memory_size(handle, size_pivot_inv);

        void* pivot_inv;
        st = tinyblas_get_workspace(handle, size_pivot_inv, &pivot_inv);
        if(st != tinyblas_status_success)
            TINYSOLVER_RETURN_TOP(st);

        TINYSOLVER_RETURN_TOP(tinysolver_getrf_template<T>(handle, m, n, A, 0, lda, strideA, ipiv,
                                                           strideP, info, batch_count,
                                                           static_cast<T*>(pivot_inv)));
    }
} // namespace tinysolver

extern "C" tinyblas_status tinysolver_sgetrf(tinyblas_handle handle, const tinyblas_int m,
                                             const tinyblas_int n, float* A, const tinyblas_int lda,
                                             tinyblas_int* ipiv, tinyblas_int* info)
{
    return tinysolver::getrf_impl<float>(handle, m, n, A, lda, ipiv, info);
}

extern "C" tinyblas_status tinysolver_dgetrf(tinyblas_handle handle, const tinyblas_int m,
                                             const tinyblas_int n, double* A, const tinyblas_int lda,
                                             tinyblas_int* ipiv, tinyblas_int* info)
{
    return tinysolver::getrf_impl<double>(handle, m, n, A, lda, ipiv, info);
}

extern "C" tinyblas_status tinysolver_cgetrf(tinyblas_handle handle, const tinyblas_int m,
                                             const tinyblas_int n, tinyblas_float_complex* A,
                                             const tinyblas_int lda, tinyblas_int* ipiv,
                                             tinyblas_int* info)
{
    return tinysolver::getrf_impl<tinyblas_float_complex>(handle, m, n, A, lda, ipiv, info);
}

extern "C" tinyblas_status tinysolver_zgetrf(tinyblas_handle handle, const tinyblas_int m,
                                             const tinyblas_int n, tinyblas_double_complex* A,
                                             const tinyblas_int lda, tinyblas_int* ipiv,
                                             tinyblas_int* info)
{
    return tinysolver::getrf_impl<tinyblas_double_complex>(handle, m, n, A, lda, ipiv, info);
}

// Exported, but declared in no public header (rocSOLVER's *_info32 and *_outofplace pattern): part of the
// library's ABI all the same.
extern "C" {
TINYSOLVER_EXPORT tinyblas_status tinysolver_sgetrf_info32(tinyblas_handle handle,
                                                           const tinyblas_int m,
                                                           const tinyblas_int n,
                                                           float* A,
                                                           const tinyblas_int lda,
                                                           tinyblas_int* ipiv,
                                                           tinyblas_int* info)
{
    return tinysolver::getrf_impl<float>(handle, m, n, A, lda, ipiv, info);
}
}
