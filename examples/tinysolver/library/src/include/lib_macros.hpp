// Example library for rocm-miner tests. MIT licence.
#pragma once

#include <hip/hip_runtime.h>

#define TINYSOLVER_KERNEL static __global__

// TINYSOLVER_LAUNCH_KERNEL(kernel, grid, block, shmem, stream, args...);
// parenthesize a kernel name that has template arguments
#define TINYSOLVER_LAUNCH_KERNEL(kernel, grid, block, shmem, stream, ...) \
    hipLaunchKernelGGL(kernel, grid, block, shmem, stream, __VA_ARGS__)

// column-major offset of element (i, j)
#define idx2D(i, j, lda) ((j) * tinyblas_stride(lda) + (i))

// tuning constants (mirrors ideal_sizes.hpp)
#define TINYSOLVER_GETF2_NB 256
#define TINYSOLVER_GETRF_BLOCKSIZE 64
#define TINYSOLVER_GETRF_GETF2_SWITCHSIZE 128
#define TINYSOLVER_POTF2_NB 128
#define TINYSOLVER_LASWP_NB 256
