#include <hip/hip_runtime.h>

__device__ inline long pos(long i, int n, int inc) { return inc > 0 ? i * inc : (n - 1 - i) * (long)(-inc); }

__global__ void rot_kernel(int n, float* __restrict__ x, int incx, float* __restrict__ y, int incy, float c, float s) {
    long i = (long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        long ix = pos(i, n, incx), iy = pos(i, n, incy);
        float a = x[ix], b = y[iy];
        x[ix] = c * a + s * b;
        y[iy] = c * b - s * a;
    }
}

extern "C" void rot(int n, float* x, int incx, float* y, int incy, float c, float s, hipStream_t stream) {
    if (n <= 0) return;
    hipLaunchKernelGGL(rot_kernel, dim3((n + 255) / 256), dim3(256), 0, stream, n, x, incx, y, incy, c, s);
}
