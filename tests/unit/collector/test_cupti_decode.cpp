// CUPTI activity records, built by hand as CUPTI 13 lays them out, through the decoder seam
// (collector/inject/cupti_decode.h) into spool records.
#include "collector/inject/cupti/cupti_decode.h"

#include <catch2/catch.hpp>
#include <cstddef>
#include <map>
#include <string>

using namespace sightline;
using namespace sightline::inject::cupti;

namespace {

class FakeEnvironment final : public DecodeEnvironment
{
public:
    uint32_t internKernelName(const char* mangled) override { return id(std::string("kernel:") + mangled); }
    uint32_t internText(const char* text) override { return id(text); }
    uint32_t apiName(spool::ApiClass apiClass, uint32_t cbid) override
    {
        return id((apiClass == spool::ApiClass::Runtime ? "runtime:" : "driver:") + std::to_string(cbid));
    }
    uint32_t id(const std::string& text)
    {
        auto [it, added] = ids.emplace(text, uint32_t(ids.size() + 1));
        return it->second;
    }
    std::map<std::string, uint32_t> ids;
};

CUpti_ActivityKernel10 kernelRecord()
{
    CUpti_ActivityKernel10 k {};
    k.kind = CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL;
    k.registersPerThread = 32;
    k.start = 5'000'000;
    k.end = 5'250'000;
    k.deviceId = 1;
    k.contextId = 3;
    k.streamId = 14;
    k.gridX = 256, k.gridY = 2, k.gridZ = 1;
    k.blockX = 128, k.blockY = 1, k.blockZ = 1;
    k.staticSharedMemory = 1024;
    k.dynamicSharedMemory = 4096;
    k.localMemoryPerThread = 16;
    k.localMemoryTotal = 65536;
    k.localMemoryTotal_v2 = 1ull << 33;
    k.correlationId = 77;
    k.name = "_Z6reducePKfPfi";
    k.launchType = CUPTI_ACTIVITY_LAUNCH_TYPE_COOPERATIVE_SINGLE_DEVICE;
    k.graphId = 9;
    k.graphNodeId = 1234;
    return k;
}

DecodeResult decode(
    const void* record, DecodedRecord& out, FakeEnvironment& env, DecodeSettings settings = {130001, 0})
{
    return decodeActivity(*static_cast<const CUpti_Activity*>(record), settings, env, out);
}

} // namespace

TEST_CASE("CUPTI 12 and 13 record versions share the fields the decoder reads")
{
    // The decoder reads every supported CUPTI through the 13.0 structs; these offsets must agree
    // with the older versions CUPTI 12 fills (fields are only ever appended).
#define SAME_OFFSET(A, B, field) CHECK(offsetof(A, field) == offsetof(B, field))
    SAME_OFFSET(CUpti_ActivityKernel9, CUpti_ActivityKernel10, start);
    SAME_OFFSET(CUpti_ActivityKernel9, CUpti_ActivityKernel10, streamId);
    SAME_OFFSET(CUpti_ActivityKernel9, CUpti_ActivityKernel10, correlationId);
    SAME_OFFSET(CUpti_ActivityKernel9, CUpti_ActivityKernel10, name);
    SAME_OFFSET(CUpti_ActivityKernel9, CUpti_ActivityKernel10, launchType);
    SAME_OFFSET(CUpti_ActivityKernel9, CUpti_ActivityKernel10, graphNodeId);
    SAME_OFFSET(CUpti_ActivityKernel9, CUpti_ActivityKernel10, graphId);
    SAME_OFFSET(CUpti_ActivityKernel9, CUpti_ActivityKernel10, localMemoryTotal_v2);
    SAME_OFFSET(CUpti_ActivityMemcpy5, CUpti_ActivityMemcpy6, bytes);
    SAME_OFFSET(CUpti_ActivityMemcpy5, CUpti_ActivityMemcpy6, correlationId);
    SAME_OFFSET(CUpti_ActivityMemcpy5, CUpti_ActivityMemcpy6, graphId);
    SAME_OFFSET(CUpti_ActivityMemset3, CUpti_ActivityMemset4, memoryKind);
    SAME_OFFSET(CUpti_ActivityMemset3, CUpti_ActivityMemset4, graphId);
    SAME_OFFSET(CUpti_ActivityMemcpyPtoP3, CUpti_ActivityMemcpyPtoP4, dstDeviceId);
    SAME_OFFSET(CUpti_ActivityMemcpyPtoP3, CUpti_ActivityMemcpyPtoP4, graphId);
    SAME_OFFSET(CUpti_ActivitySynchronization, CUpti_ActivitySynchronization2, cudaEventId);
    SAME_OFFSET(CUpti_ActivityDevice4, CUpti_ActivityDevice5, uuid);
    SAME_OFFSET(CUpti_ActivityDevice4, CUpti_ActivityDevice5, name);
    SAME_OFFSET(CUpti_ActivityContext2, CUpti_ActivityContext3, nullStreamId);
#undef SAME_OFFSET
}

