#include <hip/hip_runtime.h>

// A negative increment walks the buffer backwards: logical element i sits at (n - 1 - i) * |inc|.
__device__ inline long pos(long i, int n, int inc) { return inc > 0 ? i * inc : (n - 1 - i) * (long)(-inc); }

__global__ void axpy_kernel(int n, float alpha, const float* __restrict__ x, int incx, float* __restrict__ y, int incy) {
    long i = (long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        long iy = pos(i, n, incy);
        y[iy] = alpha * x[pos(i, n, incx)] + y[iy];
    }
}

extern "C" void axpy(int n, float alpha, const float* x, int incx, float* y, int incy, hipStream_t stream) {
    if (n <= 0) return;
    hipLaunchKernelGGL(axpy_kernel, dim3((n + 255) / 256), dim3(256), 0, stream, n, alpha, x, incx, y, incy);
}
