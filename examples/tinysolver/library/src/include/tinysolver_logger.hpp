// Example library for rocm-miner tests. MIT licence.
// Call logging (mirrors rocsolver_logger.hpp); never part of a mined bundle.
#pragma once

#include "tinyblas.h"
#include <iostream>

class tinysolver_logger
{
public:
    static tinysolver_logger* _instance;
    int                       depth = 0;

    template <typename... Ts>
    void log_enter_top(tinyblas_handle handle, const char* name, Ts... args)
    {
        std::cerr << name;
        ((std::cerr << ' ' << args), ...);
        std::cerr << " (handle " << static_cast<void*>(handle) << ")\n";
        depth = 1;
    }

    void log_exit_top(tinyblas_handle handle);

    template <typename... Ts>
    void log_enter(tinyblas_handle handle, const char* name, Ts... args)
    {
        std::cerr << std::string(2 * depth++, ' ') << name;
        ((std::cerr << ' ' << args), ...);
        std::cerr << '\n';
        (void)handle;
    }

    void log_exit(tinyblas_handle handle, const char* name);
};

#define TINYSOLVER_ENTER_TOP(name, ...)                                                   \
    do                                                                                    \
    {                                                                                     \
        if(tinysolver_logger::_instance)                                                  \
            tinysolver_logger::_instance->log_enter_top(handle, "tinysolver_" name, __VA_ARGS__); \
    } while(0)

#define TINYSOLVER_ENTER(name, ...)                                                       \
    do                                                                                    \
    {                                                                                     \
        if(tinysolver_logger::_instance)                                                  \
            tinysolver_logger::_instance->log_enter(handle, name, __VA_ARGS__);           \
    } while(0)

#define TINYSOLVER_RETURN_TOP(st_)                                   \
    do                                                               \
    {                                                                \
        tinyblas_status ts_st_ = (st_);                              \
        if(tinysolver_logger::_instance)                             \
            tinysolver_logger::_instance->log_exit_top(handle);      \
        return ts_st_;                                               \
    } while(0)
