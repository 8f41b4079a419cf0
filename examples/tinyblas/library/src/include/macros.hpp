// Example library for rocm-miner tests. MIT licence.
#pragma once

#include <hip/hip_runtime.h>

#define TINYBLAS_KERNEL(lb_) static __global__ __launch_bounds__((lb_)) void
#define TINYBLAS_KERNEL_NO_BOUNDS static __global__ void

// TINYBLAS_LAUNCH_KERNEL(kernel, grid, block, shmem, stream, args...)
#define TINYBLAS_LAUNCH_KERNEL(...)                                    \
    do                                                                 \
    {                                                                  \
        hipError_t tb_pre_ = hipPeekAtLastError();                     \
        hipLaunchKernelGGL(__VA_ARGS__);                               \
        hipError_t tb_post_ = hipPeekAtLastError();                    \
        if(tb_post_ != hipSuccess && tb_post_ != tb_pre_)              \
            return tinyblas_status_internal_error;                     \
    } while(0)

#define RETURN_IF_TINYBLAS_ERROR(expr_)           \
    do                                            \
    {                                             \
        tinyblas_status tb_st_ = (expr_);         \
        if(tb_st_ != tinyblas_status_success)     \
            return tb_st_;                        \
    } while(0)

// block sizes (mirrors rocblas_block_sizes.h)
#define TINYBLAS_SCAL_NB 256
#define TINYBLAS_DOT_NB 512
#define TINYBLAS_DOT_SMALL_N 2048
#define TINYBLAS_AXPY_NB 256
#define TINYBLAS_GEMV_DIM_X 128
#define TINYBLAS_GEMVT_NB 256
#define TINYBLAS_GEMM_TILE 16
#define TINYBLAS_TRSM_NB 32
