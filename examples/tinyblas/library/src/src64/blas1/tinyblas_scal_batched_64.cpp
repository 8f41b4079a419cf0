// Example library for rocm-miner tests. MIT licence.
#include "blas1/tinyblas_scal_batched_imp.hpp"

INST_SCAL_BATCHED_C_API(int64_t);
