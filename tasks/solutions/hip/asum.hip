#include <hip/hip_runtime.h>

#define BLOCKS 1024
#define THREADS 256

__device__ float partials[BLOCKS];

__device__ inline long pos(long i, int n, int inc) { return inc > 0 ? i * inc : (n - 1 - i) * (long)(-inc); }

__device__ float block_sum(float v) {
    __shared__ float buf[THREADS];
    buf[threadIdx.x] = v;
    __syncthreads();
    for (int s = THREADS / 2; s > 0; s >>= 1) {
        if (threadIdx.x < s) buf[threadIdx.x] += buf[threadIdx.x + s];
        __syncthreads();
    }
    return buf[0];
}

__global__ void partial_kernel(int n, const float* __restrict__ x, int incx) {
    float acc = 0.f;
    for (long i = (long)blockIdx.x * THREADS + threadIdx.x; i < n; i += (long)BLOCKS * THREADS) acc += fabsf(x[i * incx]);
    float s = block_sum(acc);
    if (threadIdx.x == 0) partials[blockIdx.x] = s;
}

__global__ void final_kernel(float* result, int empty) {
    float v = 0.f;
    for (int j = threadIdx.x; j < BLOCKS; j += THREADS) v += empty ? 0.f : partials[j];
    float total = block_sum(v);
    if (threadIdx.x == 0) *result = total;
}

extern "C" void asum(int n, const float* x, int incx, float* result, hipStream_t stream) {
    int empty = n <= 0 || incx <= 0;
    if (!empty) hipLaunchKernelGGL(partial_kernel, dim3(BLOCKS), dim3(THREADS), 0, stream, n, x, incx);
    hipLaunchKernelGGL(final_kernel, dim3(1), dim3(THREADS), 0, stream, result, empty);
}
