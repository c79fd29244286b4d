// Our implementations of the NVTX calls, installed into each NVTX instance's function table by
// InitializeInjectionNvtx2 (nvtx_injection.cpp). Every handler timestamps first, then appends
// one record to the calling thread's buffer: pushes, starts and marks carry their message
// inline (or a registered string id), pops and ends carry only a time. Pairing happens in the
// launcher: pops per thread and domain, ends by range id across threads.
#pragma once

#define NVTX_NO_IMPL
#include <cwchar>
#include <nvtx3/nvToolsExt.h>

namespace sightline::inject::nvtx {

// CORE
void markEx(const nvtxEventAttributes_t* attributes);
void markA(const char* message);
void markW(const wchar_t* message);
nvtxRangeId_t rangeStartEx(const nvtxEventAttributes_t* attributes);
nvtxRangeId_t rangeStartA(const char* message);
nvtxRangeId_t rangeStartW(const wchar_t* message);
void rangeEnd(nvtxRangeId_t id);
int rangePushEx(const nvtxEventAttributes_t* attributes);
int rangePushA(const char* message);
int rangePushW(const wchar_t* message);
int rangePop();
void nameCategoryA(uint32_t category, const char* name);
void nameCategoryW(uint32_t category, const wchar_t* name);
void nameOsThreadA(uint32_t threadId, const char* name);
void nameOsThreadW(uint32_t threadId, const wchar_t* name);

// CORE2
void domainMarkEx(nvtxDomainHandle_t domain, const nvtxEventAttributes_t* attributes);
nvtxRangeId_t domainRangeStartEx(nvtxDomainHandle_t domain, const nvtxEventAttributes_t* attributes);
void domainRangeEnd(nvtxDomainHandle_t domain, nvtxRangeId_t id);
int domainRangePushEx(nvtxDomainHandle_t domain, const nvtxEventAttributes_t* attributes);
int domainRangePop(nvtxDomainHandle_t domain);
void domainNameCategoryA(nvtxDomainHandle_t domain, uint32_t category, const char* name);
void domainNameCategoryW(nvtxDomainHandle_t domain, uint32_t category, const wchar_t* name);
nvtxStringHandle_t domainRegisterStringA(nvtxDomainHandle_t domain, const char* text);
nvtxStringHandle_t domainRegisterStringW(nvtxDomainHandle_t domain, const wchar_t* text);
nvtxDomainHandle_t domainCreateA(const char* name);
nvtxDomainHandle_t domainCreateW(const wchar_t* name);
void domainDestroy(nvtxDomainHandle_t domain);
void initialize(const void* reserved);

} // namespace sightline::inject::nvtx
