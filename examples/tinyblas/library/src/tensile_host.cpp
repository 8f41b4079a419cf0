// Example library for rocm-miner tests. MIT licence.
// Glue to the generated GEMM library. Tensile/generated/TensileLibrary.h is
// produced at build time and is NOT in the tree: this TU cannot be parsed
// without the build, by design (it is the "generated code" boundary).
#include "tensile_host.hpp"

#include "Tensile/generated/TensileLibrary.h"

namespace
{
    Tensile::SolutionLibrary* g_library = nullptr;
}

bool tinyblas_tensile_is_initialized()
{
    return g_library != nullptr;
}

template <typename T, typename TConstPtr, typename TPtr>
tinyblas_status runContractionProblem(const TensileContractionProblem<T, TConstPtr, TPtr>& p)
{
    if(!g_library)
        g_library = Tensile::LoadLibraryForDevice(p.handle->getArch());
    auto tensile_problem = Tensile::ContractionProblem::GEMM(p.trans_a != tinyblas_operation_none,
                                                             p.trans_b != tinyblas_operation_none,
                                                             p.m, p.n, p.k, p.batch_count);
    auto solution = g_library->findBestSolution(tensile_problem);
    if(!solution)
        return tinyblas_status_not_implemented;
    return solution->launch(p.handle->get_stream(), p.alpha, p.A, p.B, p.beta, p.C)
               ? tinyblas_status_success
               : tinyblas_status_internal_error;
}

#define INST_RUN_CONTRACTION(T_)                                                                        \
    template tinyblas_status runContractionProblem(const TensileContractionProblem<T_, const T_*, T_*>&); \
    template tinyblas_status runContractionProblem(                                                     \
        const TensileContractionProblem<T_, const T_* const*, T_* const*>&)

INST_RUN_CONTRACTION(float);
INST_RUN_CONTRACTION(double);
INST_RUN_CONTRACTION(tinyblas_float_complex);
INST_RUN_CONTRACTION(tinyblas_double_complex);
