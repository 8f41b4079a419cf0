#include <hip/hip_runtime.h>

__device__ inline long pos(long i, int n, int inc) { return inc > 0 ? i * inc : (n - 1 - i) * (long)(-inc); }

__global__ void swap_kernel(int n, float* __restrict__ x, int incx, float* __restrict__ y, int incy) {
    long i = (long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        long ix = pos(i, n, incx), iy = pos(i, n, incy);
        float a = x[ix];
        x[ix] = y[iy];
        y[iy] = a;
    }
}

extern "C" void swap(int n, float* x, int incx, float* y, int incy, hipStream_t stream) {
    if (n <= 0) return;
    hipLaunchKernelGGL(swap_kernel, dim3((n + 255) / 256), dim3(256), 0, stream, n, x, incx, y, incy);
}
