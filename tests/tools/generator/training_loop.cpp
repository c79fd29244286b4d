#include "training_loop.h"

#include <algorithm>
#include <deque>
#include <span>
#include <string>

namespace sightline::gen {
namespace {

constexpr uint64_t kMiB = 1 << 20;

struct PendingBatch
{
    std::optional<OpenRange> range; // empty when the budget ran out before it started
    Timestamp ready = 0;
};

class TrainingLoop
{
public:
    TrainingLoop(TraceBuilder& builder, const InternedCatalog& catalog, const ProcessPlan& plan,
        EventBudget& budget, Random& random);
    void run();

private:
    void setUp();
    void step(uint32_t k);
    void loadBatch(uint32_t k);
    void prepareBatch(uint32_t k, Timestamp notBefore);
    void forward();
    void backward();
    void allReduce(HostThread& thread, size_t device, uint32_t variant);
    void optimizer(uint32_t k);
    void finishStep(uint32_t k);
    void otherThreads(Timestamp stepStart, uint32_t k);
    void tearDown();

    void launchAll(HostThread& thread, GpuStream& stream, std::span<const Kernel> kernels, uint32_t variant);
    void moveActivations(HostThread& thread, size_t from, size_t to);
    GpuStream& stream(size_t device, StreamRole role, uint32_t k = 0);
    size_t deviceOfLayer(uint32_t layer) const { return layer * m_plan.devices.size() / m_plan.layers; }
    RangeStyle style(StringId name, uint32_t color, uint32_t category, DomainId domain = {}) const
    {
        return RangeStyle {domain, name, color, category};
    }
    RangeStyle style(std::string_view name, uint32_t color, uint32_t category, DomainId domain = {}) const
    {
        return RangeStyle {domain, m_builder.intern(name), color, category};
    }
    static RangeStyle withPayload(RangeStyle style, PayloadType type, uint64_t payload)
    {
        style.payloadType = type;
        style.payload = payload;
        return style;
    }

    Emitter m_emitter;
    TraceBuilder& m_builder;
    const ProcessPlan& m_plan;
    Random& m_random;
    std::vector<HostThread> m_threads;
    std::vector<std::vector<GpuStream>> m_streams; // per device of the plan
    HostThread* m_main = nullptr;
    HostThread* m_autograd = nullptr; // the main thread when there is no second thread
    HostThread* m_loader = nullptr; // none with fewer than three threads
    std::deque<PendingBatch> m_batches;
    std::vector<Timestamp> m_consumed; // when the main thread took batch k

