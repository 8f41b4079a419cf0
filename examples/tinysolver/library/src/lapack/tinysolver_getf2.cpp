// Example library for rocm-miner tests. MIT licence.
#include "tinysolver_getf2.hpp"

namespace tinysolver
{
    template <typename T>
    tinyblas_status getf2_impl(tinyblas_handle handle, tinyblas_int m, tinyblas_int n, T* A,
                               tinyblas_int lda, tinyblas_int* ipiv, tinyblas_int* info)
    {
        TINYSOLVER_ENTER_TOP("getf2", "-m", m, "-n", n, "--lda", lda);

        tinyblas_status st = tinysolver_getf2_getrf_argCheck<T>(handle, m, n, lda, A, ipiv, info);
        if(st != tinyblas_status_continue)
            TINYSOLVER_RETURN_TOP(st);

        size_t size_pivot_inv;
        tinysolver_getf2_getMemorySize<T>(m, n, 1, &size_pivot_inv);
        if(tinyblas_is_device_memory_size_query(handle))
            return tinyblas_set_optimal_device_memory_size(handle, size_pivot_inv);

        size_t hint = 0;
        if(tinyblas_workspace_hint(handle, &hint) == tinyblas_status_success && hint > size_pivot_inv)
            size_pivot_inv = hint;

        void* pivot_inv;
        st = tinyblas_get_workspace(handle, size_pivot_inv, &pivot_inv);
        if(st != tinyblas_status_success)
            TINYSOLVER_RETURN_TOP(st);

        TINYSOLVER_RETURN_TOP(tinysolver_getf2_template<T>(handle, m, n, A, 0, lda, 0, ipiv, 0, 0, info,
                                                           1, static_cast<T*>(pivot_inv), 0));
    }
} // namespace tinysolver

extern "C" tinyblas_status tinysolver_sgetf2(tinyblas_handle handle, const tinyblas_int m,
                                             const tinyblas_int n, float* A, const tinyblas_int lda,
                                             tinyblas_int* ipiv, tinyblas_int* info)
{
    return tinysolver::getf2_impl<float>(handle, m, n, A, lda, ipiv, info);
}

extern "C" tinyblas_status tinysolver_dgetf2(tinyblas_handle handle, const tinyblas_int m,
                                             const tinyblas_int n, double* A, const tinyblas_int lda,
                                             tinyblas_int* ipiv, tinyblas_int* info)
{
    return tinysolver::getf2_impl<double>(handle, m, n, A, lda, ipiv, info);
}
