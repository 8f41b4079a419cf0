// Example library for rocm-miner tests. MIT licence.
// Exported LAPACK-style API of tinysolver. Statuses and types come from tinyblas.
#ifndef TINYSOLVER_FUNCTIONS_H
#define TINYSOLVER_FUNCTIONS_H

#include "tinyblas.h"
#include "tinysolver/tinysolver-export.h"

#ifdef __cplusplus
extern "C" {
#endif

/* unblocked LU */
TINYSOLVER_EXPORT tinyblas_status tinysolver_sgetf2(tinyblas_handle handle, const tinyblas_int m, const tinyblas_int n, float* A, const tinyblas_int lda, tinyblas_int* ipiv, tinyblas_int* info);
TINYSOLVER_EXPORT tinyblas_status tinysolver_dgetf2(tinyblas_handle handle, const tinyblas_int m, const tinyblas_int n, double* A, const tinyblas_int lda, tinyblas_int* ipiv, tinyblas_int* info);

/* blocked LU */
TINYSOLVER_EXPORT tinyblas_status tinysolver_sgetrf(tinyblas_handle handle, const tinyblas_int m, const tinyblas_int n, float* A, const tinyblas_int lda, tinyblas_int* ipiv, tinyblas_int* info);
TINYSOLVER_EXPORT tinyblas_status tinysolver_dgetrf(tinyblas_handle handle, const tinyblas_int m, const tinyblas_int n, double* A, const tinyblas_int lda, tinyblas_int* ipiv, tinyblas_int* info);
TINYSOLVER_EXPORT tinyblas_status tinysolver_cgetrf(tinyblas_handle handle, const tinyblas_int m, const tinyblas_int n, tinyblas_float_complex* A, const tinyblas_int lda, tinyblas_int* ipiv, tinyblas_int* info);
TINYSOLVER_EXPORT tinyblas_status tinysolver_zgetrf(tinyblas_handle handle, const tinyblas_int m, const tinyblas_int n, tinyblas_double_complex* A, const tinyblas_int lda, tinyblas_int* ipiv, tinyblas_int* info);
TINYSOLVER_EXPORT tinyblas_status tinysolver_sgetrf_batched(tinyblas_handle handle, const tinyblas_int m, const tinyblas_int n, float* const A[], const tinyblas_int lda, tinyblas_int* ipiv, const tinyblas_stride strideP, tinyblas_int* info, const tinyblas_int batch_count);
TINYSOLVER_EXPORT tinyblas_status tinysolver_dgetrf_batched(tinyblas_handle handle, const tinyblas_int m, const tinyblas_int n, double* const A[], const tinyblas_int lda, tinyblas_int* ipiv, const tinyblas_stride strideP, tinyblas_int* info, const tinyblas_int batch_count);
TINYSOLVER_EXPORT tinyblas_status tinysolver_sgetrf_strided_batched(tinyblas_handle handle, const tinyblas_int m, const tinyblas_int n, float* A, const tinyblas_int lda, const tinyblas_stride strideA, tinyblas_int* ipiv, const tinyblas_stride strideP, tinyblas_int* info, const tinyblas_int batch_count);
TINYSOLVER_EXPORT tinyblas_status tinysolver_dgetrf_strided_batched(tinyblas_handle handle, const tinyblas_int m, const tinyblas_int n, double* A, const tinyblas_int lda, const tinyblas_stride strideA, tinyblas_int* ipiv, const tinyblas_stride strideP, tinyblas_int* info, const tinyblas_int batch_count);

/* Cholesky */
TINYSOLVER_EXPORT tinyblas_status tinysolver_spotrf(tinyblas_handle handle, const tinyblas_fill uplo, const tinyblas_int n, float* A, const tinyblas_int lda, tinyblas_int* info);
TINYSOLVER_EXPORT tinyblas_status tinysolver_dpotrf(tinyblas_handle handle, const tinyblas_fill uplo, const tinyblas_int n, double* A, const tinyblas_int lda, tinyblas_int* info);

#ifdef __cplusplus
}
#endif

#endif /* TINYSOLVER_FUNCTIONS_H */