    std::vector<StringId> m_layerNames, m_layerBackwardNames;
};

TrainingLoop::TrainingLoop(TraceBuilder& builder, const InternedCatalog& catalog, const ProcessPlan& plan,
    EventBudget& budget, Random& random)
    : m_emitter(builder, catalog, plan.pid, budget, random)
    , m_builder(builder)
    , m_plan(plan)
    , m_random(random)
{
    for (const Thread& thread : plan.threads)
        m_threads.push_back(HostThread {thread.tid});
    m_main = &m_threads[0];
    m_autograd = m_threads.size() > 1 ? &m_threads[1] : m_main;
    m_loader = m_threads.size() > 2 ? &m_threads[2] : nullptr;
    m_autograd->hostGapNs = 3500; // C++ autograd engine, no Python in between
    if (m_loader) m_loader->hostGapNs = 20000;
    for (const DevicePlan& device : plan.devices) {
        std::vector<GpuStream>& streams = m_streams.emplace_back();
        for (StreamId id : device.streams)
            streams.push_back(GpuStream {device.device, device.context, id});
    }

    for (uint32_t i = 0; i < plan.layers; ++i) {
        std::string layer = "model.layers." + std::to_string(i);
        m_layerNames.push_back(builder.intern(layer));
        m_layerBackwardNames.push_back(builder.intern(layer + ".backward"));
    }
}

GpuStream& TrainingLoop::stream(size_t device, StreamRole role, uint32_t k)
{
    std::vector<GpuStream>& streams = m_streams[device];
    size_t last = streams.size() - 1;
    size_t index = std::min<size_t>(size_t(role), last);
    if (role == StreamRole::Auxiliary && streams.size() > 4) index = 3 + k % (streams.size() - 3);
    return streams[index];
}

void TrainingLoop::run()
{
    setUp();
    for (uint32_t k = 0; !m_emitter.exhausted(); ++k)
        step(k);
    tearDown();
}

void TrainingLoop::setUp()
{
    HostThread& main = *m_main;
    for (HostThread& thread : m_threads)
        thread.now = m_plan.startTime + m_random.between(0, 400000);
    main.now = m_plan.startTime;
    for (int i = 0; i < 3; ++i)
        m_emitter.osCall(main, OsFunction::Ioctl, m_random.logNormal(15000, 0.8), 0);
    NvtxScope setup(m_emitter, main, style("setup", color::kGrey, 0));
    for (size_t d = 0; d < m_plan.devices.size(); ++d) {
        m_emitter.plainCall(main, Api::SetDevice);
        m_emitter.plainCall(main, Api::Free, m_random.logNormal(180e6, 0.2)); // creates the context
        for (size_t s = 1; s < m_streams[d].size(); ++s)
            m_emitter.plainCall(main, Api::StreamCreateWithPriority);
        m_emitter.plainCall(main, Api::EventCreateWithFlags);
        for (int i = 0; i < 3; ++i)
            m_emitter.plainCall(main, Api::Malloc, m_random.logNormal(60000, 1.0));
        for (int i = 0; i < 3; ++i)
            m_emitter.osCall(main, OsFunction::Read, m_random.logNormal(4e6, 0.5), 1 << 24);
        uint64_t weights = (192 + m_random.below(320)) * kMiB;
        m_emitter.copy(main, stream(d, StreamRole::Compute),
            {CopyKind::HtoD, MemoryKind::Pageable, MemoryKind::Device, weights, Api::Memcpy});
    }
    m_emitter.mark(main, style("model ready", color::kGreen, 0));
}

void TrainingLoop::step(uint32_t k)
{
    HostThread& main = *m_main;
    Timestamp stepStart = main.now;
    NvtxScope scope(
        m_emitter, main, withPayload(style("train_step", color::kGreen, 0), PayloadType::Int64, k));
    if (!scope) return;
    loadBatch(k);
    forward();
    backward();
    optimizer(k);
    finishStep(k);
    otherThreads(stepStart, k);
}

void TrainingLoop::prepareBatch(uint32_t k, Timestamp notBefore)
{
    HostThread& loader = *m_loader;
    loader.now = std::max(loader.now, notBefore);
    RangeStyle batch = style("batch", color::kTeal, 0, m_plan.loaderDomain);
    PendingBatch pending {m_emitter.startRange(loader, withPayload(batch, PayloadType::UInt64, k)), 0};
    uint64_t chunks = 2 + m_random.below(4);
    for (uint64_t c = 0; c < chunks; ++c) {
        m_emitter.osCall(loader, OsFunction::Poll, m_random.logNormal(30000, 1.0), 1);
        bool wouldBlock = m_random.chance(0.03);
        m_emitter.osCall(loader, OsFunction::Read, m_random.logNormal(150000, 0.8),
            wouldBlock ? -1 : int64_t(65536) << m_random.below(3));
        if (m_random.chance(0.2))
            m_emitter.osCall(loader, OsFunction::MutexLock, m_random.logNormal(3000, 1.2), 0);
    }
    if (m_random.chance(0.1))
        m_emitter.osCall(loader, OsFunction::Nanosleep, m_random.logNormal(1e6, 0.3), 0);
    pending.ready = loader.now;
    m_batches.push_back(pending);
}

void TrainingLoop::loadBatch(uint32_t k)
{
    HostThread& main = *m_main;
    // Two batches in flight: batch k may start once batch k-2 has been taken.
    if (m_loader) prepareBatch(k, k >= 2 ? m_consumed[k - 2] : m_plan.startTime);
    {
        NvtxScope data(m_emitter, main, style("data", color::kTeal, 0));
        if (m_loader && !m_batches.empty()) {
            PendingBatch batch = m_batches.front();
            m_batches.pop_front();
            if (main.now < batch.ready && m_emitter.charge(1))
                m_emitter.recordOsCall(
                    main, OsFunction::SemWait, main.now, batch.ready + m_random.logNormal(4000, 0.5), 0);
            if (batch.range) m_emitter.endRange(*batch.range, main);
        } else if (!m_loader) {
            RangeStyle batch = style("batch", color::kTeal, 0, m_plan.loaderDomain);
            auto range = m_emitter.startRange(main, withPayload(batch, PayloadType::UInt64, k));
            for (int i = 0; i < 2; ++i)
                m_emitter.osCall(main, OsFunction::Read, m_random.logNormal(150000, 0.8), 131072);
            if (range) m_emitter.endRange(*range, main);
        }
    }
    m_consumed.push_back(main.now);

    // Input and labels to the first GPU on the copy stream; compute waits for them.
    GpuStream& copyStream = stream(0, StreamRole::Copy);
    bool pageable = k % 41 == 7; // now and then a batch that was not pinned
    uint64_t inputBytes = (4 + m_random.below(13)) * kMiB;
    m_emitter.copy(main, copyStream,
        {CopyKind::HtoD, pageable ? MemoryKind::Pageable : MemoryKind::Pinned, MemoryKind::Device,
            inputBytes});
    m_emitter.copy(main, copyStream, {CopyKind::HtoD, MemoryKind::Pinned, MemoryKind::Device, 2048});
    if (auto ready = m_emitter.recordEvent(main, copyStream))
        m_emitter.waitEvent(main, stream(0, StreamRole::Compute), *ready);
}

void TrainingLoop::launchAll(
    HostThread& thread, GpuStream& stream, std::span<const Kernel> kernels, uint32_t variant)
{
    for (Kernel kernel : kernels)
        if (!m_emitter.launchKernel(thread, stream, kernel, variant)) return;
}

void TrainingLoop::moveActivations(HostThread& thread, size_t from, size_t to)
{
    auto done = m_emitter.recordEvent(thread, stream(from, StreamRole::Compute));
    if (!done) return;
    GpuStream& target = stream(to, StreamRole::Compute);
    m_emitter.waitEvent(thread, target, *done);
    CopyRequest peer {CopyKind::PtoP, MemoryKind::Device, MemoryKind::Device, 8 * kMiB, Api::MemcpyPeerAsync,
        m_plan.devices[from].device};
    m_emitter.copy(thread, target, peer);
}

void TrainingLoop::forward()
{
    HostThread& main = *m_main;
    NvtxScope scope(m_emitter, main, style("forward", color::kBlue, 1));
    size_t current = deviceOfLayer(0);
    for (uint32_t i = 0; i < m_plan.layers && !m_emitter.exhausted(); ++i) {
        size_t device = deviceOfLayer(i);
        if (device != current) moveActivations(main, current, device);
        current = device;
        GpuStream& compute = stream(device, StreamRole::Compute);
        NvtxScope layer(
            m_emitter, main, withPayload(style(m_layerNames[i], color::kPurple, 1), PayloadType::UInt32, i));
        {
            NvtxScope attention(m_emitter, main, style("self_attn", color::kYellow, 1));
            launchAll(main, compute, kAttentionForward, i % kKernelVariants);
        }
        {
            NvtxScope mlp(m_emitter, main, style("mlp", color::kTeal, 1));
            launchAll(main, compute, kMlpForward, i % kKernelVariants);
        }
        // The caching allocator's lock, and now and then a driver ioctl.
        if (m_random.chance(0.05))
            m_emitter.osCall(main, OsFunction::MutexLock, m_random.logNormal(2500, 1.5), 0);
        if (m_random.chance(0.02))
            m_emitter.osCall(main, OsFunction::Ioctl, m_random.logNormal(9000, 0.7), 0);
    }
    NvtxScope loss(m_emitter, main, style("loss", color::kBlue, 1));
    launchAll(main, stream(current, StreamRole::Compute), kLossForward, 0);
}

void TrainingLoop::backward()
{
    HostThread& main = *m_main;
    NvtxScope scope(m_emitter, main, style("backward", color::kRed, 2));
    if (!scope) return;
    HostThread& worker = *m_autograd;
    bool handOff = &worker != &main;
    // The main thread blocks in loss.backward() while the autograd thread works; that wait is
    // paid for up front so it is emitted even if the budget runs out meanwhile.
    if (handOff && !m_emitter.charge(1)) return;
    Timestamp blockedFrom = main.now;
    if (handOff) worker.now = std::max(worker.now, main.now + m_random.logNormal(15000, 0.5));

    size_t current = deviceOfLayer(m_plan.layers - 1);
    launchAll(worker, stream(current, StreamRole::Compute), kLossBackward, 0);
    uint32_t bucketLayers = std::max(1u, m_plan.layers / 3);
    for (uint32_t i = m_plan.layers; i-- > 0 && !m_emitter.exhausted();) {
        size_t device = deviceOfLayer(i);
        if (device != current) moveActivations(worker, current, device);
        current = device;
        GpuStream& compute = stream(device, StreamRole::Compute);
        {
            NvtxScope layer(m_emitter, worker,
                withPayload(style(m_layerBackwardNames[i], color::kRed, 2), PayloadType::UInt32, i));
            launchAll(worker, compute, kMlpBackward, i % kKernelVariants);
            launchAll(worker, compute, kAttentionBackward, i % kKernelVariants);
        }
        if (m_plan.distributed && i % bucketLayers == 0)
            allReduce(worker, device, (i / bucketLayers) % kKernelVariants);
    }
    if (m_plan.distributed) {
        for (size_t d = 0; d < m_streams.size(); ++d)
            if (auto reduced = m_emitter.recordEvent(worker, stream(d, StreamRole::Communication)))
                m_emitter.waitEvent(worker, stream(d, StreamRole::Compute), *reduced);
    }
    if (handOff)
        m_emitter.recordOsCall(
            main, OsFunction::SemWait, blockedFrom, worker.now + m_random.logNormal(6000, 0.5), 0);
}

void TrainingLoop::allReduce(HostThread& thread, size_t device, uint32_t variant)
{
    auto gradientsReady = m_emitter.recordEvent(thread, stream(device, StreamRole::Compute));
    if (!gradientsReady) return;
    uint64_t bucketBytes = (25 << variant) * kMiB;
    NvtxScope scope(m_emitter, thread,
        withPayload(style("ncclAllReduce", 0, 0, m_plan.ncclDomain), PayloadType::UInt64, bucketBytes));
    GpuStream& communication = stream(device, StreamRole::Communication);
    m_emitter.waitEvent(thread, communication, *gradientsReady);
    m_emitter.launchKernel(thread, communication, Kernel::NcclAllReduce, variant);
}

void TrainingLoop::optimizer(uint32_t k)
{
    HostThread& main = *m_main;
    NvtxScope scope(m_emitter, main, style("optimizer", color::kOrange, 3));
    for (size_t d = 0; d < m_streams.size() && !m_emitter.exhausted(); ++d) {
        GpuStream& compute = stream(d, StreamRole::Compute);
        {
            // One memset per gradient bucket the device holds, then the small leftovers.
            NvtxScope zero(m_emitter, main, style("zero_grad", color::kGrey, 3));
            for (uint32_t v = 0; v < kKernelVariants; ++v)
                m_emitter.memset(main, compute, (25 << v) * kMiB / m_streams.size(), 0);
            if (m_random.chance(0.5)) m_emitter.launchKernel(main, compute, Kernel::FillZero, 0);
        }
        {
            NvtxScope adam(m_emitter, main, style("Adam.step", color::kOrange, 3));
            for (uint32_t v = 0; v < 2; ++v)
                m_emitter.launchKernel(main, compute, Kernel::FusedAdam, v);
        }
        if (k % 4 == 3) { // an exponential moving average of the weights on a side stream
            NvtxScope ema(m_emitter, main, style("ema_update", color::kGrey, 3));
            GpuStream& side = stream(d, StreamRole::Auxiliary, k);
            if (auto updated = m_emitter.recordEvent(main, compute)) {
                m_emitter.waitEvent(main, side, *updated);
                m_emitter.launchKernel(main, side, Kernel::Lerp, 0);
                m_emitter.copy(
                    main, side, {CopyKind::DtoD, MemoryKind::Device, MemoryKind::Device, 32 * kMiB});
            }
        }
    }
}

void TrainingLoop::finishStep(uint32_t k)
{
    HostThread& main = *m_main;
    size_t last = deviceOfLayer(m_plan.layers - 1);
    GpuStream& compute = stream(last, StreamRole::Compute);
    if (k % 10 == 9) { // a timing helper polling a CUDA event before waiting for it
        if (auto done = m_emitter.recordEvent(main, compute)) {
            m_emitter.queryEvent(main, *done);
            m_emitter.think(main);
            m_emitter.queryEvent(main, *done);
            m_emitter.synchronizeEvent(main, *done);
        }
    }
    // loss.item(): a 4-byte copy to pageable memory, then a stream synchronization.
    m_emitter.copy(main, compute, {CopyKind::DtoH, MemoryKind::Device, MemoryKind::Pageable, 4});
    m_emitter.synchronizeStream(main, compute);
    if (k % 10 == 0)
        m_emitter.osCall(main, OsFunction::Write, m_random.logNormal(12000, 0.5), 60 + m_random.below(40));
    if (k % 250 == 0)
        m_emitter.mark(main, withPayload(style("epoch", color::kGreen, 0), PayloadType::UInt32, k / 250));
    if (k % 500 == 499) {
        m_emitter.mark(main, style("checkpoint", color::kRed, 0));
        for (size_t d = 0; d < m_streams.size(); ++d) {
            uint64_t weights = (192 + m_random.below(128)) * kMiB;
            m_emitter.copy(main, stream(d, StreamRole::Compute),
                {CopyKind::DtoH, MemoryKind::Device, MemoryKind::Pageable, weights});
            m_emitter.osCall(main, OsFunction::Write, m_random.logNormal(40e6, 0.4), int64_t(weights));
        }
    }
}

void TrainingLoop::otherThreads(Timestamp stepStart, uint32_t k)
{
    // Threads past the first three: a metrics writer and helpers that mostly wait.
    for (size_t t = 3; t < m_threads.size(); ++t) {
        HostThread& thread = m_threads[t];
        thread.now = std::max(thread.now, stepStart + m_random.logNormal(500000, 1.0));
        m_emitter.osCall(thread, OsFunction::Poll, m_random.logNormal(2e6, 0.6), 0);
        if (k % 5 == t % 5) m_emitter.osCall(thread, OsFunction::Write, m_random.logNormal(20000, 0.6), 512);
        if (m_random.chance(0.3))
            m_emitter.osCall(thread, OsFunction::Nanosleep, m_random.logNormal(1e6, 0.2), 0);
    }
}

void TrainingLoop::tearDown()
{
    // Batches the loader prepared that the main thread never took: closed where it stopped.
    for (const PendingBatch& batch : m_batches)
        if (batch.range) m_emitter.endRange(*batch.range, *m_main);
    m_batches.clear();
    m_emitter.padToLimit(*m_main);
}

} // namespace

void runTrainingProcess(TraceBuilder& builder, const InternedCatalog& catalog, const ProcessPlan& plan,
    EventBudget& budget, Random& random)
{
    TrainingLoop loop(builder, catalog, plan, budget, random);
    loop.run();
}

} // namespace sightline::gen
