#include "catalog.h"

namespace sightline::gen {
namespace {

// Indexed by Kernel. Names follow what CUPTI reports for PyTorch 2.x, cuBLAS and NCCL kernels.
constexpr std::array<KernelSpec, kKernelCount> kKernels {{
    {"void at::native::(anonymous namespace)::vectorized_layer_norm_kernel<float, float>(int, float, float "
     "const*, float const*, float const*, float*, float*, float*)",
        "vectorized_layer_norm_kernel",
        "_ZN2at6native12_GLOBAL__N_128vectorized_layer_norm_kernelIffEEvifPKT_PKT0_S8_PS3_PS6_S9_",
        {4096, 1, 1}, {256, 1, 1}, 30, 64, 0, 9000, 0.6},
    {"void at::native::(anonymous namespace)::layer_norm_grad_input_kernel_vectorized<float, float>(float "
     "const*, float const*, float const*, float const*, float const*, float*, int)",
        "layer_norm_grad_input_kernel_vectorized",
        "_ZN2at6native12_GLOBAL__N_139layer_norm_grad_input_kernel_vectorizedIffEEvPKT_S5_PKT0_S8_S5_PS3_i",
        {4096, 1, 1}, {512, 1, 1}, 40, 0, 4096, 14000, 0.6},
    {"void at::native::(anonymous namespace)::GammaBetaBackwardCUDAKernel2<float, float>(long, long, float "
     "const*, float const*, float const*, float const*, float*, float*)",
        "GammaBetaBackwardCUDAKernel2",
        "_ZN2at6native12_GLOBAL__N_128GammaBetaBackwardCUDAKernel2IffEEvllPKT_S5_PKT0_S8_PS6_S9_", {32, 1, 1},
        {32, 32, 1}, 56, 8448, 0, 11000, 0.6},
    {"ampere_sgemm_128x64_tn", "ampere_sgemm_128x64_tn", "ampere_sgemm_128x64_tn", {16, 48, 1}, {128, 1, 1},
        122, 12544, 0, 180000, 0.8},
    {"ampere_sgemm_32x128_nn", "ampere_sgemm_32x128_nn", "ampere_sgemm_32x128_nn", {96, 8, 1}, {256, 1, 1},
        57, 16384, 0, 150000, 0.8},
    {"ampere_sgemm_64x64_nt", "ampere_sgemm_64x64_nt", "ampere_sgemm_64x64_nt", {12, 16, 4}, {64, 1, 1}, 126,
        8192, 0, 120000, 0.8},
    {"sm90_xmma_gemm_f32f32_tf32f32_f32_tn_n_tilesize128x128x32_warpgroupsize1x1x1_execute_segment_k_off_"
     "kernel__5x_cublas",
        "sm90_xmma_gemm_f32f32_tf32f32_f32_tn_n_tilesize128x128x32_warpgroupsize1x1x1_execute_segment_k_off_"
        "kernel__5x_cublas",
        "sm90_xmma_gemm_f32f32_tf32f32_f32_tn_n_tilesize128x128x32_warpgroupsize1x1x1_execute_segment_k_off_"
        "kernel__5x_cublas",
        {8, 24, 1}, {384, 1, 1}, 168, 0, 213248, 260000, 0.7},
    {"void cutlass::Kernel2<cutlass_80_tensorop_s1688gemm_128x128_32x3_nn_align4>(cutlass_80_tensorop_"
     "s1688gemm_128x128_32x3_nn_align4::Params)",
        "Kernel2", "_ZN7cutlass7Kernel2I48cutlass_80_tensorop_s1688gemm_128x128_32x3_nn_align4EEvNT_6ParamsE",
        {4, 4, 64}, {128, 1, 1}, 254, 0, 98304, 90000, 0.7},
    {"void at::native::(anonymous namespace)::cunn_SoftMaxForward<4, float, float, float, "
     "at::native::(anonymous namespace)::SoftMaxForwardEpilogue>(float*, float const*, int)",
        "cunn_SoftMaxForward",
        "_ZN2at6native12_GLOBAL__N_119cunn_SoftMaxForwardILi4EfffNS1_22SoftMaxForwardEpilogueEEEvPT2_PKT0_i",
        {8192, 1, 1}, {512, 1, 1}, 32, 0, 2048, 25000, 0.6},
    {"void at::native::(anonymous namespace)::cunn_SoftMaxBackward<4, float, float, float, "
     "at::native::(anonymous namespace)::SoftMaxBackwardEpilogue>(float*, float const*, float const*, int)",
        "cunn_SoftMaxBackward",
        "_ZN2at6native12_GLOBAL__N_120cunn_SoftMaxBackwardILi4EfffNS1_23SoftMaxBackwardEpilogueEEEvPT0_PKT2_"
        "S8_i",
        {8192, 1, 1}, {512, 1, 1}, 32, 0, 2048, 30000, 0.6},
    {"void at::native::(anonymous namespace)::fused_dropout_kernel_vec<float, float, unsigned int, 1, 4, "
     "bool>(at::cuda::detail::TensorInfo<float const, unsigned int>, at::cuda::detail::TensorInfo<float, "
     "unsigned int>, at::cuda::detail::TensorInfo<bool, unsigned int>, unsigned int, float, "
     "at::PhiloxCudaState)",
        "fused_dropout_kernel_vec",
        "_ZN2at6native12_GLOBAL__N_124fused_dropout_kernel_vecIffjLi1ELi4EbEEvNS_4cuda6detail10TensorInfoIKT_"
        "T1_EENS5_IS6_S8_EENS5_IT4_S8_EES8_T0_NS_15PhiloxCudaStateE",
        {1056, 1, 1}, {256, 1, 1}, 40, 0, 0, 12000, 0.6},
    {"void at::native::vectorized_elementwise_kernel<4, at::native::(anonymous "
     "namespace)::masked_scale_kernel<bool, float, float>(at::Tensor&, at::Tensor const&, at::Tensor "
     "const&, float)::{lambda(float, bool)#1}, at::detail::Array<char*, 3> >(int, at::native::(anonymous "
     "namespace)::masked_scale_kernel<bool, float, float>(at::Tensor&, at::Tensor const&, at::Tensor "
     "const&, float)::{lambda(float, bool)#1}, at::detail::Array<char*, 3>)",
        "vectorized_elementwise_kernel",
        "_ZN2at6native29vectorized_elementwise_kernelILi4EZNS0_12_GLOBAL__N_119masked_scale_kernelIbffEEvRNS_"
        "6TensorERKS4_S7_T1_EUlfbE_NS_6detail5ArrayIPcLi3EEEEEviT0_T1_",
        {2048, 1, 1}, {128, 1, 1}, 22, 0, 0, 8000, 0.6},
    {"void at::native::vectorized_elementwise_kernel<4, at::native::CUDAFunctor_add<float>, "
     "at::detail::Array<char*, 3> >(int, at::native::CUDAFunctor_add<float>, at::detail::Array<char*, 3>)",
        "vectorized_elementwise_kernel",
        "_ZN2at6native29vectorized_elementwise_kernelILi4ENS0_15CUDAFunctor_addIfEENS_"
        "6detail5ArrayIPcLi3EEEEEv"
        "iT0_T1_",
        {2048, 1, 1}, {128, 1, 1}, 20, 0, 0, 5000, 0.7},
    {"void at::native::vectorized_elementwise_kernel<4, "
     "at::native::GeluCUDAKernelImpl(at::TensorIteratorBase&, "
     "at::native::GeluType)::{lambda()#2}::operator()() const::{lambda()#2}::operator()() "
     "const::{lambda(float)#1}, at::detail::Array<char*, 2> >(int, at::native::GeluCUDAKernelImpl("
     "at::TensorIteratorBase&, at::native::GeluType)::{lambda()#2}::operator()() const::{lambda()#2}::"
     "operator()() const::{lambda(float)#1}, at::detail::Array<char*, 2>)",
        "vectorized_elementwise_kernel",
        "_ZN2at6native29vectorized_elementwise_kernelILi4EZZZNS0_18GeluCUDAKernelImplERNS_"
        "18TensorIteratorBaseENS"
        "0_8GeluTypeEENKUlvE0_clEvENKUlvE0_clEvEUlfE_NS_6detail5ArrayIPcLi2EEEEEviT0_T1_",
        {4096, 1, 1}, {128, 1, 1}, 26, 0, 0, 9000, 0.6},
    {"void at::native::vectorized_elementwise_kernel<4, at::native::GeluBackwardCUDAKernelImpl("
     "at::TensorIteratorBase&, at::native::GeluType)::{lambda()#2}::operator()() const::{lambda()#2}::"
     "operator()() const::{lambda(float, float)#1}, at::detail::Array<char*, 3> >(int, "
     "at::native::GeluBackwardCUDAKernelImpl(at::TensorIteratorBase&, at::native::GeluType)::{lambda()#2}::"
     "operator()() const::{lambda()#2}::operator()() const::{lambda(float, float)#1}, "
     "at::detail::Array<char*, "
     "3>)",
        "vectorized_elementwise_kernel",
        "_ZN2at6native29vectorized_elementwise_kernelILi4EZZZNS0_26GeluBackwardCUDAKernelImplERNS_"
        "18TensorIterat"
        "orBaseENS0_8GeluTypeEENKUlvE0_clEvENKUlvE0_clEvEUlffE_NS_6detail5ArrayIPcLi3EEEEEviT0_T1_",
        {4096, 1, 1}, {128, 1, 1}, 28, 0, 0, 11000, 0.6},
    {"void at::native::(anonymous namespace)::cunn_SoftMaxForward<4, float, float, float, "
     "at::native::(anonymous namespace)::LogSoftMaxForwardEpilogue>(float*, float const*, int)",
        "cunn_SoftMaxForward",
        "_ZN2at6native12_GLOBAL__N_119cunn_SoftMaxForwardILi4EfffNS1_25LogSoftMaxForwardEpilogueEEEvPT2_PKT0_"
        "i",
        {512, 1, 1}, {1024, 1, 1}, 32, 0, 4096, 40000, 0.5},
    {"void at::native::(anonymous namespace)::nll_loss_forward_reduce_cuda_kernel_2d<float, float, "
     "long>(float*, float*, float const*, long const*, float const*, bool, long, long, long, long)",
        "nll_loss_forward_reduce_cuda_kernel_2d",
        "_ZN2at6native12_GLOBAL__N_138nll_loss_forward_reduce_cuda_kernel_2dIfflEEvPT_S4_PKS3_PKT1_S6_blll"
        "l",
        {1, 1, 1}, {32, 1, 1}, 38, 2048, 0, 3000, 0.4},
    {"void at::native::(anonymous namespace)::nll_loss_backward_reduce_cuda_kernel_2d<float, long>(float*, "
     "float const*, long const*, float const*, float const*, bool, int, int, long, long)",
        "nll_loss_backward_reduce_cuda_kernel_2d",
        "_ZN2at6native12_GLOBAL__N_139nll_loss_backward_reduce_cuda_kernel_2dIflEEvPT_PKS3_PKT0_S6_S6_biill",
        {1, 1, 1}, {32, 1, 1}, 24, 0, 0, 4000, 0.4},
    {"void at::native::(anonymous namespace)::cunn_SoftMaxBackward<4, float, float, float, "
     "at::native::(anonymous namespace)::LogSoftMaxBackwardEpilogue>(float*, float const*, float const*, "
     "int)",
        "cunn_SoftMaxBackward",
        "_ZN2at6native12_GLOBAL__N_120cunn_SoftMaxBackwardILi4EfffNS1_26LogSoftMaxBackwardEpilogueEEEvPT0_"
        "PKT2_"
        "S8_i",
        {512, 1, 1}, {1024, 1, 1}, 32, 0, 4096, 35000, 0.5},
    {"void at::native::reduce_kernel<512, 1, at::native::ReduceOp<float, at::native::func_wrapper_t<float, "
     "at::native::sum_functor<float, float, float>::operator()(at::TensorIterator&)::{lambda(float, "
     "float)#1}>, unsigned int, float, 4> >(at::native::ReduceOp<float, at::native::func_wrapper_t<float, "
     "at::native::sum_functor<float, float, float>::operator()(at::TensorIterator&)::{lambda(float, "
     "float)#1}>, unsigned int, float, 4>)",
        "reduce_kernel",
        "_ZN2at6native13reduce_kernelILi512ELi1ENS0_8ReduceOpIfNS0_14func_wrapper_tIfZNS0_11sum_"
        "functorIfffEcl"
        "ERNS_14TensorIteratorEEUlffE_EEjfLi4EEEEEvT1_",
        {24, 1, 1}, {32, 16, 1}, 32, 16, 0, 7000, 0.6},
    {"void at::native::(anonymous namespace)::multi_tensor_apply_kernel<at::native::(anonymous "
     "namespace)::FusedOptimizerTensorListMetadata<4>, at::native::(anonymous "
     "namespace)::FusedAdamMathFunctor<float, 4, (at::native::ADAM_MODE)1, false>, double*, double, "
     "double, double, double, double, bool, float*, float*>(...)",
        "multi_tensor_apply_kernel",
        "_ZN2at6native12_GLOBAL__N_125multi_tensor_apply_kernelINS1_"
        "32FusedOptimizerTensorListMetadataILi4EEENS"
        "1_20FusedAdamMathFunctorIfLi4ELNS0_9ADAM_MODEE1ELb0EEEJPddddddbPfS9_EEEvT_T0_DpT1_",
        {320, 1, 1}, {512, 1, 1}, 64, 0, 0, 600000, 0.5},
    {"void at::native::vectorized_elementwise_kernel<4, at::native::FillFunctor<float>, "
     "at::detail::Array<char*, 1> >(int, at::native::FillFunctor<float>, at::detail::Array<char*, 1>)",
        "vectorized_elementwise_kernel",
        "_ZN2at6native29vectorized_elementwise_kernelILi4ENS0_11FillFunctorIfEENS_"
        "6detail5ArrayIPcLi1EEEEEviT0_"
        "T1_",
        {264, 1, 1}, {128, 1, 1}, 16, 0, 0, 2500, 0.4},
    {"void "
     "at::native::unrolled_elementwise_kernel<at::native::direct_copy_kernel_cuda(at::TensorIteratorBase&)"
     "::{lambda()#3}::operator()() const::{lambda()#7}::operator()() const::{lambda(float)#1}, "
     "at::detail::Array<char*, 2>, TrivialOffsetCalculator<1, unsigned int>, TrivialOffsetCalculator<1, "
     "unsigned int>, at::native::memory::LoadWithCast<1>, at::native::memory::StoreWithCast<1> >(...)",
        "unrolled_elementwise_kernel",
        "_ZN2at6native27unrolled_elementwise_kernelIZZZNS0_23direct_copy_kernel_cudaERNS_"
        "18TensorIteratorBaseEE"
        "NKUlvE1_clEvENKUlvE6_clEvEUlfE_NS_6detail5ArrayIPcLi2EEE23TrivialOffsetCalculatorILi1EjESC_NS0_"
        "6memory"
        "12LoadWithCastILi1EEENSD_13StoreWithCastILi1EEEEEviT_T0_T1_T2_T3_T4_",
        {1024, 1, 1}, {128, 1, 1}, 30, 0, 0, 20000, 0.6},
    {"void at::native::(anonymous namespace)::multi_tensor_apply_kernel<at::native::(anonymous "
     "namespace)::TensorListMetadata<2>, at::native::(anonymous namespace)::PointwiseOpScalarFunctor<float, "
     "2, 2, 0>, at::native::(anonymous namespace)::LerpFunctor<float>, float>(...)",
        "multi_tensor_apply_kernel",
        "_ZN2at6native12_GLOBAL__N_125multi_tensor_apply_kernelINS1_18TensorListMetadataILi2EEENS1_"
        "24PointwiseO"
        "pScalarFunctorIfLi2ELi2ELi0EEEJNS1_11LerpFunctorIfEEfEEEvT_T0_DpT1_",
        {320, 1, 1}, {512, 1, 1}, 40, 0, 0, 250000, 0.5},
    {"ncclKernel_AllReduce_RING_LL_Sum_float(ncclDevComm*, unsigned long, ncclWork*)",
        "ncclKernel_AllReduce_RING_LL_Sum_float",
        "_Z38ncclKernel_AllReduce_RING_LL_Sum_floatP11ncclDevCommmP8ncclWork", {2, 1, 1}, {512, 1, 1}, 96, 32,
        0, 900000, 0.6},
}};

// Indexed by Api.
constexpr std::array<ApiSpec, kApiCount> kApis {{
    {"cudaLaunchKernel", false, Api::CuLaunchKernel, 4200},
    {"cudaMemcpyAsync", false, Api::CuMemcpyAsync, 5200},
    {"cudaMemcpy", false, Api::CuMemcpyAsync, 9000},
    {"cudaMemcpyPeerAsync", false, Api::CuMemcpyPeerAsync, 6000},
    {"cudaMemsetAsync", false, Api::CuMemsetD32Async, 3600},
    {"cudaStreamSynchronize", false, Api::CuStreamSynchronize, 2500},
    {"cudaEventRecord", false, Api::CuEventRecord, 2100},
    {"cudaStreamWaitEvent", false, Api::CuStreamWaitEvent, 1900},
    {"cudaEventSynchronize", false, Api::CuEventSynchronize, 2400},
    {"cudaEventQuery", false, Api::Count, 900},
    {"cudaMalloc", false, Api::CuMemAlloc, 48000},
    {"cudaFree", false, Api::Count, 180000},
    {"cudaStreamCreateWithPriority", false, Api::Count, 14000},
    {"cudaEventCreateWithFlags", false, Api::Count, 1200},
    {"cudaGetDevice", false, Api::Count, 300},
    {"cudaSetDevice", false, Api::Count, 700},
    {"cudaGetLastError", false, Api::Count, 250},
    {"cuLaunchKernel", true, Api::Count, 2600},
    {"cuMemcpyAsync", true, Api::Count, 3400},
    {"cuMemcpyPeerAsync", true, Api::Count, 4000},
    {"cuMemsetD32Async", true, Api::Count, 2200},
    {"cuStreamSynchronize", true, Api::Count, 1500},
    {"cuEventRecord", true, Api::Count, 1200},
    {"cuStreamWaitEvent", true, Api::Count, 1100},
    {"cuEventSynchronize", true, Api::Count, 1400},
    {"cuMemAlloc_v2", true, Api::Count, 40000},
    {"cuCtxCreate_v2", true, Api::Count, 250000000},
}};

constexpr std::array<std::string_view, kOsFunctionCount> kOsFunctions {
    "read",
    "write",
    "poll",
    "ioctl",
    "nanosleep",
    "pthread_mutex_lock",
    "sem_wait",
};

} // namespace

const KernelSpec& kernelSpec(Kernel kernel)
{
    return kKernels[size_t(kernel)];
}

const ApiSpec& apiSpec(Api api)
{
    return kApis[size_t(api)];
}

std::string_view osFunctionName(OsFunction function)
{
    return kOsFunctions[size_t(function)];
}

} // namespace sightline::gen
