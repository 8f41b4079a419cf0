// Example library for rocm-miner tests. MIT licence.
// Built with -DTINYBLAS_INTERNAL_ILP64: the macros below yield tinyblas_*scal_64.
#include "blas1/tinyblas_scal_imp.hpp"

INST_SCAL_C_API(int64_t);
