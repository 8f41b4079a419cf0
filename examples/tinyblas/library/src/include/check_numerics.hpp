// Example library for rocm-miner tests. MIT licence.
// NaN/Inf checking of inputs/outputs; never part of a mined bundle.
#pragma once

#include "handle.hpp"

template <typename Tx>
tinyblas_status tinyblas_internal_check_numerics_vector_template(const char*     function_name,
                                                                  tinyblas_handle handle,
                                                                  int64_t         n,
                                                                  Tx              x,
                                                                  tinyblas_stride offset_x,
                                                                  int64_t         inc_x,
                                                                  tinyblas_stride stride_x,
                                                                  int64_t         batch_count,
                                                                  int             check_numerics,
                                                                  bool            is_input);
