// Example library for rocm-miner tests. MIT licence.
// Same source as the LP64 build; -DTINYBLAS_INTERNAL_ILP64 renames it to *_64.
#include "blas1/tinyblas_dot_kernels.hpp"

INST_DOT_TEMPLATE(false, float);
INST_DOT_TEMPLATE(false, double);
INST_DOT_TEMPLATE(true, tinyblas_float_complex);
INST_DOT_TEMPLATE(true, tinyblas_double_complex);
