// Kernel names (model/text/kernel_names.h): demangled as Nsight Systems shows them, shortened
// to the bare function name the collector stores, and labelled for charts.
#include "model/text/kernel_names.h"

#include <catch2/catch.hpp>

using namespace sightline;

TEST_CASE("kernel names are demangled, or kept when they are not mangled C++ names")
{
    CHECK(demangleKernelName("_Z6reducePKfPfi") == "reduce(float const*, float*, int)");
    CHECK(demangleKernelName("plain_c_kernel") == "plain_c_kernel");
    CHECK(demangleKernelName("_Znot_valid") == "_Znot_valid");
}

TEST_CASE("the short name drops return type, scopes, template arguments and parameters")
{
    CHECK(shortKernelName("reduce(float const*, float*, int)") == "reduce");
    CHECK(shortKernelName(
              "void at::native::vectorized_elementwise_kernel<4, at::native::FillFunctor<float>, "
              "std::array<char*, 1ul> >(int, at::native::FillFunctor<float>, std::array<char*, 1ul>)")
        == "vectorized_elementwise_kernel");
    CHECK(shortKernelName("void gemm<(int)128, float>(float*)") == "gemm");
    CHECK(shortKernelName("plain_c_kernel") == "plain_c_kernel");
    CHECK(
        shortKernelName("(anonymous namespace)::reduce_pass1(float const*, float*, int)") == "reduce_pass1");
    CHECK(shortKernelName("void (anonymous namespace)::scale<float>(float*, int)") == "scale");
    CHECK(shortKernelName(
              "void at::native::(anonymous namespace)::cunn_SoftMaxForward<4, float, float, float, "
              "at::native::(anonymous namespace)::SoftMaxForwardEpilogue>(float*, const float*, int)")
        == "cunn_SoftMaxForward");
    CHECK(shortKernelName("ncclKernel_AllReduce_RING_LL_Sum_float(ncclDevComm*, unsigned long, ncclWork*)")
        == "ncclKernel_AllReduce_RING_LL_Sum_float");
}

TEST_CASE("a chart label names a short generic wrapper by its first template argument")
{
    CHECK(kernelLabel("void cutlass::Kernel2<cutlass_80_tensorop_s1688gemm_128x128_32x3_nn_align4>(Params)")
        == "Kernel2<cutlass_80_tensorop_s1688gemm_128x128_32x3_nn_align4>");
    CHECK(kernelLabel("void gemm<(int)128, float>(float*)") == "gemm<(int)128>");
    CHECK(kernelLabel("void at::native::vectorized_elementwise_kernel<4, float>(int)")
        == "vectorized_elementwise_kernel"); // long enough to say what it is
    CHECK(kernelLabel("ampere_sgemm_128x64_tn") == "ampere_sgemm_128x64_tn");
    CHECK(kernelLabel("reduce(float const*, float*, int)") == "reduce");
}
