// Example library for rocm-miner tests. MIT licence.
#include "tinysolver_logger.hpp"
#include <cstdlib>

tinysolver_logger* tinysolver_logger::_instance
    = std::getenv("TINYSOLVER_LAYER") ? new tinysolver_logger : nullptr;

void tinysolver_logger::log_exit_top(tinyblas_handle handle)
{
    std::cerr << "exit (handle " << static_cast<void*>(handle) << ")\n";
    depth = 0;
}

void tinysolver_logger::log_exit(tinyblas_handle, const char* name)
{
    std::cerr << std::string(2 * --depth, ' ') << "exit " << name << '\n';
}
