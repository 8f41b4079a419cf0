#include <hip/hip_runtime.h>

#define BLOCKS 1024
#define THREADS 256

__device__ float part_val[BLOCKS];
__device__ long part_idx[BLOCKS];

// keeps the larger |x|, and the smaller index among equals (BLAS: the first maximum)
__device__ inline void better(float& v, long& i, float v2, long i2) {
    if (v2 > v || (v2 == v && i2 < i)) { v = v2; i = i2; }
}

__device__ void block_best(float& v, long& i) {
    __shared__ float bv[THREADS];
    __shared__ long bi[THREADS];
    bv[threadIdx.x] = v;
    bi[threadIdx.x] = i;
    __syncthreads();
    for (int s = THREADS / 2; s > 0; s >>= 1) {
        if (threadIdx.x < s) {
            float a = bv[threadIdx.x];
            long ai = bi[threadIdx.x];
            better(a, ai, bv[threadIdx.x + s], bi[threadIdx.x + s]);
            bv[threadIdx.x] = a;
            bi[threadIdx.x] = ai;
        }
        __syncthreads();
    }
    v = bv[0];
    i = bi[0];
}

__global__ void partial_kernel(int n, const float* __restrict__ x, int incx) {
    float v = -1.f;
    long idx = 0x7fffffffffffffffL;
    for (long i = (long)blockIdx.x * THREADS + threadIdx.x; i < n; i += (long)BLOCKS * THREADS) better(v, idx, fabsf(x[i * incx]), i);
    block_best(v, idx);
    if (threadIdx.x == 0) { part_val[blockIdx.x] = v; part_idx[blockIdx.x] = idx; }
}

__global__ void final_kernel(int* result, int empty) {
    float v = -1.f;
    long idx = 0x7fffffffffffffffL;
    if (!empty)
        for (int j = threadIdx.x; j < BLOCKS; j += THREADS) better(v, idx, part_val[j], part_idx[j]);
    block_best(v, idx);
    if (threadIdx.x == 0) *result = empty ? 0 : (int)(idx + 1);
}

extern "C" void iamax(int n, const float* x, int incx, int* result, hipStream_t stream) {
    int empty = n <= 0 || incx <= 0;
    if (!empty) hipLaunchKernelGGL(partial_kernel, dim3(BLOCKS), dim3(THREADS), 0, stream, n, x, incx);
    hipLaunchKernelGGL(final_kernel, dim3(1), dim3(THREADS), 0, stream, result, empty);
}
