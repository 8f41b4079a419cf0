// Example library for rocm-miner tests. MIT licence.
#include "tinyblas_axpy_imp.hpp"

INST_AXPY_C_API(tinyblas_int);