TEST_CASE("a concurrent-kernel record becomes a kernel record with its launch configuration")
{
    FakeEnvironment env;
    const CUpti_ActivityKernel10 k = kernelRecord();
    DecodedRecord out;
    REQUIRE(decode(&k, out, env, {130001, -1000}) == DecodeResult::Record);
    REQUIRE(out.size == sizeof(spool::CudaKernelRecord));
    const auto& r = out.as<spool::CudaKernelRecord>();
    CHECK(r.header.type == spool::RecordType::CudaKernel);
    CHECK(r.header.bytes == sizeof(spool::CudaKernelRecord));
    CHECK(r.startNs == 4'999'000); // shifted by the clock offset
    CHECK(r.endNs == 5'249'000);
    CHECK((r.device == 1 && r.context == 3 && r.stream == 14 && r.correlation == 77));
    CHECK((r.grid[0] == 256 && r.grid[1] == 2 && r.grid[2] == 1));
    CHECK((r.block[0] == 128 && r.block[1] == 1 && r.block[2] == 1));
    CHECK(r.registersPerThread == 32);
    CHECK((r.staticSharedMemory == 1024 && r.dynamicSharedMemory == 4096 && r.localMemoryPerThread == 16));
    CHECK(r.localMemoryTotal == (1ull << 33));
    CHECK(r.nameId == env.ids.at("kernel:_Z6reducePKfPfi"));
    CHECK(r.launchType == 1);
    CHECK((r.graphId == 9 && r.graphNodeId == 1234));

    SECTION("an older CUPTI without the 64-bit local memory total uses the 32-bit one")
    {
        REQUIRE(decode(&k, out, env, {17, 0}) == DecodeResult::Record);
        CHECK(out.as<spool::CudaKernelRecord>().localMemoryTotal == 65536);
    }
    SECTION("a kernel without timestamps is reported, not stored")
    {
        CUpti_ActivityKernel10 lost = k;
        lost.start = lost.end = 0;
        CHECK(decode(&lost, out, env) == DecodeResult::NoTimestamps);
        CHECK(out.size == 0);
    }
}

