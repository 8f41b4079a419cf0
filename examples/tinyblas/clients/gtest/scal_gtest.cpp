// Example library for rocm-miner tests. MIT licence.
// Test code: calls the public API; never part of a mined bundle.
#include "tinyblas.h"
#include <hip/hip_runtime.h>
#include <cstdio>
#include <vector>

// minimal stand-ins for the gtest macros so the example has no external dependency
static int g_failures = 0;
#define EXPECT_EQ(a_, b_) (void)(((a_) == (b_)) || (++g_failures, std::printf("FAIL %s:%d\n", __FILE__, __LINE__)))
#define ASSERT_EQ(a_, b_)   \
    if(!((a_) == (b_)))     \
    {                       \
        ++g_failures;       \
        return;             \
    }
#define TEST(suite_, name_) static void suite_##_##name_()

namespace
{
    // reference scal on the host
    void ref_sscal(int n, float alpha, std::vector<float>& x, int incx)
    {
        for(int i = 0; i < n; ++i)
            x[size_t(i) * incx] *= alpha;
    }

    TEST(tinyblas_scal, sscal_matches_reference)
    {
        tinyblas_handle handle;
        ASSERT_EQ(tinyblas_create_handle(&handle), tinyblas_status_success);
        const int          n = 1000, incx = 2;
        std::vector<float> hx(n * incx, 1.5f), ref = hx;
        float*             dx;
        ASSERT_EQ(hipMalloc(&dx, sizeof(float) * hx.size()), hipSuccess);
        ASSERT_EQ(hipMemcpy(dx, hx.data(), sizeof(float) * hx.size(), hipMemcpyHostToDevice), hipSuccess);
        float alpha = 3.0f;
        EXPECT_EQ(tinyblas_sscal(handle, n, &alpha, dx, incx), tinyblas_status_success);
        EXPECT_EQ(tinyblas_sscal_64(handle, int64_t(n), &alpha, dx, int64_t(incx)), tinyblas_status_success);
        ASSERT_EQ(hipMemcpy(hx.data(), dx, sizeof(float) * hx.size(), hipMemcpyDeviceToHost), hipSuccess);
        ref_sscal(n, alpha * alpha, ref, incx);
        EXPECT_EQ(hx, ref);
        (void)hipFree(dx);
        tinyblas_destroy_handle(handle);
    }
} // namespace

int main()
{
    tinyblas_scal_sscal_matches_reference();
    return g_failures ? 1 : 0;
}
