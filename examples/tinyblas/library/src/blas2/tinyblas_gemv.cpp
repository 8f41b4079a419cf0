// Example library for rocm-miner tests. MIT licence.
#include "tinyblas_gemv_imp.hpp"

INST_GEMV_C_API(tinyblas_int);
