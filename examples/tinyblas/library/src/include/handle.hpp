// Example library for rocm-miner tests. MIT licence.
#pragma once

#include "tinyblas.h"
#include <hip/hip_runtime.h>

struct _tinyblas_handle
{
    hipStream_t           stream         = nullptr;
    tinyblas_pointer_mode pointer_mode   = tinyblas_pointer_mode_host;
    int                   layer_mode     = tinyblas_layer_mode_none;
    int                   check_numerics = 0;
    int                   arch           = 908;

    bool   size_query      = false;
    size_t size_queried    = 0;
    void*  workspace       = nullptr;
    size_t workspace_bytes = 0;

    hipStream_t get_stream() const
    {
        return stream;
    }

    int getArch() const
    {
        return arch;
    }

    bool is_device_memory_size_query() const
    {
        return size_query;
    }

    tinyblas_status set_optimal_device_memory_size(size_t bytes)
    {
        if(!size_query)
            return tinyblas_status_internal_error;
        size_queried = bytes > size_queried ? bytes : size_queried;
        return tinyblas_status_size_increased;
    }

    // returns workspace of at least `bytes`, or nullptr
    void* device_malloc(size_t bytes)
    {
        if(bytes <= workspace_bytes)
            return workspace;
        if(workspace)
            (void)hipFree(workspace);
        workspace_bytes = 0;
        if(hipMalloc(&workspace, bytes) != hipSuccess)
            return workspace = nullptr;
        workspace_bytes = bytes;
        return workspace;
    }
};

#define RETURN_ZERO_DEVICE_MEMORY_SIZE_IF_QUERIED(h_)      \
    do                                                     \
    {                                                      \
        if((h_)->is_device_memory_size_query())            \
            return tinyblas_status_size_unchanged;         \
    } while(0)

// bytes of device workspace a two-stage reduction needs
template <int NB, typename T>
size_t tinyblas_reduction_workspace_size(int64_t n, int64_t batch_count)
{
    int64_t blocks = n > 0 ? (n - 1) / NB + 1 : 1;
    return sizeof(T) * size_t((blocks + 1) * batch_count);
}
