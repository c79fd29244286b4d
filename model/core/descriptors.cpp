#include "model/core/descriptors.h"

namespace sightline {
namespace {

// FNV-1a style mixing over 64-bit words; descriptors are small, so this is cheap.
struct Mixer
{
    uint64_t h = 1469598103934665603ULL;
    Mixer& add(uint64_t v)
    {
        h ^= v + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2);
        return *this;
    }
};

} // namespace

size_t DescriptorHash::operator()(const ApiResult& d) const noexcept
{
    return Mixer {}.add(uint64_t(d.apiClass)).add(uint32_t(d.returnCode)).h;
}

size_t DescriptorHash::operator()(const KernelLaunch& d) const noexcept
{
    Mixer m;
    m.add(d.shortName.value).add(d.mangledName.value);
    for (auto v : d.grid)
        m.add(v);
    for (auto v : d.block)
        m.add(v);
    m.add(d.registersPerThread).add(d.staticSharedMemory).add(d.dynamicSharedMemory);
    m.add(d.localMemoryPerThread).add(d.localMemoryTotal).add(uint64_t(d.launchType));
    m.add(d.graphId).add(d.graphNodeId);
    return m.h;
}

size_t DescriptorHash::operator()(const MemoryOp& d) const noexcept
{
    return Mixer {}
        .add(uint64_t(d.kind))
        .add(uint64_t(d.copyKind))
        .add(uint64_t(d.srcKind))
        .add(uint64_t(d.dstKind))
        .add(d.memsetValue)
        .add(d.srcDevice.value)
        .add(d.dstDevice.value)
        .h;
}

size_t DescriptorHash::operator()(const SyncOp& d) const noexcept
{
    return Mixer {}.add(uint64_t(d.type)).add(d.eventId).h;
}

size_t DescriptorHash::operator()(const NvtxAttributes& d) const noexcept
{
    return Mixer {}
        .add(uint64_t(d.style))
        .add(d.domain.value)
        .add(d.category)
        .add(d.color)
        .add(d.hasColor)
        .add(d.endThread.value)
        .add(uint64_t(d.payloadType))
        .add(d.payload)
        .h;
}

} // namespace sightline
