// Example library for rocm-miner tests. MIT licence.
#include "tinyblas_scal_imp.hpp"

INST_SCAL_C_API(tinyblas_int);
