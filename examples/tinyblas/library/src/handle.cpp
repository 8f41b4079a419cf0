// Example library for rocm-miner tests. MIT licence.
// Implementations of tinyblas-auxiliary.h (handle helpers, not compute entry points).
#include "handle.hpp"
#include "utility.hpp"

extern "C" {

tinyblas_status tinyblas_create_handle(tinyblas_handle* handle)
try
{
    if(!handle)
        return tinyblas_status_invalid_pointer;
    *handle = new _tinyblas_handle;
    return tinyblas_status_success;
}
catch(...)
{
    return exception_to_tinyblas_status();
}

tinyblas_status tinyblas_destroy_handle(tinyblas_handle handle)
{
    if(handle && handle->workspace)
        (void)hipFree(handle->workspace);
    delete handle;
    return tinyblas_status_success;
}

tinyblas_status tinyblas_set_stream(tinyblas_handle handle, hipStream_t stream)
{
    if(!handle)
        return tinyblas_status_invalid_handle;
    handle->stream = stream;
    return tinyblas_status_success;
}

tinyblas_status tinyblas_get_stream(tinyblas_handle handle, hipStream_t* stream)
{
    if(!handle)
        return tinyblas_status_invalid_handle;
    *stream = handle->get_stream();
    return tinyblas_status_success;
}

tinyblas_status tinyblas_set_pointer_mode(tinyblas_handle handle, tinyblas_pointer_mode mode)
{
    if(!handle)
        return tinyblas_status_invalid_handle;
    handle->pointer_mode = mode;
    return tinyblas_status_success;
}

tinyblas_status tinyblas_get_pointer_mode(tinyblas_handle handle, tinyblas_pointer_mode* mode)
{
    if(!handle)
        return tinyblas_status_invalid_handle;
    *mode = handle->pointer_mode;
    return tinyblas_status_success;
}

int tinyblas_is_device_memory_size_query(tinyblas_handle handle)
{
    return handle && handle->is_device_memory_size_query();
}

tinyblas_status tinyblas_set_optimal_device_memory_size(tinyblas_handle handle, size_t bytes)
{
    if(!handle)
        return tinyblas_status_invalid_handle;
    return handle->set_optimal_device_memory_size(bytes);
}

tinyblas_status tinyblas_get_workspace(tinyblas_handle handle, size_t bytes, void** ptr)
{
    if(!handle)
        return tinyblas_status_invalid_handle;
    *ptr = bytes ? handle->device_malloc(bytes) : nullptr;
    return (bytes && !*ptr) ? tinyblas_status_memory_error : tinyblas_status_success;
}

} // extern "C"
