#include "collector/perf/cpu_recorder.h"

#include "collector/perf/stack_trim.h"
#include "collector/spool/cpu_recording_file.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <linux/perf_event.h>
#include <poll.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

namespace sightline::collector {

namespace {

namespace file = spool::cpu_recording;

constexpr size_t kPage = 4096;
// The user stack copied with each timer sample: in the default mode, for the samples whose
// frame-pointer walk breaks; with --backtrace=dwarf, for all. 4 KiB reaches a thread's start
// from most C and C++ code; perf's 8 KiB doubles what each sample costs to write and read
// again (the record holds the whole size whatever the stack's depth).
constexpr uint32_t kUserStackBytes = 4096;
// A thread that leaves the CPU does so from a system call a few frames below its own code:
// less reaches its start from there, and switches can be far more frequent than timer samples.
constexpr uint32_t kSwitchStackBytes = 2048;
// x86-64 registers for unwinding: AX..IP (0-8) and R8..R15 (16-23), as perf_regs.h numbers them.
constexpr uint64_t kUnwindRegisters = 0x1ffull | (0xffull << 16);

int perfEventOpen(perf_event_attr& attr, pid_t pid, int cpu, int groupFd)
{
    return int(syscall(SYS_perf_event_open, &attr, pid, cpu, groupFd, PERF_FLAG_FD_CLOEXEC));
}

std::vector<uint32_t> onlineCpus()
{
    std::vector<uint32_t> cpus;
    const int fd = open("/sys/devices/system/cpu/online", O_RDONLY | O_CLOEXEC);
    char text[256] = {};
    if (fd >= 0) {
        const ssize_t got = read(fd, text, sizeof(text) - 1);
        close(fd);
        for (char* p = text; got > 0 && *p && *p != '\n';) {
            char* end = nullptr;
            const unsigned long first = strtoul(p, &end, 10);
            unsigned long last = first;
            if (*end == '-') last = strtoul(end + 1, &end, 10);
            for (unsigned long c = first; c <= last && c < 65536; ++c)
                cpus.push_back(uint32_t(c));
            p = *end == ',' ? end + 1 : end;
            if (end == p && *p != ',') break;
        }
    }
    if (cpus.empty())
        for (long c = 0; c < sysconf(_SC_NPROCESSORS_ONLN); ++c)
            cpus.push_back(uint32_t(c));
    return cpus;
}

std::string paranoidAdvice()
{
    return "perf events were refused (/proc/sys/kernel/perf_event_paranoid allows less than this needs, or a "
           "container or seccomp forbids perf_event_open); run as root, or set kernel.perf_event_paranoid to "
           "1 (or -1 for kernel stacks), to record CPU samples and thread states";
}

} // namespace

CpuRecorder::CpuRecorder(pid_t pid, const CpuRecordingOptions& options, std::string path)
    : m_options(options)
    , m_path(std::move(path))
{
    m_file = open(m_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (m_file < 0) {
        m_warnings.push_back(
            "cannot write " + m_path + ": " + strerror(errno) + "; no CPU samples are recorded");
        return;
    }
    openEvents(pid);

    file::FileHeader header {};
    memcpy(header.magic, file::kMagic.data(), file::kMagic.size());
    header.version = file::kVersion;
    header.eventCount = uint32_t(m_eventIds.size());
    header.sampleType = m_sampleType;
    const bool copies = m_options.backtrace != BacktraceMethod::None;
    header.sampleRegsUser = copies ? kUnwindRegisters : 0;
    header.sampleStackUser = copies ? kUserStackBytes : 0;
    header.samplingPeriodNs = m_options.sample ? 1'000'000'000ull / m_options.frequency : 0;
    m_pending.insert(m_pending.end(), reinterpret_cast<char*>(&header), reinterpret_cast<char*>(&header + 1));
    for (size_t i = 0; i < m_eventIds.size(); ++i) {
        const file::EventEntry entry {m_eventIds[i].first, m_eventIds[i].second, m_eventCpus[i]};
        m_pending.insert(m_pending.end(), reinterpret_cast<const char*>(&entry),
            reinterpret_cast<const char*>(&entry + 1));
    }
    for (const std::string& w : m_warnings)
        appendDiagnostic(w);
    flushFile();
    if (m_options.sample && m_options.backtrace != BacktraceMethod::None) {
        std::vector<uint64_t> clockIds;
        for (const auto& [id, role] : m_eventIds)
            if (role == uint32_t(file::EventRole::CpuClock)) clockIds.push_back(id);
        m_python = std::make_unique<PythonStackRecorder>(m_sampleType, std::move(clockIds));
    }
    if (!m_rings.empty()) m_reader = std::thread([this] { run(); });
}

CpuRecorder::~CpuRecorder()
{
    stop();
}

void CpuRecorder::warn(std::string sentence)
{
    m_warnings.push_back(std::move(sentence));
}

void CpuRecorder::openEvents(pid_t pid)
{
    if (!m_options.any()) return;
    m_sampleType
        = PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_CPU;
    // Frame pointers are walked by the kernel; the registers and a copy of the stack let the
    // conversion check each walk and unwind the samples whose walk broke (or, with
    // --backtrace=dwarf, every sample) with the call frame information.
    if (m_options.backtrace != BacktraceMethod::None)
        m_sampleType |= PERF_SAMPLE_CALLCHAIN | PERF_SAMPLE_REGS_USER | PERF_SAMPLE_STACK_USER;

    auto baseAttr = [&] {
        perf_event_attr attr {};
        attr.size = sizeof(attr);
        attr.type = PERF_TYPE_SOFTWARE;
        attr.sample_type = m_sampleType;
        attr.disabled = 1;
        attr.inherit = 1;
        attr.enable_on_exec = 1;
        attr.sample_id_all = 1;
        attr.use_clockid = 1;
        attr.clockid = CLOCK_MONOTONIC;
        attr.exclude_hv = 1;
        attr.exclude_callchain_kernel = 1;
        if (m_options.backtrace != BacktraceMethod::None) {
            attr.sample_regs_user = kUnwindRegisters;
            attr.sample_stack_user = kUserStackBytes;
        }
        return attr;
    };
    // The tracking event: timer samples (or, without sampling, a period too long to fire) plus
    // the switch, mmap, comm and task records.
    perf_event_attr clock = baseAttr();
    clock.config = PERF_COUNT_SW_CPU_CLOCK;
    clock.sample_period = m_options.sample ? 1'000'000'000ull / m_options.frequency : (1ull << 62);
    clock.context_switch = m_options.contextSwitches ? 1 : 0;
    clock.mmap = 1;
    clock.mmap2 = 1;
    clock.comm = 1;
    clock.comm_exec = 1;
    clock.task = 1;
    clock.watermark = 1;
    // The stack a thread leaves the CPU from, kernel part included, says why it waits.
    perf_event_attr switches = baseAttr();
    switches.config = PERF_COUNT_SW_CONTEXT_SWITCHES;
    switches.sample_period = 1;
    switches.exclude_callchain_kernel = 0;
    if (switches.sample_stack_user != 0) switches.sample_stack_user = kSwitchStackBytes;

    // Room for 100 ms of samples at 10 kHz with stack copies; where the locked-memory limit
    // (perf_event_mlock_kb, for a user without CAP_IPC_LOCK) refuses that, 128 pages.
    const size_t wantedPages = m_options.backtrace == BacktraceMethod::None ? 128 : 1024;
    clock.wakeup_watermark = uint32_t(128 * kPage / 4); // a quarter of the smaller ring
    bool kernelRefused = false;
    for (uint32_t cpu : onlineCpus()) {
        RingBuffer ring;
        ring.cpu = cpu;
        ring.fd = perfEventOpen(clock, pid, int(cpu), -1);
        if (ring.fd < 0 && (errno == EACCES || errno == EPERM) && !clock.exclude_kernel) {
            // Without the right to see the kernel, samples of user code still work.
            clock.exclude_kernel = 1;
            kernelRefused = true;
            ring.fd = perfEventOpen(clock, pid, int(cpu), -1);
        }
        if (ring.fd < 0) {
            if (errno == ENODEV) continue; // a CPU gone offline
            const int error = errno;
            warn(error == EACCES || error == EPERM ? paranoidAdvice()
                                                   : std::string("perf_event_open failed (") + strerror(error)
                        + "); no CPU samples are recorded");
            break;
        }
        ring.base = MAP_FAILED;
        for (size_t pages = wantedPages; pages >= 128 && ring.base == MAP_FAILED; pages /= 8) {
            ring.mappedBytes = (pages + 1) * kPage;
            ring.base = mmap(nullptr, ring.mappedBytes, PROT_READ | PROT_WRITE, MAP_SHARED, ring.fd, 0);
        }
        if (ring.base == MAP_FAILED) {
            warn(std::string("cannot map the perf ring buffer (") + strerror(errno)
                + "); raise `ulimit -l` or /proc/sys/kernel/perf_event_mlock_kb to record CPU samples");
            close(ring.fd);
            break;
        }
        uint64_t id = 0;
        ioctl(ring.fd, PERF_EVENT_IOC_ID, &id);
        m_eventIds.emplace_back(id, uint32_t(file::EventRole::CpuClock));
        m_eventCpus.push_back(cpu);
        if (m_options.contextSwitches && !clock.exclude_kernel) {
            const int fd = perfEventOpen(switches, pid, int(cpu), -1);
            if (fd >= 0 && ioctl(fd, PERF_EVENT_IOC_SET_OUTPUT, ring.fd) == 0) {
                ioctl(fd, PERF_EVENT_IOC_ID, &id);
                m_eventIds.emplace_back(id, uint32_t(file::EventRole::ContextSwitch));
                m_eventCpus.push_back(cpu);
                ring.followers.push_back(fd);
            } else if (fd >= 0) {
                close(fd);
            }
        }
        m_rings.push_back(std::move(ring));
    }
    if (m_rings.empty()) return;
    if (kernelRefused)
        warn("kernel-side samples were refused (perf_event_paranoid above 1): time spent in system calls is "
             "not "
             "sampled and waiting threads are not told apart (sleeping, blocked, I/O); run as root or set "
             "kernel.perf_event_paranoid to 1 for both");
}

void CpuRecorder::append(uint32_t cpu, std::string_view first, std::string_view second)
{
    const uint32_t head[2] = {cpu, uint32_t(first.size() + second.size())};
    m_pending.insert(
        m_pending.end(), reinterpret_cast<const char*>(head), reinterpret_cast<const char*>(head + 2));
    m_pending.insert(m_pending.end(), first.begin(), first.end());
    m_pending.insert(m_pending.end(), second.begin(), second.end());
}

void CpuRecorder::appendDiagnostic(std::string sentence)
{
    sentence.resize((sentence.size() + 7) / 8 * 8, '\0'); // records that follow stay 8-byte aligned
    append(file::kDiagnosticChunk, sentence);
}

void CpuRecorder::flushFile()
{
    size_t done = 0;
    while (done < m_pending.size() && m_file >= 0) {
        const ssize_t wrote = write(m_file, m_pending.data() + done, m_pending.size() - done);
        if (wrote < 0 && errno == EINTR) continue;
        if (wrote <= 0) break; // a full disk: the reader of the file keeps what was complete
        done += size_t(wrote);
    }
    m_bytes += done;
    m_pending.clear();
}

void CpuRecorder::drain(RingBuffer& ring)
{
    auto* meta = static_cast<perf_event_mmap_page*>(ring.base);
    const char* data = static_cast<const char*>(ring.base) + kPage;
    const uint64_t size = ring.mappedBytes - kPage;
    const uint64_t head = __atomic_load_n(&meta->data_head, __ATOMIC_ACQUIRE);
    const uint64_t tail = meta->data_tail;
    if (head == tail) return;
    // A chunk's length is 32 bits; a ring is far smaller.
    const uint64_t bytes = head - tail;
    const uint64_t from = tail % size;
    const uint64_t first = std::min(bytes, size - from);
    std::string_view records(data + from, first);
    if (bytes > first) { // the records wrap around the ring's end: made contiguous for trimming
        m_wrapped.assign(data + from, data + from + first);
        m_wrapped.insert(m_wrapped.end(), data, data + (bytes - first));
        records = {m_wrapped.data(), m_wrapped.size()};
    }
    const size_t chunkAt = m_pending.size();
    append(ring.cpu, {});
    if (m_python)
        appendTrimmedRecords(records, m_sampleType, kUnwindRegisters, m_pending,
            [this](uint32_t pid) { return m_python->readsFramesOf(pid); });
    else
        appendTrimmedRecords(records, m_sampleType, kUnwindRegisters, m_pending);
    const uint32_t chunkBytes = uint32_t(m_pending.size() - chunkAt - 2 * sizeof(uint32_t));
    memcpy(m_pending.data() + chunkAt + sizeof(uint32_t), &chunkBytes, sizeof(chunkBytes));
    if (m_python) {
        m_python->addStacksOf(records, m_pending);
        for (std::string& sentence : m_python->takeWarnings())
            appendDiagnostic(std::move(sentence));
    }
    __atomic_store_n(&meta->data_tail, head, __ATOMIC_RELEASE);
}

void CpuRecorder::drainAll()
{
    for (RingBuffer& ring : m_rings)
        drain(ring);
    flushFile();
}

void CpuRecorder::run()
{
    std::vector<pollfd> fds;
    for (const RingBuffer& ring : m_rings)
        fds.push_back({ring.fd, POLLIN, 0});
    // Every 20 ms; every half sampling period (0.25 ms at least) while Python stacks are read
    // with their samples, so that a drain seldom brings two samples of one thread (only the
    // newest gets its Python stack).
    const timespec idle {0, 20'000'000};
    const timespec period {0, long(std::max(500'000'000ull / std::max(m_options.frequency, 1u), 250'000ull))};
    while (!m_stopping.load()) {
        ppoll(fds.data(), fds.size(), m_python && m_python->active() ? &period : &idle, nullptr);
        drainAll();
    }
}

void CpuRecorder::stop()
{
    if (m_stopped) return;
    m_stopped = true;
    for (RingBuffer& ring : m_rings) {
        ioctl(ring.fd, PERF_EVENT_IOC_DISABLE, 0);
        for (int fd : ring.followers)
            ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
    }
    m_stopping.store(true);
    if (m_reader.joinable()) m_reader.join();
    drainAll();
    for (RingBuffer& ring : m_rings) {
        munmap(ring.base, ring.mappedBytes);
        for (int fd : ring.followers)
            close(fd);
        close(ring.fd);
    }
    m_rings.clear();
    if (m_file >= 0) close(m_file);
    m_file = -1;
}

} // namespace sightline::collector
