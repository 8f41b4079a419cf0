// Example library for rocm-miner tests. MIT licence.
// __device__ helpers shared by the tinyblas kernels (arithmetic on the
// tinyblas types, scalar/pointer loading, wavefront and block reductions).
#pragma once

#include "tinyblas.h"
#include <hip/hip_runtime.h>

// ---- arithmetic -------------------------------------------------------------
// pairs of elements, rounded up: half-precision kernels take two per thread; the numerics
// checker's host code sizes its grid with it too (rocBLAS's adjust_ptr_batch is such a helper)
__host__ __device__ inline int64_t tb_pairs(int64_t n) { return (n + 1) / 2; }

__device__ inline float tb_mul(float a, float b) { return a * b; }
__device__ inline double tb_mul(double a, double b) { return a * b; }
__device__ inline tinyblas_float_complex tb_mul(tinyblas_float_complex a, tinyblas_float_complex b)
{
    return {a.x * b.x - a.y * b.y, a.x * b.y + a.y * b.x};
}
__device__ inline tinyblas_double_complex tb_mul(tinyblas_double_complex a, tinyblas_double_complex b)
{
    return {a.x * b.x - a.y * b.y, a.x * b.y + a.y * b.x};
}
__device__ inline tinyblas_float_complex tb_mul(float a, tinyblas_float_complex b) { return {a * b.x, a * b.y}; }
__device__ inline tinyblas_double_complex tb_mul(double a, tinyblas_double_complex b) { return {a * b.x, a * b.y}; }

__device__ inline float tb_add(float a, float b) { return a + b; }
__device__ inline double tb_add(double a, double b) { return a + b; }
__device__ inline tinyblas_float_complex tb_add(tinyblas_float_complex a, tinyblas_float_complex b) { return {a.x + b.x, a.y + b.y}; }
__device__ inline tinyblas_double_complex tb_add(tinyblas_double_complex a, tinyblas_double_complex b) { return {a.x + b.x, a.y + b.y}; }

__device__ inline float tb_sub(float a, float b) { return a - b; }
__device__ inline double tb_sub(double a, double b) { return a - b; }
__device__ inline tinyblas_float_complex tb_sub(tinyblas_float_complex a, tinyblas_float_complex b) { return {a.x - b.x, a.y - b.y}; }
__device__ inline tinyblas_double_complex tb_sub(tinyblas_double_complex a, tinyblas_double_complex b) { return {a.x - b.x, a.y - b.y}; }

__device__ inline float tb_conj(float a) { return a; }
__device__ inline double tb_conj(double a) { return a; }
__device__ inline tinyblas_float_complex tb_conj(tinyblas_float_complex a) { return {a.x, -a.y}; }
__device__ inline tinyblas_double_complex tb_conj(tinyblas_double_complex a) { return {a.x, -a.y}; }

// a / b; the complex form is a*conj(b)/|b|^2 (helper calling helpers)
__device__ inline float tb_div(float a, float b) { return a / b; }
__device__ inline double tb_div(double a, double b) { return a / b; }
template <typename C>
__device__ inline C tb_div(C a, C b)
{
    auto den = b.x * b.x + b.y * b.y;
    C    num = tb_mul(a, tb_conj(b));
    return {num.x / den, num.y / den};
}

template <typename T>
__device__ inline T tb_zero() { return T{}; }

// multiply-accumulate: acc + a*b
template <typename T>
__device__ inline T tb_fma(T a, T b, T acc) { return tb_add(acc, tb_mul(a, b)); }

// element (r, c) of op(A) for a column-major A; conjugates for conjugate_transpose
template <typename T>
__device__ inline T tb_elem_op(const T* A, int64_t lda, tinyblas_operation op, int64_t r, int64_t c)
{
    if(op == tinyblas_operation_none)
        return A[r + c * lda];
    T v = A[c + r * lda];
    return op == tinyblas_operation_conjugate_transpose ? tb_conj(v) : v;
}

// ---- half precision (only reached by the half kernels) ----------------------
__device__ inline float tb_half_to_float(tinyblas_half h)
{
    uint32_t sign = (h.bits & 0x8000u) << 16, expo = (h.bits >> 10) & 0x1f, mant = h.bits & 0x3ff;
    uint32_t bits = expo == 0 ? sign : (sign | ((expo + 112u) << 23) | (mant << 13));
    return __uint_as_float(bits);
}

__device__ inline tinyblas_half tb_float_to_half(float f)
{
    uint32_t bits = __float_as_uint(f);
    int32_t  expo = int32_t((bits >> 23) & 0xff) - 112;
    uint16_t sign = uint16_t((bits >> 16) & 0x8000u);
    if(expo <= 0)
        return {sign};
    if(expo >= 31)
        return {uint16_t(sign | 0x7c00u)};
    return {uint16_t(sign | (expo << 10) | ((bits >> 13) & 0x3ff))};
}

// alpha * h computed in float (two helper levels: tb_half_mul -> tb_half_to_float)
__device__ inline tinyblas_half tb_half_mul(tinyblas_half alpha, tinyblas_half h)
{
    return tb_float_to_half(tb_half_to_float(alpha) * tb_half_to_float(h));
}

// ---- scalar / pointer loading ----------------------------------------------
// alpha given by value (host pointer mode)
template <typename T>
__device__ inline T load_scalar(T alpha, uint32_t, tinyblas_stride)
{
    return alpha;
}
// alpha given by device pointer (device pointer mode), one per batch
template <typename T>
__device__ inline T load_scalar(const T* alpha, uint32_t batch, tinyblas_stride stride_alpha)
{
    return alpha[batch * stride_alpha];
}

// strided batch
template <typename T>
__device__ inline T* load_ptr_batch(T* p, uint32_t batch, tinyblas_stride offset, tinyblas_stride stride)
{
    return p + offset + batch * stride;
}
// array of pointers
template <typename T>
__device__ inline T* load_ptr_batch(T* const* p, uint32_t batch, tinyblas_stride offset, tinyblas_stride)
{
    return p[batch] + offset;
}

// ---- reductions ---------------------------------------------------------------
__device__ inline float tb_shfl_down(float v, int off) { return __shfl_down(v, off); }
__device__ inline double tb_shfl_down(double v, int off) { return __shfl_down(v, off); }
__device__ inline tinyblas_float_complex tb_shfl_down(tinyblas_float_complex v, int off)
{
    return {tb_shfl_down(v.x, off), tb_shfl_down(v.y, off)};
}
__device__ inline tinyblas_double_complex tb_shfl_down(tinyblas_double_complex v, int off)
{
    return {tb_shfl_down(v.x, off), tb_shfl_down(v.y, off)};
}

template <int WF, typename T>
__device__ inline T wavefront_reduce_sum(T val)
{
    for(int off = WF / 2; off > 0; off /= 2)
        val = tb_add(val, tb_shfl_down(val, off));
    return val;
}

// sum over the block; the result is valid in thread 0
template <int NB, typename T>
__device__ inline T block_reduce_sum(T val)
{
    constexpr int WF = 64;
    __shared__ T  partial[NB / WF];
    int           lane = threadIdx.x % WF;
    int           wave = threadIdx.x / WF;

    val = wavefront_reduce_sum<WF>(val);
    if(lane == 0)
        partial[wave] = val;
    __syncthreads();

    val = threadIdx.x < NB / WF ? partial[lane] : tb_zero<T>();
    if(wave == 0)
        val = wavefront_reduce_sum<WF>(val);
    return val;
}
