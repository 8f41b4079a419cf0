// Example library for rocm-miner tests. MIT licence.
#include "tinyblas_dot_imp.hpp"

INST_DOT_C_API(tinyblas_int);
