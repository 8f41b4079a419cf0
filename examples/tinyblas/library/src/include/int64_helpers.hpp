// Example library for rocm-miner tests. MIT licence.
// The same source builds the LP64 and the ILP64 (_64) API: files under
// src64/ are compiled with -DTINYBLAS_INTERNAL_ILP64.
#pragma once

#include <cstdint>

#ifdef TINYBLAS_INTERNAL_ILP64
#define TINYBLAS_API(f) f##_64
#define TINYBLAS_API_INT int64_t
#define TINYBLAS_API_STR(f) #f "_64"
#else
#define TINYBLAS_API(f) f
#define TINYBLAS_API_INT tinyblas_int
#define TINYBLAS_API_STR(f) #f
#endif

// largest grid.z chunk one launch may use in the ILP64 path
constexpr int64_t c_tb_grid_z_chunk = 1 << 15;
