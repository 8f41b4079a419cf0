// Example library for rocm-miner tests. MIT licence.
// Handle / workspace helpers (mirrors rocblas-auxiliary.h). Not compute entry points.
#ifndef TINYBLAS_AUXILIARY_H
#define TINYBLAS_AUXILIARY_H

#include <hip/hip_runtime_api.h>
#include "internal/tinyblas-export.h"
#include "tinyblas-types.h"

#ifdef __cplusplus
extern "C" {
#endif

TINYBLAS_EXPORT tinyblas_status tinyblas_create_handle(tinyblas_handle* handle);
TINYBLAS_EXPORT tinyblas_status tinyblas_destroy_handle(tinyblas_handle handle);
TINYBLAS_EXPORT tinyblas_status tinyblas_set_stream(tinyblas_handle handle, hipStream_t stream);
TINYBLAS_EXPORT tinyblas_status tinyblas_get_stream(tinyblas_handle handle, hipStream_t* stream);
TINYBLAS_EXPORT tinyblas_status tinyblas_set_pointer_mode(tinyblas_handle handle, tinyblas_pointer_mode mode);
TINYBLAS_EXPORT tinyblas_status tinyblas_get_pointer_mode(tinyblas_handle handle, tinyblas_pointer_mode* mode);
TINYBLAS_EXPORT int tinyblas_is_device_memory_size_query(tinyblas_handle handle);
TINYBLAS_EXPORT tinyblas_status tinyblas_set_optimal_device_memory_size(tinyblas_handle handle, size_t bytes);
TINYBLAS_EXPORT tinyblas_status tinyblas_get_workspace(tinyblas_handle handle, size_t bytes, void** ptr);

#ifdef __cplusplus
}
#endif

#endif /* TINYBLAS_AUXILIARY_H */