TEST_CASE("memcpy records keep the copy kind and pageable or pinned host memory")
{
    FakeEnvironment env;
    CUpti_ActivityMemcpy6 m {};
    m.kind = CUPTI_ACTIVITY_KIND_MEMCPY;
    m.copyKind = CUPTI_ACTIVITY_MEMCPY_KIND_HTOD;
    m.srcKind = CUPTI_ACTIVITY_MEMORY_KIND_PAGEABLE;
    m.dstKind = CUPTI_ACTIVITY_MEMORY_KIND_DEVICE;
    m.bytes = 1 << 26;
    m.start = 100;
    m.end = 900;
    m.deviceId = 0, m.contextId = 1, m.streamId = 7, m.correlationId = 41;
    DecodedRecord out;
    REQUIRE(decode(&m, out, env) == DecodeResult::Record);
    const auto& r = out.as<spool::CudaMemcpyRecord>();
    CHECK(r.header.type == spool::RecordType::CudaMemcpy);
    CHECK(r.bytes == (1u << 26));
    CHECK(r.copyKind == 1); // HtoD
    CHECK(r.srcKind == 0); // Pageable in the model's numbering
    CHECK(r.dstKind == 2); // Device
    CHECK((r.stream == 7 && r.correlation == 41 && r.srcDevice == 0 && r.dstDevice == 0));

    m.copyKind = CUPTI_ACTIVITY_MEMCPY_KIND_DTOH;
    m.srcKind = CUPTI_ACTIVITY_MEMORY_KIND_DEVICE;
    m.dstKind = CUPTI_ACTIVITY_MEMORY_KIND_PINNED;
    REQUIRE(decode(&m, out, env) == DecodeResult::Record);
    CHECK(out.as<spool::CudaMemcpyRecord>().copyKind == 2);
    CHECK(out.as<spool::CudaMemcpyRecord>().dstKind == 1); // Pinned
}

TEST_CASE("peer copies, memsets and synchronisation records decode with their specific fields")
{
    FakeEnvironment env;
    DecodedRecord out;
    CUpti_ActivityMemcpyPtoP4 p {};
    p.kind = CUPTI_ACTIVITY_KIND_MEMCPY2;
    p.copyKind = CUPTI_ACTIVITY_MEMCPY_KIND_PTOP;
    p.srcKind = p.dstKind = CUPTI_ACTIVITY_MEMORY_KIND_DEVICE;
    p.start = 1, p.end = 2, p.deviceId = 0, p.srcDeviceId = 0, p.dstDeviceId = 3, p.correlationId = 8;
    REQUIRE(decode(&p, out, env) == DecodeResult::Record);
    CHECK(out.as<spool::CudaMemcpyRecord>().copyKind == 10);
    CHECK(out.as<spool::CudaMemcpyRecord>().dstDevice == 3);

    CUpti_ActivityMemset4 s {};
    s.kind = CUPTI_ACTIVITY_KIND_MEMSET;
    s.value = 0xAB, s.bytes = 4096, s.start = 10, s.end = 20,
    s.memoryKind = CUPTI_ACTIVITY_MEMORY_KIND_MANAGED;
    REQUIRE(decode(&s, out, env) == DecodeResult::Record);
    CHECK(out.as<spool::CudaMemsetRecord>().value == 0xAB);
    CHECK(out.as<spool::CudaMemsetRecord>().memoryKind == 4); // Managed

    CUpti_ActivitySynchronization2 y {};
    y.kind = CUPTI_ACTIVITY_KIND_SYNCHRONIZATION;
    y.type = CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_CONTEXT_SYNCHRONIZE;
    y.start = 30, y.end = 60, y.contextId = 1, y.correlationId = 12;
    y.streamId = CUPTI_SYNCHRONIZATION_INVALID_VALUE;
    y.cudaEventId = CUPTI_SYNCHRONIZATION_INVALID_VALUE;
    REQUIRE(decode(&y, out, env) == DecodeResult::Record);
    CHECK(out.as<spool::CudaSyncRecord>().type == 4);
    CHECK(out.as<spool::CudaSyncRecord>().eventId == 0);
    CHECK(out.as<spool::CudaSyncRecord>().stream == CUPTI_SYNCHRONIZATION_INVALID_VALUE);
}

