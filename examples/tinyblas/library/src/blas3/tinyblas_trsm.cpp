// Example library for rocm-miner tests. MIT licence.
// trsm C API (impl kept in the .cpp, LP64 only).
#include "handle.hpp"
#include "logging.hpp"
#include "tinyblas_trsm.hpp"
#include "utility.hpp"

namespace
{
    template <typename T>
    tinyblas_status tinyblas_trsm_impl(tinyblas_handle handle, tinyblas_side side, tinyblas_fill uplo,
                                       tinyblas_operation transA, tinyblas_diagonal diag,
                                       tinyblas_int m, tinyblas_int n, const T* alpha, const T* A,
                                       tinyblas_int lda, T* B, tinyblas_int ldb)
    {
        if(!handle)
            return tinyblas_status_invalid_handle;
        RETURN_ZERO_DEVICE_MEMORY_SIZE_IF_QUERIED(handle);

        if(handle->layer_mode & tinyblas_layer_mode_log_trace)
            log_trace(handle, "tinyblas_trsm", side, uplo, transA, diag, m, n, A, lda, B, ldb);

        if(!tinyblas_is_op(transA))
            return tinyblas_status_invalid_value;
        tinyblas_int ka = side == tinyblas_side_left ? m : n;
        if(m < 0 || n < 0 || lda < ka || ldb < m)
            return tinyblas_status_invalid_size;
        if(!m || !n)
            return tinyblas_status_success;
        if(!alpha || !A || !B)
            return tinyblas_status_invalid_pointer;

        return tinyblas_internal_trsm_template<T>(handle, side, uplo, transA, diag, m, n, alpha, A, 0,
                                                  lda, 0, B, 0, ldb, 0, 1);
    }
} // namespace

#define IMPL(name_, T_)                                                                             \
    tinyblas_status name_(tinyblas_handle handle, tinyblas_side side, tinyblas_fill uplo,           \
                          tinyblas_operation transA, tinyblas_diagonal diag, tinyblas_int m,        \
                          tinyblas_int n, const T_* alpha, const T_* A, tinyblas_int lda, T_* B,    \
                          tinyblas_int ldb)                                                         \
    try                                                                                             \
    {                                                                                               \
        return tinyblas_trsm_impl(handle, side, uplo, transA, diag, m, n, alpha, A, lda, B, ldb);   \
    }                                                                                               \
    catch(...)                                                                                      \
    {                                                                                               \
        return exception_to_tinyblas_status();                                                      \
    }

extern "C" {
IMPL(tinyblas_strsm, float);
IMPL(tinyblas_dtrsm, double);
}
