// Example library for rocm-miner tests. MIT licence.
// Patterns met in rocBLAS that a traversal must get right:
//  - a host utility in utility.hpp that launches a kernel of its own (tinyblas_setup_ptr_array),
//    kept by an allow rule although host code in utility.hpp is otherwise excluded;
//  - a workspace-size helper (a memory-size query), excluded;
//  - the library's own overload declared in namespace std (std::real for its complex type),
//    called from a kernel: a device helper, not a system boundary;
//  - a branch on a template bool (`if(BATCHED)`), and a kernel launched by its bare name;
//  - hand-written glue under blas3/Tensile/ that calls into generated code.
#include "blas3/Tensile/tinyblas_set_glue.hpp"
#include "handle.hpp"
#include "logging.hpp"
#include "macros.hpp"
#include "utility.hpp"

namespace std
{
    __device__ __host__ inline float real(const tinyblas_float_complex& z)
    {
        return z.x;
    }
}

template <typename T>
__global__ void tinyblas_set_kernel(tinyblas_int n, T alpha, T* const* x, tinyblas_int incx)
{
    const tinyblas_int i = blockIdx.x * blockDim.x + threadIdx.x;
    if(i < n)
        x[blockIdx.y][int64_t(i) * incx] = alpha;
}

__global__ void tinyblas_set_plain_kernel(tinyblas_int n, const tinyblas_float_complex* alpha, float* y)
{
    const tinyblas_int i = blockIdx.x * blockDim.x + threadIdx.x;
    if(i < n)
        y[i] = std::real(*alpha);
}

inline size_t tinyblas_set_batched_workspace_size(tinyblas_int batch_count)
{
    return sizeof(void*) * size_t(batch_count);
}

template <bool BATCHED, typename T>
tinyblas_status tinyblas_set_batched_impl(tinyblas_handle handle, tinyblas_int n, const T* alpha, T* const* x,
                                          tinyblas_int incx, tinyblas_int batch_count)
{
    if(!handle)
        return tinyblas_status_invalid_handle;
    log_trace(handle, "tinyblas_sset_batched", n, incx, batch_count);
    if(n <= 0 || batch_count <= 0)
        return tinyblas_status_success;
    size_t  bytes = tinyblas_set_batched_workspace_size(batch_count);
    T**     ptrs  = nullptr;
    if(BATCHED)
    {
        tinyblas_status st = tinyblas_setup_ptr_array(handle->get_stream(), ptrs, x[0], tinyblas_stride(n) * incx, batch_count);
        if(st != tinyblas_status_success)
            return st;
    }
    if(n > 65536)
        return tinyblas_set_call_generated(handle, n, alpha, x);
    dim3 grid((n - 1) / 256 + 1, batch_count);
    hipLaunchKernelGGL(tinyblas_set_kernel<T>, grid, dim3(256), 0, handle->get_stream(), n, *alpha, x, incx);
    hipLaunchKernelGGL(tinyblas_set_plain_kernel, dim3((n - 1) / 256 + 1), dim3(256), bytes & 0, handle->get_stream(),
                       n, nullptr, nullptr);
    return tinyblas_status_success;
}

extern "C" tinyblas_status tinyblas_sset_batched(
    tinyblas_handle handle, tinyblas_int n, const float* alpha, float* const x[], tinyblas_int incx, tinyblas_int batch_count)
{
    return tinyblas_set_batched_impl<true>(handle, n, alpha, x, incx, batch_count);
}
