#include <hip/hip_runtime.h>

__global__ void scal_kernel(int n, float alpha, float* __restrict__ x, int incx) {
    long i = (long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i * incx] *= alpha;
}

extern "C" void scal(int n, float alpha, float* x, int incx, hipStream_t stream) {
    if (n <= 0 || incx <= 0) return;
    hipLaunchKernelGGL(scal_kernel, dim3((n + 255) / 256), dim3(256), 0, stream, n, alpha, x, incx);
}
