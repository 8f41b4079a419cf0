// Example library for rocm-miner tests. MIT licence.
#include "blas1/tinyblas_dot_imp.hpp"

INST_DOT_C_API(int64_t);
