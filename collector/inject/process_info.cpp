#include "collector/inject/process_info.h"

#include <cstddef>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <sys/prctl.h>
#include <unistd.h>

extern char** environ;

namespace sightline::inject {

namespace {

// The text records written here share one layout: header, a 32-bit word, the text length.
struct TextPrefix
{
    spool::RecordHeader header;
    uint32_t word;
    uint32_t textBytes;
};
static_assert(sizeof(TextPrefix) == sizeof(spool::ProcessTextRecord));
static_assert(offsetof(spool::StringRecord, textBytes) == offsetof(TextPrefix, textBytes));
static_assert(offsetof(spool::ThreadNameRecord, textBytes) == offsetof(TextPrefix, textBytes));
static_assert(offsetof(spool::DiagnosticRecord, textBytes) == offsetof(TextPrefix, textBytes));
static_assert(offsetof(spool::NvtxDomainRecord, textBytes) == offsetof(TextPrefix, textBytes));

// Variables kept whatever the launcher asks: how a process finds its rank.
constexpr const char* kRankVariables[] = {"RANK", "LOCAL_RANK", "WORLD_SIZE", "OMPI_COMM_WORLD_RANK",
    "PMI_RANK", "SLURM_PROCID", "CUDA_VISIBLE_DEVICES"};

void writeProcessText(SpoolFile& file, spool::ProcessTextKind kind, const char* text, size_t length)
{
    writeTextRecord(file, spool::RecordType::ProcessText, uint32_t(kind), text,
        uint32_t(length < spool::kMaxTextBytes ? length : spool::kMaxTextBytes));
}

void writeCommandLine(SpoolFile& file)
{
    static char text[65536];
    const int fd = open("/proc/self/cmdline", O_RDONLY | O_CLOEXEC);
    if (fd < 0) return;
    size_t used = 0;
    for (ssize_t n; used < sizeof(text) && (n = read(fd, text + used, sizeof(text) - used)) > 0;)
        used += size_t(n);
    close(fd);
    for (size_t start = 0; start < used;) {
        const size_t length = strnlen(text + start, used - start);
        writeProcessText(file, spool::ProcessTextKind::CommandLineArg, text + start, length);
        start += length + 1;
    }
}

bool listed(const char* list, const char* name, size_t nameLength)
{
    for (const char* p = list; p && *p;) {
        const char* comma = strchr(p, ',');
        const size_t length = comma ? size_t(comma - p) : strlen(p);
        if (length == nameLength && strncmp(p, name, length) == 0) return true;
        p = comma ? comma + 1 : nullptr;
    }
    return false;
}

bool isRankVariable(const char* name, size_t length)
{
    for (const char* rank : kRankVariables)
        if (strlen(rank) == length && strncmp(rank, name, length) == 0) return true;
    return false;
}

void writeEnvironment(SpoolFile& file, const char* keepEnvList)
{
    for (char** entry = environ; entry && *entry; ++entry) {
        const char* equals = strchr(*entry, '=');
        if (!equals) continue;
        const size_t nameLength = size_t(equals - *entry);
        if (isRankVariable(*entry, nameLength) || listed(keepEnvList, *entry, nameLength))
            writeProcessText(file, spool::ProcessTextKind::Environment, *entry, strlen(*entry));
    }
}

} // namespace

void writeTextRecord(SpoolFile& file, spool::RecordType type, uint32_t firstWord, const char* text,
    uint32_t textBytes, uint32_t tid)
{
    unsigned char record[sizeof(TextPrefix) + spool::kMaxTextBytes + 8] = {};
    if (textBytes > spool::kMaxTextBytes) textBytes = spool::kMaxTextBytes;
    const uint32_t bytes = spool::paddedRecordBytes(sizeof(TextPrefix), textBytes);
    TextPrefix prefix {{type, uint16_t(bytes), tid}, firstWord, textBytes};
    memcpy(record, &prefix, sizeof(prefix));
    memcpy(record + sizeof(prefix), text, textBytes);
    file.append(record, bytes);
}

void writeClockSync(SpoolFile& file, const spool::ClockPair& pair)
{
    spool::ClockSyncRecord record {};
    record.header = {spool::RecordType::ClockSync, uint16_t(sizeof(record)), 0};
    record.ticks = pair.ticks;
    record.monotonicNs = pair.monotonicNs;
    record.realtimeNs = pair.realtimeNs;
    file.append(&record, sizeof(record));
}

void writeProcessInfo(SpoolFile& file, const char* keepEnvList)
{
    writeCommandLine(file);
    char path[4096];
    const ssize_t exeLength = readlink("/proc/self/exe", path, sizeof(path));
    if (exeLength > 0) writeProcessText(file, spool::ProcessTextKind::Executable, path, size_t(exeLength));
    if (getcwd(path, sizeof(path)))
        writeProcessText(file, spool::ProcessTextKind::WorkingDirectory, path, strlen(path));
    if (gethostname(path, sizeof(path)) == 0) {
        path[sizeof(path) - 1] = '\0';
        writeProcessText(file, spool::ProcessTextKind::Hostname, path, strlen(path));
    }
    // The main thread's name is the process's short name; a later prctl on another thread
    // would not change it.
    char comm[64] = {};
    const int fd = open("/proc/self/comm", O_RDONLY | O_CLOEXEC);
    if (fd >= 0) {
        const ssize_t n = read(fd, comm, sizeof(comm) - 1);
        close(fd);
        if (n > 0) writeProcessText(file, spool::ProcessTextKind::ProcessName, comm, strcspn(comm, "\n"));
    }
    writeEnvironment(file, keepEnvList);
}

} // namespace sightline::inject