TEST_CASE("runtime and driver API records keep thread, correlation, result and function name")
{
    FakeEnvironment env;
    CUpti_ActivityAPI a {};
    a.kind = CUPTI_ACTIVITY_KIND_RUNTIME;
    a.cbid = CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_v7000;
    a.start = 1000, a.end = 1500, a.processId = 10, a.threadId = 4321, a.correlationId = 77,
    a.returnValue = 2;
    DecodedRecord out;
    REQUIRE(decode(&a, out, env) == DecodeResult::Record);
    const auto& r = out.as<spool::CudaApiRecord>();
    CHECK(r.header.tid == 4321);
    CHECK((r.startNs == 1000 && r.endNs == 1500 && r.correlation == 77 && r.result == 2));
    CHECK(r.apiClass == spool::ApiClass::Runtime);
    CHECK(
        r.nameId == env.ids.at("runtime:" + std::to_string(CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_v7000)));

    a.kind = CUPTI_ACTIVITY_KIND_DRIVER;
    a.cbid = CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel;
    REQUIRE(decode(&a, out, env) == DecodeResult::Record);
    CHECK(out.as<spool::CudaApiRecord>().apiClass == spool::ApiClass::Driver);
}

TEST_CASE("device, context and stream records describe the GPU side")
{
    FakeEnvironment env;
    DecodedRecord out;
    CUpti_ActivityDevice5 d {};
    d.kind = CUPTI_ACTIVITY_KIND_DEVICE;
    d.id = 2, d.computeCapabilityMajor = 9, d.computeCapabilityMinor = 0, d.numMultiprocessors = 132;
    d.globalMemorySize = 150ull << 30, d.coreClockRate = 1980000, d.name = "NVIDIA H200";
    for (int i = 0; i < 16; ++i)
        d.uuid.bytes[i] = char(i * 17);
    REQUIRE(decode(&d, out, env) == DecodeResult::Record);
    const auto& dev = out.as<spool::CudaDeviceRecord>();
    CHECK((dev.device == 2 && dev.computeMajor == 9 && dev.smCount == 132 && dev.coreClockKHz == 1980000));
    CHECK(dev.memoryBytes == (150ull << 30));
    CHECK(dev.uuid[15] == 255);
    CHECK(dev.nameId == env.ids.at("NVIDIA H200"));

    CUpti_ActivityStream st {};
    st.kind = CUPTI_ACTIVITY_KIND_STREAM;
    st.contextId = 1, st.streamId = 7, st.priority = uint32_t(-1),
    st.flag = CUPTI_ACTIVITY_STREAM_CREATE_FLAG_NULL;
    REQUIRE(decode(&st, out, env) == DecodeResult::Record);
    CHECK(out.as<spool::CudaStreamRecord>().priority == -1);
    CHECK(out.as<spool::CudaStreamRecord>().isDefault == 1);

    CUpti_Activity other {CUPTI_ACTIVITY_KIND_OVERHEAD};
    CHECK(decode(&other, out, env) == DecodeResult::Ignored);
}

TEST_CASE("callback names lose their API version suffix, CUPTI enums map onto the model's")
{
    CHECK(stripVersionSuffix("cudaLaunchKernel_v7000") == "cudaLaunchKernel");
    CHECK(stripVersionSuffix("cudaStreamIsCapturing_ptsz_v10000") == "cudaStreamIsCapturing_ptsz");
    CHECK(stripVersionSuffix("cuLaunchKernel") == "cuLaunchKernel");
    CHECK(stripVersionSuffix("cuMemcpyHtoD_v2") == "cuMemcpyHtoD");
    CHECK(stripVersionSuffix("odd_v") == "odd_v");
    CHECK(stripVersionSuffix("name_vx1") == "name_vx1");
    CHECK(mapMemoryKind(CUPTI_ACTIVITY_MEMORY_KIND_UNKNOWN) == 7);
    CHECK(mapMemoryKind(CUPTI_ACTIVITY_MEMORY_KIND_MANAGED_STATIC) == 6);
    CHECK(mapMemoryKind(99) == 7);
    CHECK(mapCopyKind(42) == 0);
    CHECK(mapSyncType(CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_STREAM_WAIT_EVENT) == 2);
}
