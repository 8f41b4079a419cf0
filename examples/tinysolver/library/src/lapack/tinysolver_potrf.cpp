// Example library for rocm-miner tests. MIT licence.
#include "tinysolver_potrf.hpp"

namespace tinysolver
{
    template <typename T>
    tinyblas_status potrf_impl(tinyblas_handle handle, tinyblas_fill uplo, tinyblas_int n, T* A,
                               tinyblas_int lda, tinyblas_int* info)
    {
        TINYSOLVER_ENTER_TOP("potrf", "--uplo", uplo, "-n", n, "--lda", lda);

        tinyblas_status st = tinysolver_potf2_potrf_argCheck(handle, uplo, n, lda, A, info);
        if(st != tinyblas_status_continue)
            TINYSOLVER_RETURN_TOP(st);

        size_t size_work;
        tinysolver_potrf_getMemorySize<T>(n, 1, &size_work);
        if(tinyblas_is_device_memory_size_query(handle))
            return tinyblas_set_optimal_device_memory_size(handle, size_work);

        TINYSOLVER_RETURN_TOP(tinysolver_potrf_template<T>(handle, uplo, n, A, 0, lda, 0, info, 1));
    }
} // namespace tinysolver

extern "C" tinyblas_status tinysolver_spotrf(tinyblas_handle handle, const tinyblas_fill uplo,
                                             const tinyblas_int n, float* A, const tinyblas_int lda,
                                             tinyblas_int* info)
{
    return tinysolver::potrf_impl<float>(handle, uplo, n, A, lda, info);
}

extern "C" tinyblas_status tinysolver_dpotrf(tinyblas_handle handle, const tinyblas_fill uplo,
                                             const tinyblas_int n, double* A, const tinyblas_int lda,
                                             tinyblas_int* info)
{
    return tinysolver::potrf_impl<double>(handle, uplo, n, A, lda, info);
}
