// Example library for rocm-miner tests. MIT licence.
#ifndef TINYBLAS_TYPES_H
#define TINYBLAS_TYPES_H

#include <stddef.h>
#include <stdint.h>

typedef int32_t tinyblas_int;
typedef int64_t tinyblas_stride;

typedef struct _tinyblas_handle* tinyblas_handle;

typedef struct tinyblas_half
{
    uint16_t bits;
} tinyblas_half;

typedef struct tinyblas_float_complex
{
    float x, y;
} tinyblas_float_complex;

typedef struct tinyblas_double_complex
{
    double x, y;
} tinyblas_double_complex;

typedef enum tinyblas_status_
{
    tinyblas_status_success         = 0,
    tinyblas_status_invalid_handle  = 1,
    tinyblas_status_not_implemented = 2,
    tinyblas_status_invalid_pointer = 3,
    tinyblas_status_invalid_size    = 4,
    tinyblas_status_memory_error    = 5,
    tinyblas_status_internal_error  = 6,
    tinyblas_status_invalid_value   = 7,
    tinyblas_status_size_unchanged  = 8,
    tinyblas_status_size_increased  = 9,
    tinyblas_status_check_numerics_fail = 10,
    tinyblas_status_continue        = 11
} tinyblas_status;

typedef enum tinyblas_operation_
{
    tinyblas_operation_none                = 111,
    tinyblas_operation_transpose           = 112,
    tinyblas_operation_conjugate_transpose = 113
} tinyblas_operation;

typedef enum tinyblas_fill_
{
    tinyblas_fill_upper = 121,
    tinyblas_fill_lower = 122
} tinyblas_fill;

typedef enum tinyblas_diagonal_
{
    tinyblas_diagonal_non_unit = 131,
    tinyblas_diagonal_unit     = 132
} tinyblas_diagonal;

typedef enum tinyblas_side_
{
    tinyblas_side_left  = 141,
    tinyblas_side_right = 142
} tinyblas_side;

typedef enum tinyblas_pointer_mode_
{
    tinyblas_pointer_mode_host   = 0,
    tinyblas_pointer_mode_device = 1
} tinyblas_pointer_mode;

typedef enum tinyblas_datatype_
{
    tinyblas_datatype_f16_r = 150,
    tinyblas_datatype_f32_r = 151,
    tinyblas_datatype_f64_r = 152,
    tinyblas_datatype_f32_c = 154,
    tinyblas_datatype_f64_c = 155
} tinyblas_datatype;

typedef enum tinyblas_layer_mode_
{
    tinyblas_layer_mode_none      = 0,
    tinyblas_layer_mode_log_trace = 1,
    tinyblas_layer_mode_log_bench = 2
} tinyblas_layer_mode;

#endif /* TINYBLAS_TYPES_H */
