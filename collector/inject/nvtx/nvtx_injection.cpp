// InitializeInjectionNvtx2: the NVTX loader calls it once per NVTX instance (each library that
// uses NVTX has its own), passing that instance's export-table getter. We fill the instance's
// CORE and CORE2 function tables with our handlers; slots we leave empty stay no-ops. Returning
// 0 (not tracing NVTX) makes the loader unload us from that instance and turn NVTX off there.
#include "collector/inject/nvtx/nvtx_handlers.h"
#include "collector/inject/session.h"

namespace sightline::inject::nvtx {

namespace {

template <class Fn> void install(NvtxFunctionTable table, unsigned int size, unsigned int slot, Fn* handler)
{
    if (slot < size && table[slot]) *table[slot] = reinterpret_cast<NvtxFunctionPointer>(handler);
}

bool installCore(const NvtxExportTableCallbacks* callbacks)
{
    NvtxFunctionTable t = nullptr;
    unsigned int n = 0;
    if (!callbacks->GetModuleFunctionTable(NVTX_CB_MODULE_CORE, &t, &n) || !t) return false;
    install(t, n, NVTX_CBID_CORE_MarkEx, &markEx);
    install(t, n, NVTX_CBID_CORE_MarkA, &markA);
    install(t, n, NVTX_CBID_CORE_MarkW, &markW);
    install(t, n, NVTX_CBID_CORE_RangeStartEx, &rangeStartEx);
    install(t, n, NVTX_CBID_CORE_RangeStartA, &rangeStartA);
    install(t, n, NVTX_CBID_CORE_RangeStartW, &rangeStartW);
    install(t, n, NVTX_CBID_CORE_RangeEnd, &rangeEnd);
    install(t, n, NVTX_CBID_CORE_RangePushEx, &rangePushEx);
    install(t, n, NVTX_CBID_CORE_RangePushA, &rangePushA);
    install(t, n, NVTX_CBID_CORE_RangePushW, &rangePushW);
    install(t, n, NVTX_CBID_CORE_RangePop, &rangePop);
    install(t, n, NVTX_CBID_CORE_NameCategoryA, &nameCategoryA);
    install(t, n, NVTX_CBID_CORE_NameCategoryW, &nameCategoryW);
    install(t, n, NVTX_CBID_CORE_NameOsThreadA, &nameOsThreadA);
    install(t, n, NVTX_CBID_CORE_NameOsThreadW, &nameOsThreadW);
    return true;
}

bool installCore2(const NvtxExportTableCallbacks* callbacks)
{
    NvtxFunctionTable t = nullptr;
    unsigned int n = 0;
    if (!callbacks->GetModuleFunctionTable(NVTX_CB_MODULE_CORE2, &t, &n) || !t) return false;
    install(t, n, NVTX_CBID_CORE2_DomainMarkEx, &domainMarkEx);
    install(t, n, NVTX_CBID_CORE2_DomainRangeStartEx, &domainRangeStartEx);
    install(t, n, NVTX_CBID_CORE2_DomainRangeEnd, &domainRangeEnd);
    install(t, n, NVTX_CBID_CORE2_DomainRangePushEx, &domainRangePushEx);
    install(t, n, NVTX_CBID_CORE2_DomainRangePop, &domainRangePop);
    install(t, n, NVTX_CBID_CORE2_DomainNameCategoryA, &domainNameCategoryA);
    install(t, n, NVTX_CBID_CORE2_DomainNameCategoryW, &domainNameCategoryW);
    install(t, n, NVTX_CBID_CORE2_DomainRegisterStringA, &domainRegisterStringA);
    install(t, n, NVTX_CBID_CORE2_DomainRegisterStringW, &domainRegisterStringW);
    install(t, n, NVTX_CBID_CORE2_DomainCreateA, &domainCreateA);
    install(t, n, NVTX_CBID_CORE2_DomainCreateW, &domainCreateW);
    install(t, n, NVTX_CBID_CORE2_DomainDestroy, &domainDestroy);
    install(t, n, NVTX_CBID_CORE2_Initialize, &initialize);
    return true;
}

} // namespace

} // namespace sightline::inject::nvtx

extern "C" __attribute__((visibility("default"))) int InitializeInjectionNvtx2(
    NvtxGetExportTableFunc_t getExportTable)
{
    using namespace sightline::inject;
    ensureInitialized();
    if (!g_config.traceNvtx || !getExportTable) return 0;
    const auto* callbacks = static_cast<const NvtxExportTableCallbacks*>(getExportTable(NVTX_ETID_CALLBACKS));
    if (!callbacks || callbacks->struct_size < sizeof(NvtxExportTableCallbacks)) return 0;
    const bool core = nvtx::installCore(callbacks);
    const bool core2 = nvtx::installCore2(callbacks);
    return core || core2 ? 1 : 0;
}
