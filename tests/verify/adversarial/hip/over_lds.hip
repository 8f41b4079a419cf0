// task: scal
// expect: resource-limit
// Asks for 80 KB of LDS per block: over the 64 KB a gfx90a workgroup may use.
#include <hip/hip_runtime.h>

__global__ void scal_kernel(int n, float alpha, float* x, int incx) {
    __shared__ float tile[20000];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    tile[threadIdx.x] = i < n ? x[(long)i * incx] : 0.f;
    __syncthreads();
    if (i < n) x[(long)i * incx] = alpha * tile[(threadIdx.x * 7) % 20000];
}

extern "C" void scal(int n, float alpha, float* x, int incx, hipStream_t stream) {
    if (n <= 0 || incx <= 0) return;
    hipLaunchKernelGGL(scal_kernel, dim3((n + 255) / 256), dim3(256), 0, stream, n, alpha, x, incx);
}
