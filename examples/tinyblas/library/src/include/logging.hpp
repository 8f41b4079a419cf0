// Example library for rocm-miner tests. MIT licence.
// Trace/bench logging; never part of a mined bundle.
#pragma once

#include "handle.hpp"
#include <iostream>

template <typename... Ts>
void log_trace(tinyblas_handle handle, const char* func, Ts&&... args)
{
    std::ostream& os = std::cerr;
    os << func;
    ((os << ',' << args), ...);
    os << " stream=" << static_cast<void*>(handle->get_stream()) << '\n';
}

template <typename... Ts>
void log_bench(tinyblas_handle handle, const char* cmd, Ts&&... args)
{
    std::ostream& os = std::cerr;
    os << "./tinyblas-bench " << cmd;
    ((os << ' ' << args), ...);
    os << (handle->pointer_mode == tinyblas_pointer_mode_device ? " --device" : "") << '\n';
}
