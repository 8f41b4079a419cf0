// Example library for rocm-miner tests. MIT licence.
#pragma once

#include "tinyblas.h"
#include <exception>
#include <new>
#include <stdexcept>
#include <type_traits>

// maps the exception in flight to a status (used in every C entry point's catch)
inline tinyblas_status exception_to_tinyblas_status()
{
    try
    {
        throw;
    }
    catch(const std::bad_alloc&)
    {
        return tinyblas_status_memory_error;
    }
    catch(const std::invalid_argument&)
    {
        return tinyblas_status_invalid_value;
    }
    catch(...)
    {
        return tinyblas_status_internal_error;
    }
}

template <typename T>
constexpr const char* precision_string = "invalid";
template <>
constexpr const char* precision_string<float> = "f32_r";
template <>
constexpr const char* precision_string<double> = "f64_r";
template <>
constexpr const char* precision_string<tinyblas_half> = "f16_r";
template <>
constexpr const char* precision_string<tinyblas_float_complex> = "f32_c";
template <>
constexpr const char* precision_string<tinyblas_double_complex> = "f64_c";

inline bool tinyblas_is_op(tinyblas_operation op)
{
    return op == tinyblas_operation_none || op == tinyblas_operation_transpose
           || op == tinyblas_operation_conjugate_transpose;
}

// host-side scalar constants for any tinyblas type
template <typename T>
inline T tinyblas_make_scalar(double v)
{
    if constexpr(std::is_same_v<T, float> || std::is_same_v<T, double>)
        return T(v);
    else
        return T{decltype(T{}.x)(v), 0};
}

template <typename T>
inline bool tinyblas_is_one(const T& v)
{
    if constexpr(std::is_same_v<T, float> || std::is_same_v<T, double>)
        return v == 1;
    else
        return v.x == 1 && v.y == 0;
}

// A host utility that launches a kernel of its own (rocBLAS: setup_batched_array).
template <typename T>
__global__ void tinyblas_setup_ptr_array_kernel(T** out, T* base, tinyblas_stride stride, tinyblas_int count)
{
    const tinyblas_int b = blockIdx.x * blockDim.x + threadIdx.x;
    if(b < count)
        out[b] = base + b * stride;
}

template <typename T>
tinyblas_status tinyblas_setup_ptr_array(
    hipStream_t stream, T** out, T* base, tinyblas_stride stride, tinyblas_int count)
{
    hipLaunchKernelGGL(tinyblas_setup_ptr_array_kernel<T>, dim3((count - 1) / 64 + 1), dim3(64), 0, stream, out,
                       base, stride, count);
    return tinyblas_status_success;
}
