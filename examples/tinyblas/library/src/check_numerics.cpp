// Example library for rocm-miner tests. MIT licence.
#include "check_numerics.hpp"
#include "device_helpers.hpp"
#include "macros.hpp"

__device__ inline bool tb_numerics_is_bad(float v) { return isnan(v) || isinf(v); }
__device__ inline bool tb_numerics_is_bad(double v) { return isnan(v) || isinf(v); }
__device__ inline bool tb_numerics_is_bad(tinyblas_half v) { return (v.bits & 0x7c00u) == 0x7c00u; }
__device__ inline bool tb_numerics_is_bad(tinyblas_float_complex v) { return tb_numerics_is_bad(v.x) || tb_numerics_is_bad(v.y); }
__device__ inline bool tb_numerics_is_bad(tinyblas_double_complex v) { return tb_numerics_is_bad(v.x) || tb_numerics_is_bad(v.y); }

template <int NB, typename Tx>
TINYBLAS_KERNEL(NB)
tinyblas_check_numerics_vector_kernel(int64_t n, Tx xa, tinyblas_stride offset_x, int64_t inc_x, tinyblas_stride stride_x, int* flag)
{
    auto*   x   = load_ptr_batch(xa, blockIdx.y, offset_x, stride_x);
    int64_t tid = blockIdx.x * int64_t(NB) + threadIdx.x;
    if(tid < n && tb_numerics_is_bad(x[tid * inc_x]))
        *flag = 1;
}

template <typename Tx>
tinyblas_status tinyblas_internal_check_numerics_vector_template(const char*     function_name,
                                                                  tinyblas_handle handle,
                                                                  int64_t         n,
                                                                  Tx              x,
                                                                  tinyblas_stride offset_x,
                                                                  int64_t         inc_x,
                                                                  tinyblas_stride stride_x,
                                                                  int64_t         batch_count,
                                                                  int             check_numerics,
                                                                  bool            is_input)
{
    if(!check_numerics || n <= 0 || batch_count <= 0 || !x)
        return tinyblas_status_success;

    int* d_flag = static_cast<int*>(handle->device_malloc(sizeof(int)));
    if(!d_flag)
        return tinyblas_status_memory_error;
    hipStream_t stream = handle->get_stream();
    (void)hipMemsetAsync(d_flag, 0, sizeof(int), stream);

    constexpr int NB = 256;
    dim3          grid((2 * tb_pairs(n) - 1) / NB + 1, batch_count);
    TINYBLAS_LAUNCH_KERNEL((tinyblas_check_numerics_vector_kernel<NB, Tx>), grid, dim3(NB), 0, stream,
                           n, x, offset_x, inc_x, stride_x, d_flag);

    int h_flag = 0;
    (void)hipMemcpyAsync(&h_flag, d_flag, sizeof(int), hipMemcpyDeviceToHost, stream);
    (void)hipStreamSynchronize(stream);
    (void)function_name;
    (void)is_input;
    return h_flag ? tinyblas_status_check_numerics_fail : tinyblas_status_success;
}

#define INST_CHECK_NUMERICS_VECTOR(Tx_)                                                          \
    template tinyblas_status tinyblas_internal_check_numerics_vector_template<Tx_>(               \
        const char*, tinyblas_handle, int64_t, Tx_, tinyblas_stride, int64_t, tinyblas_stride,   \
        int64_t, int, bool)

INST_CHECK_NUMERICS_VECTOR(float*);
INST_CHECK_NUMERICS_VECTOR(double*);
INST_CHECK_NUMERICS_VECTOR(tinyblas_half*);
INST_CHECK_NUMERICS_VECTOR(tinyblas_float_complex*);
INST_CHECK_NUMERICS_VECTOR(tinyblas_double_complex*);
INST_CHECK_NUMERICS_VECTOR(const float*);
INST_CHECK_NUMERICS_VECTOR(const double*);
INST_CHECK_NUMERICS_VECTOR(const tinyblas_float_complex*);
INST_CHECK_NUMERICS_VECTOR(const tinyblas_double_complex*);
INST_CHECK_NUMERICS_VECTOR(float* const*);
INST_CHECK_NUMERICS_VECTOR(double* const*);
