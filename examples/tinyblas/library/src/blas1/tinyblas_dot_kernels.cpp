// Example library for rocm-miner tests. MIT licence.
#include "tinyblas_dot_kernels.hpp"

INST_DOT_TEMPLATE(false, float);
INST_DOT_TEMPLATE(false, double);
INST_DOT_TEMPLATE(true, tinyblas_float_complex);
INST_DOT_TEMPLATE(true, tinyblas_double_complex);
