// Example library for rocm-miner tests. MIT licence.
#include "tinyblas_gemm_imp.hpp"

INST_GEMM_C_API(tinyblas_int);
