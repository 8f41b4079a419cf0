// A minimal HIP-on-CUDA layer for verifying HIP kernels on NVIDIA GPUs: the HIP runtime names a kernel file
// uses, mapped to CUDA's. HIP 5.2's own nvidia_detail headers do not compile against CUDA 13, so the verifier
// ships this instead. Differences that remain: warpSize is 32 here (64 on CDNA), and LDS limits are CUDA's.
#pragma once
#include <cuda_runtime.h>

#define __HIP_PLATFORM_NVIDIA__ 1
#define __HIP_PLATFORM_NVCC__ 1

typedef cudaStream_t hipStream_t;
typedef cudaError_t hipError_t;
typedef cudaEvent_t hipEvent_t;
typedef cudaMemcpyKind hipMemcpyKind;

#define hipSuccess cudaSuccess
#define hipGetLastError cudaGetLastError
#define hipPeekAtLastError cudaPeekAtLastError
#define hipGetErrorString cudaGetErrorString
#define hipMalloc cudaMalloc
#define hipFree cudaFree
#define hipMemcpy cudaMemcpy
#define hipMemcpyAsync cudaMemcpyAsync
#define hipMemset cudaMemset
#define hipMemsetAsync cudaMemsetAsync
#define hipMemcpyHostToDevice cudaMemcpyHostToDevice
#define hipMemcpyDeviceToHost cudaMemcpyDeviceToHost
#define hipMemcpyDeviceToDevice cudaMemcpyDeviceToDevice
#define hipDeviceSynchronize cudaDeviceSynchronize
#define hipStreamSynchronize cudaStreamSynchronize

#define hipLaunchKernelGGL(kernel, grid, block, shmem, stream, ...) \
    kernel<<<(grid), (block), (shmem), (stream)>>>(__VA_ARGS__)
#define HIP_DYNAMIC_SHARED(type, var) extern __shared__ type var[];

#define hipThreadIdx_x threadIdx.x
#define hipThreadIdx_y threadIdx.y
#define hipThreadIdx_z threadIdx.z
#define hipBlockIdx_x blockIdx.x
#define hipBlockIdx_y blockIdx.y
#define hipBlockIdx_z blockIdx.z
#define hipBlockDim_x blockDim.x
#define hipBlockDim_y blockDim.y
#define hipBlockDim_z blockDim.z
#define hipGridDim_x gridDim.x
#define hipGridDim_y gridDim.y
#define hipGridDim_z gridDim.z

template <typename T>
__device__ inline T __shfl_down(T v, unsigned int delta, int width = warpSize) {
    return __shfl_down_sync(0xffffffffu, v, delta, width);
}
template <typename T>
__device__ inline T __shfl_up(T v, unsigned int delta, int width = warpSize) {
    return __shfl_up_sync(0xffffffffu, v, delta, width);
}
template <typename T>
__device__ inline T __shfl_xor(T v, int mask, int width = warpSize) {
    return __shfl_xor_sync(0xffffffffu, v, mask, width);
}
template <typename T>
__device__ inline T __shfl(T v, int lane, int width = warpSize) {
    return __shfl_sync(0xffffffffu, v, lane, width);
}
