// Example library for rocm-miner tests. MIT licence.
#pragma once

#include "check_numerics.hpp"
#include "handle.hpp"
#include "int64_helpers.hpp"
#include "logging.hpp"
#include "macros.hpp"
#include "tinyblas_dot.hpp"
#include "utility.hpp"

namespace
{
    template <typename API_INT, bool CONJ, typename T>
    tinyblas_status tinyblas_dot_impl(tinyblas_handle handle, API_INT n, const T* x, API_INT incx,
                                      const T* y, API_INT incy, T* result)
    {
        if(!handle)
            return tinyblas_status_invalid_handle;

        // workspace query: this entry needs device memory
        size_t dev_bytes = tinyblas_reduction_workspace_size<TINYBLAS_DOT_NB, T>(n, 1);
        if(handle->is_device_memory_size_query())
            return handle->set_optimal_device_memory_size(dev_bytes);

        if(handle->layer_mode & tinyblas_layer_mode_log_trace)
            log_trace(handle, CONJ ? TINYBLAS_API_STR(tinyblas_dotc) : TINYBLAS_API_STR(tinyblas_dot),
                      n, x, incx, y, incy);
        if(handle->layer_mode & tinyblas_layer_mode_log_bench)
            log_bench(handle, CONJ ? "-f dotc -r" : "-f dot -r", precision_string<T>, "-n", n,
                      "--incx", incx, "--incy", incy);

        if(!result)
            return tinyblas_status_invalid_pointer;
        if(n <= 0)
        {
            if(handle->pointer_mode == tinyblas_pointer_mode_host)
                *result = T{};
            else
                (void)hipMemsetAsync(result, 0, sizeof(T), handle->get_stream());
            return tinyblas_status_success;
        }
        if(!x || !y)
            return tinyblas_status_invalid_pointer;

        if(handle->check_numerics)
        {
            RETURN_IF_TINYBLAS_ERROR(tinyblas_internal_check_numerics_vector_template(
                "dot", handle, n, x, 0, incx, 0, 1, handle->check_numerics, true));
            RETURN_IF_TINYBLAS_ERROR(tinyblas_internal_check_numerics_vector_template(
                "dot", handle, n, y, 0, incy, 0, 1, handle->check_numerics, true));
        }

        T* workspace = static_cast<T*>(handle->device_malloc(dev_bytes));
        if(!workspace)
            return tinyblas_status_memory_error;

        return TINYBLAS_API(tinyblas_internal_dot_template)<CONJ, T>(
            handle, n, x, 0, incx, 0, y, 0, incy, 0, 1, result, workspace);
    }
} // namespace

#ifdef IMPL
#error IMPL ALREADY DEFINED
#endif

#define IMPL(name_, TI_, CONJ_, T_)                                                            \
    tinyblas_status name_(tinyblas_handle handle, TI_ n, const T_* x, TI_ incx, const T_* y,   \
                          TI_ incy, T_* result)                                                \
    try                                                                                        \
    {                                                                                          \
        return tinyblas_dot_impl<TI_, CONJ_>(handle, n, x, incx, y, incy, result);             \
    }                                                                                          \
    catch(...)                                                                                 \
    {                                                                                          \
        return exception_to_tinyblas_status();                                                 \
    }

#define INST_DOT_C_API(TI_)                                                       \
    extern "C" {                                                                  \
    IMPL(TINYBLAS_API(tinyblas_sdot), TI_, false, float);                         \
    IMPL(TINYBLAS_API(tinyblas_ddot), TI_, false, double);                        \
    IMPL(TINYBLAS_API(tinyblas_cdotc), TI_, true, tinyblas_float_complex);        \
    IMPL(TINYBLAS_API(tinyblas_zdotc), TI_, true, tinyblas_double_complex);       \
    } // extern "C"
