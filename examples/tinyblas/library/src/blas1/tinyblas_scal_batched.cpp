// Example library for rocm-miner tests. MIT licence.
// tinyblas_{s,d}scal_batched and tinyblas_{s,d}scal_strided_batched.
#include "tinyblas_scal_batched_imp.hpp"

INST_SCAL_BATCHED_C_API(tinyblas_int);
