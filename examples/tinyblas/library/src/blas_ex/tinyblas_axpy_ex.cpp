// Example library for rocm-miner tests. MIT licence.
// axpy_ex: runtime datatype enums dispatched to template instantiations.
#include "blas1/tinyblas_axpy.hpp"
#include "handle.hpp"
#include "logging.hpp"
#include "utility.hpp"

namespace
{
    template <typename T>
    tinyblas_status tinyblas_axpy_ex_typecasting(tinyblas_handle handle, tinyblas_int n,
                                                 const void* alpha, const void* x, tinyblas_int incx,
                                                 void* y, tinyblas_int incy)
    {
        return tinyblas_internal_axpy_template<T, T>(handle, n, static_cast<const T*>(alpha),
                                                     static_cast<const T*>(x), 0, incx,
                                                     static_cast<T*>(y), 0, incy);
    }

    tinyblas_status tinyblas_axpy_ex_template(tinyblas_handle   handle,
                                              tinyblas_int      n,
                                              const void*       alpha,
                                              tinyblas_datatype alpha_type,
                                              const void*       x,
                                              tinyblas_datatype x_type,
                                              tinyblas_int      incx,
                                              void*             y,
                                              tinyblas_datatype y_type,
                                              tinyblas_int      incy,
                                              tinyblas_datatype execution_type)
    {
        if(alpha_type != execution_type || x_type != execution_type || y_type != execution_type)
            return tinyblas_status_not_implemented;

        switch(execution_type)
        {
        case tinyblas_datatype_f32_r:
            return tinyblas_axpy_ex_typecasting<float>(handle, n, alpha, x, incx, y, incy);
        case tinyblas_datatype_f64_r:
            return tinyblas_axpy_ex_typecasting<double>(handle, n, alpha, x, incx, y, incy);
        case tinyblas_datatype_f32_c:
            return tinyblas_axpy_ex_typecasting<tinyblas_float_complex>(handle, n, alpha, x, incx, y, incy);
        case tinyblas_datatype_f64_c:
            return tinyblas_axpy_ex_typecasting<tinyblas_double_complex>(handle, n, alpha, x, incx, y, incy);
        default:
            return tinyblas_status_not_implemented;
        }
    }

    tinyblas_status tinyblas_axpy_ex_impl(tinyblas_handle   handle,
                                          tinyblas_int      n,
                                          const void*       alpha,
                                          tinyblas_datatype alpha_type,
                                          const void*       x,
                                          tinyblas_datatype x_type,
                                          tinyblas_int      incx,
                                          void*             y,
                                          tinyblas_datatype y_type,
                                          tinyblas_int      incy,
                                          tinyblas_datatype execution_type)
    {
        if(!handle)
            return tinyblas_status_invalid_handle;
        RETURN_ZERO_DEVICE_MEMORY_SIZE_IF_QUERIED(handle);
        if(handle->layer_mode & tinyblas_layer_mode_log_trace)
            log_trace(handle, "tinyblas_axpy_ex", n, alpha_type, x_type, incx, y_type, incy, execution_type);
        if(n <= 0)
            return tinyblas_status_success;
        if(!alpha || !x || !y)
            return tinyblas_status_invalid_pointer;
        return tinyblas_axpy_ex_template(handle, n, alpha, alpha_type, x, x_type, incx, y, y_type,
                                         incy, execution_type);
    }
} // namespace

extern "C" tinyblas_status tinyblas_axpy_ex(tinyblas_handle   handle,
                                            tinyblas_int      n,
                                            const void*       alpha,
                                            tinyblas_datatype alpha_type,
                                            const void*       x,
                                            tinyblas_datatype x_type,
                                            tinyblas_int      incx,
                                            void*             y,
                                            tinyblas_datatype y_type,
                                            tinyblas_int      incy,
                                            tinyblas_datatype execution_type)
try
{
    return tinyblas_axpy_ex_impl(handle, n, alpha, alpha_type, x, x_type, incx, y, y_type, incy,
                                 execution_type);
}
catch(...)
{
    return exception_to_tinyblas_status();
}
