// Example library for rocm-miner tests. MIT licence.
// Exported C API of tinyblas (mirrors rocblas-functions.h). One declaration per line.
#ifndef TINYBLAS_FUNCTIONS_H
#define TINYBLAS_FUNCTIONS_H

#include "internal/tinyblas-export.h"
#include "tinyblas-types.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- BLAS1 LP64 ---- */
TINYBLAS_EXPORT tinyblas_status tinyblas_sscal(tinyblas_handle handle, tinyblas_int n, const float* alpha, float* x, tinyblas_int incx);
TINYBLAS_EXPORT tinyblas_status tinyblas_dscal(tinyblas_handle handle, tinyblas_int n, const double* alpha, double* x, tinyblas_int incx);
TINYBLAS_EXPORT tinyblas_status tinyblas_cscal(tinyblas_handle handle, tinyblas_int n, const tinyblas_float_complex* alpha, tinyblas_float_complex* x, tinyblas_int incx);
TINYBLAS_EXPORT tinyblas_status tinyblas_zscal(tinyblas_handle handle, tinyblas_int n, const tinyblas_double_complex* alpha, tinyblas_double_complex* x, tinyblas_int incx);
TINYBLAS_EXPORT tinyblas_status tinyblas_csscal(tinyblas_handle handle, tinyblas_int n, const float* alpha, tinyblas_float_complex* x, tinyblas_int incx);
TINYBLAS_EXPORT tinyblas_status tinyblas_zdscal(tinyblas_handle handle, tinyblas_int n, const double* alpha, tinyblas_double_complex* x, tinyblas_int incx);
TINYBLAS_EXPORT tinyblas_status tinyblas_hscal(tinyblas_handle handle, tinyblas_int n, const tinyblas_half* alpha, tinyblas_half* x, tinyblas_int incx);
TINYBLAS_EXPORT tinyblas_status tinyblas_sscal_batched(tinyblas_handle handle, tinyblas_int n, const float* alpha, float* const x[], tinyblas_int incx, tinyblas_int batch_count);
TINYBLAS_EXPORT tinyblas_status tinyblas_sset_batched(tinyblas_handle handle, tinyblas_int n, const float* alpha, float* const x[], tinyblas_int incx, tinyblas_int batch_count);
TINYBLAS_EXPORT tinyblas_status tinyblas_dscal_batched(tinyblas_handle handle, tinyblas_int n, const double* alpha, double* const x[], tinyblas_int incx, tinyblas_int batch_count);
TINYBLAS_EXPORT tinyblas_status tinyblas_sscal_strided_batched(tinyblas_handle handle, tinyblas_int n, const float* alpha, float* x, tinyblas_int incx, tinyblas_stride stride_x, tinyblas_int batch_count);
TINYBLAS_EXPORT tinyblas_status tinyblas_dscal_strided_batched(tinyblas_handle handle, tinyblas_int n, const double* alpha, double* x, tinyblas_int incx, tinyblas_stride stride_x, tinyblas_int batch_count);
TINYBLAS_EXPORT tinyblas_status tinyblas_sdot(tinyblas_handle handle, tinyblas_int n, const float* x, tinyblas_int incx, const float* y, tinyblas_int incy, float* result);
TINYBLAS_EXPORT tinyblas_status tinyblas_ddot(tinyblas_handle handle, tinyblas_int n, const double* x, tinyblas_int incx, const double* y, tinyblas_int incy, double* result);
TINYBLAS_EXPORT tinyblas_status tinyblas_cdotc(tinyblas_handle handle, tinyblas_int n, const tinyblas_float_complex* x, tinyblas_int incx, const tinyblas_float_complex* y, tinyblas_int incy, tinyblas_float_complex* result);
TINYBLAS_EXPORT tinyblas_status tinyblas_zdotc(tinyblas_handle handle, tinyblas_int n, const tinyblas_double_complex* x, tinyblas_int incx, const tinyblas_double_complex* y, tinyblas_int incy, tinyblas_double_complex* result);
/* ---- BLAS1 ILP64 (_64) ---- */
TINYBLAS_EXPORT tinyblas_status tinyblas_sscal_64(tinyblas_handle handle, int64_t n, const float* alpha, float* x, int64_t incx);
TINYBLAS_EXPORT tinyblas_status tinyblas_dscal_64(tinyblas_handle handle, int64_t n, const double* alpha, double* x, int64_t incx);
TINYBLAS_EXPORT tinyblas_status tinyblas_cscal_64(tinyblas_handle handle, int64_t n, const tinyblas_float_complex* alpha, tinyblas_float_complex* x, int64_t incx);
TINYBLAS_EXPORT tinyblas_status tinyblas_zscal_64(tinyblas_handle handle, int64_t n, const tinyblas_double_complex* alpha, tinyblas_double_complex* x, int64_t incx);
TINYBLAS_EXPORT tinyblas_status tinyblas_csscal_64(tinyblas_handle handle, int64_t n, const float* alpha, tinyblas_float_complex* x, int64_t incx);
TINYBLAS_EXPORT tinyblas_status tinyblas_zdscal_64(tinyblas_handle handle, int64_t n, const double* alpha, tinyblas_double_complex* x, int64_t incx);
TINYBLAS_EXPORT tinyblas_status tinyblas_hscal_64(tinyblas_handle handle, int64_t n, const tinyblas_half* alpha, tinyblas_half* x, int64_t incx);
TINYBLAS_EXPORT tinyblas_status tinyblas_sscal_batched_64(tinyblas_handle handle, int64_t n, const float* alpha, float* const x[], int64_t incx, int64_t batch_count);
TINYBLAS_EXPORT tinyblas_status tinyblas_dscal_batched_64(tinyblas_handle handle, int64_t n, const double* alpha, double* const x[], int64_t incx, int64_t batch_count);
TINYBLAS_EXPORT tinyblas_status tinyblas_sscal_strided_batched_64(tinyblas_handle handle, int64_t n, const float* alpha, float* x, int64_t incx, tinyblas_stride stride_x, int64_t batch_count);
TINYBLAS_EXPORT tinyblas_status tinyblas_dscal_strided_batched_64(tinyblas_handle handle, int64_t n, const double* alpha, double* x, int64_t incx, tinyblas_stride stride_x, int64_t batch_count);
TINYBLAS_EXPORT tinyblas_status tinyblas_sdot_64(tinyblas_handle handle, int64_t n, const float* x, int64_t incx, const float* y, int64_t incy, float* result);
TINYBLAS_EXPORT tinyblas_status tinyblas_ddot_64(tinyblas_handle handle, int64_t n, const double* x, int64_t incx, const double* y, int64_t incy, double* result);
TINYBLAS_EXPORT tinyblas_status tinyblas_cdotc_64(tinyblas_handle handle, int64_t n, const tinyblas_float_complex* x, int64_t incx, const tinyblas_float_complex* y, int64_t incy, tinyblas_float_complex* result);
TINYBLAS_EXPORT tinyblas_status tinyblas_zdotc_64(tinyblas_handle handle, int64_t n, const tinyblas_double_complex* x, int64_t incx, const tinyblas_double_complex* y, int64_t incy, tinyblas_double_complex* result);
/* ---- BLAS1 LP64 only ---- */
TINYBLAS_EXPORT tinyblas_status tinyblas_saxpy(tinyblas_handle handle, tinyblas_int n, const float* alpha, const float* x, tinyblas_int incx, float* y, tinyblas_int incy);
TINYBLAS_EXPORT tinyblas_status tinyblas_daxpy(tinyblas_handle handle, tinyblas_int n, const double* alpha, const double* x, tinyblas_int incx, double* y, tinyblas_int incy);
TINYBLAS_EXPORT tinyblas_status tinyblas_caxpy(tinyblas_handle handle, tinyblas_int n, const tinyblas_float_complex* alpha, const tinyblas_float_complex* x, tinyblas_int incx, tinyblas_float_complex* y, tinyblas_int incy);
TINYBLAS_EXPORT tinyblas_status tinyblas_zaxpy(tinyblas_handle handle, tinyblas_int n, const tinyblas_double_complex* alpha, const tinyblas_double_complex* x, tinyblas_int incx, tinyblas_double_complex* y, tinyblas_int incy);
TINYBLAS_EXPORT tinyblas_status tinyblas_axpy_ex(tinyblas_handle handle, tinyblas_int n, const void* alpha, tinyblas_datatype alpha_type, const void* x, tinyblas_datatype x_type, tinyblas_int incx, void* y, tinyblas_datatype y_type, tinyblas_int incy, tinyblas_datatype execution_type);
/* ---- BLAS2 ---- */
TINYBLAS_EXPORT tinyblas_status tinyblas_sgemv(tinyblas_handle handle, tinyblas_operation transA, tinyblas_int m, tinyblas_int n, const float* alpha, const float* A, tinyblas_int lda, const float* x, tinyblas_int incx, const float* beta, float* y, tinyblas_int incy);
TINYBLAS_EXPORT tinyblas_status tinyblas_dgemv(tinyblas_handle handle, tinyblas_operation transA, tinyblas_int m, tinyblas_int n, const double* alpha, const double* A, tinyblas_int lda, const double* x, tinyblas_int incx, const double* beta, double* y, tinyblas_int incy);
TINYBLAS_EXPORT tinyblas_status tinyblas_cgemv(tinyblas_handle handle, tinyblas_operation transA, tinyblas_int m, tinyblas_int n, const tinyblas_float_complex* alpha, const tinyblas_float_complex* A, tinyblas_int lda, const tinyblas_float_complex* x, tinyblas_int incx, const tinyblas_float_complex* beta, tinyblas_float_complex* y, tinyblas_int incy);
TINYBLAS_EXPORT tinyblas_status tinyblas_zgemv(tinyblas_handle handle, tinyblas_operation transA, tinyblas_int m, tinyblas_int n, const tinyblas_double_complex* alpha, const tinyblas_double_complex* A, tinyblas_int lda, const tinyblas_double_complex* x, tinyblas_int incx, const tinyblas_double_complex* beta, tinyblas_double_complex* y, tinyblas_int incy);
/* ---- BLAS3 ---- */
TINYBLAS_EXPORT tinyblas_status tinyblas_sgemm(tinyblas_handle handle, tinyblas_operation transA, tinyblas_operation transB, tinyblas_int m, tinyblas_int n, tinyblas_int k, const float* alpha, const float* A, tinyblas_int lda, const float* B, tinyblas_int ldb, const float* beta, float* C, tinyblas_int ldc);
TINYBLAS_EXPORT tinyblas_status tinyblas_dgemm(tinyblas_handle handle, tinyblas_operation transA, tinyblas_operation transB, tinyblas_int m, tinyblas_int n, tinyblas_int k, const double* alpha, const double* A, tinyblas_int lda, const double* B, tinyblas_int ldb, const double* beta, double* C, tinyblas_int ldc);
TINYBLAS_EXPORT tinyblas_status tinyblas_cgemm(tinyblas_handle handle, tinyblas_operation transA, tinyblas_operation transB, tinyblas_int m, tinyblas_int n, tinyblas_int k, const tinyblas_float_complex* alpha, const tinyblas_float_complex* A, tinyblas_int lda, const tinyblas_float_complex* B, tinyblas_int ldb, const tinyblas_float_complex* beta, tinyblas_float_complex* C, tinyblas_int ldc);
TINYBLAS_EXPORT tinyblas_status tinyblas_zgemm(tinyblas_handle handle, tinyblas_operation transA, tinyblas_operation transB, tinyblas_int m, tinyblas_int n, tinyblas_int k, const tinyblas_double_complex* alpha, const tinyblas_double_complex* A, tinyblas_int lda, const tinyblas_double_complex* B, tinyblas_int ldb, const tinyblas_double_complex* beta, tinyblas_double_complex* C, tinyblas_int ldc);
TINYBLAS_EXPORT tinyblas_status tinyblas_strsm(tinyblas_handle handle, tinyblas_side side, tinyblas_fill uplo, tinyblas_operation transA, tinyblas_diagonal diag, tinyblas_int m, tinyblas_int n, const float* alpha, const float* A, tinyblas_int lda, float* B, tinyblas_int ldb);
TINYBLAS_EXPORT tinyblas_status tinyblas_dtrsm(tinyblas_handle handle, tinyblas_side side, tinyblas_fill uplo, tinyblas_operation transA, tinyblas_diagonal diag, tinyblas_int m, tinyblas_int n, const double* alpha, const double* A, tinyblas_int lda, double* B, tinyblas_int ldb);

#ifdef __cplusplus
}
#endif

#endif /* TINYBLAS_FUNCTIONS_H */
