// Example library for rocm-miner tests. MIT licence.
// __device__ helpers and small shared kernels of tinysolver.
#pragma once

#include "lib_macros.hpp"
#include "tinyblas.h"

template <typename T>
struct ts_real_type
{
    using type = T;
};
template <>
struct ts_real_type<tinyblas_float_complex>
{
    using type = float;
};
template <>
struct ts_real_type<tinyblas_double_complex>
{
    using type = double;
};

// |re| + |im|, the LAPACK pivoting measure
__device__ inline float ts_abs1(float v) { return fabsf(v); }
__device__ inline double ts_abs1(double v) { return fabs(v); }
__device__ inline float ts_abs1(tinyblas_float_complex v) { return fabsf(v.x) + fabsf(v.y); }
__device__ inline double ts_abs1(tinyblas_double_complex v) { return fabs(v.x) + fabs(v.y); }

__device__ inline float ts_mul(float a, float b) { return a * b; }
__device__ inline double ts_mul(double a, double b) { return a * b; }
template <typename C>
__device__ inline C ts_mul(C a, C b)
{
    return {a.x * b.x - a.y * b.y, a.x * b.y + a.y * b.x};
}

__device__ inline float ts_sub(float a, float b) { return a - b; }
__device__ inline double ts_sub(double a, double b) { return a - b; }
template <typename C>
__device__ inline C ts_sub(C a, C b)
{
    return {a.x - b.x, a.y - b.y};
}

__device__ inline float ts_inv(float v) { return 1.0f / v; }
__device__ inline double ts_inv(double v) { return 1.0 / v; }
template <typename C>
__device__ inline C ts_inv(C v)
{
    auto d = v.x * v.x + v.y * v.y;
    return {v.x / d, -v.y / d};
}

template <typename T>
__device__ inline T* load_ptr_batch(T* p, tinyblas_int batch, tinyblas_stride shift, tinyblas_stride stride)
{
    return p + batch * stride + shift;
}
template <typename T>
__device__ inline T* load_ptr_batch(T* const* p, tinyblas_int batch, tinyblas_stride shift, tinyblas_stride)
{
    return p[batch] + shift;
}

// true when candidate (v2, i2) should replace (v1, i1): larger value, first index on ties
template <typename S>
__device__ inline bool ts_iamax_better(S v1, int i1, S v2, int i2)
{
    return v2 > v1 || (v2 == v1 && i2 < i1);
}

// arg-max over NB (value, index) pairs in shared memory; result in sval[0], sidx[0]
template <int NB, typename S>
__device__ void ts_iamax_block(S* sval, int* sidx)
{
    for(int s = NB / 2; s > 0; s /= 2)
    {
        if(threadIdx.x < s && ts_iamax_better(sval[threadIdx.x], sidx[threadIdx.x],
                                              sval[threadIdx.x + s], sidx[threadIdx.x + s]))
        {
            sval[threadIdx.x] = sval[threadIdx.x + s];
            sidx[threadIdx.x] = sidx[threadIdx.x + s];
        }
        __syncthreads();
    }
}

// block-wide sum of a real value; the result is valid in every thread
template <int NB, typename S>
__device__ S ts_block_sum(S v)
{
    __shared__ S sdata[NB];
    sdata[threadIdx.x] = v;
    __syncthreads();
    for(int s = NB / 2; s > 0; s /= 2)
    {
        if(threadIdx.x < s)
            sdata[threadIdx.x] += sdata[threadIdx.x + s];
        __syncthreads();
    }
    return sdata[0];
}

// info[b] = value for every batch instance (info is one array: only the plain-pointer load_ptr_batch runs here,
// even for the batched entries, whose other kernels take the pointer-array one)
template <typename T, typename S>
TINYSOLVER_KERNEL void reset_info_kernel(T* info, tinyblas_int batch_count, S value)
{
    tinyblas_int b = blockIdx.x * blockDim.x + threadIdx.x;
    if(b < batch_count)
        *load_ptr_batch(info, b, 0, 1) = T(value);
}
