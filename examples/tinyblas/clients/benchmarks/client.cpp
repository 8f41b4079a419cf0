// Example library for rocm-miner tests. MIT licence.
// Benchmark driver: calls the public API; never part of a mined bundle.
#include "tinyblas.h"
#include <chrono>
#include <cstdio>
#include <cstring>
#include <hip/hip_runtime.h>

int main(int argc, char** argv)
{
    const char* fn = argc > 1 ? argv[1] : "scal";
    int         n  = argc > 2 ? std::atoi(argv[2]) : 1 << 20;

    tinyblas_handle handle;
    tinyblas_create_handle(&handle);
    float *dx, *dy, result = 0, alpha = 2.0f;
    (void)hipMalloc(&dx, sizeof(float) * n);
    (void)hipMalloc(&dy, sizeof(float) * n);

    auto t0 = std::chrono::steady_clock::now();
    if(!std::strcmp(fn, "scal"))
        tinyblas_sscal(handle, n, &alpha, dx, 1);
    else if(!std::strcmp(fn, "dot"))
        tinyblas_sdot(handle, n, dx, 1, dy, 1, &result);
    else if(!std::strcmp(fn, "axpy"))
        tinyblas_saxpy(handle, n, &alpha, dx, 1, dy, 1);
    (void)hipDeviceSynchronize();
    auto t1 = std::chrono::steady_clock::now();
    std::printf("%s n=%d: %.3f us\n", fn, n, std::chrono::duration<double, std::micro>(t1 - t0).count());

    (void)hipFree(dx);
    (void)hipFree(dy);
    tinyblas_destroy_handle(handle);
    return 0;
}
