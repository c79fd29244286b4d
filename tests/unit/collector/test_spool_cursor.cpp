// A SpoolCursor follows spool files while they grow on disk, written a few bytes at a time and
// cut anywhere, mid-record and mid-header included: after every advance it has read exactly
// the complete records each file holds, a report assembled then is the one a single pass over
// the folder as it stands gives, byte for byte (a snapshot of a recording under way is a
// report of its prefix), and once the files are whole the report is mergeSpools'. Recordings:
// a real one (`sightline profile` on the test program, spool kept) and a synthetic session of
// three processes, one of which execs, on a TSC whose rate drifts, so that the clock map the
// cursor's pairs make changes with every advance.
#include "../../test_paths.h"
#include "../support/run_command.h"
#include "collector/convert/assemble/spool_merge.h"
#include "collector/launcher/profile_options.h"
#include "collector/spool/os_functions.h"
#include "collector_test_support.h"
#include "model/format/report_io.h"

#include <catch2/catch.hpp>
#include <fstream>
#include <iterator>
#include <map>
#include <random>

using namespace sightline;
using namespace sightline::test;
using collector::SessionInfo;
using collector::SpoolCursor;

namespace {

std::string fileText(const std::filesystem::path& path)
{
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

std::string reportBytes(const Trace& trace, const std::filesystem::path& path)
{
    REQUIRE(writeReport(trace, path.string()).ok());
    return fileText(path);
}

// A spool folder written a step at a time: at step k, file i holds its first
// (k - firstStep[i]) * stepBytes[i] bytes (none before its first step; at that step it exists
// but is empty). The steps are odd numbers of bytes, so the cuts fall anywhere in records.
class GrowingFolder
{
public:
    struct File
    {
        std::string name;
        std::string bytes;
        int firstStep = 0;
        size_t stepBytes = 1;
    };
    GrowingFolder(std::filesystem::path dir, std::vector<File> files)
        : m_dir(std::move(dir))
        , m_files(std::move(files))
    {
        std::filesystem::remove_all(m_dir);
        std::filesystem::create_directories(m_dir);
    }

    // Appends each file's next piece; false once every file is whole.
    bool step()
    {
        bool grew = false;
        for (File& f : m_files) {
            if (m_step < f.firstStep) {
                grew = true;
                continue;
            }
            const size_t had = lengthAt(f, m_step - 1), has = lengthAt(f, m_step);
            std::ofstream(m_dir / f.name, std::ios::binary | std::ios::app)
                .write(f.bytes.data() + had, std::streamsize(has - had));
            grew = grew || has < f.bytes.size();
        }
        ++m_step;
        return grew;
    }
    const std::vector<File>& files() const { return m_files; }

private:
    static size_t lengthAt(const File& f, int step)
    {
        return step < f.firstStep ? 0 : std::min(f.bytes.size(), size_t(step - f.firstStep) * f.stepBytes);
    }

    std::filesystem::path m_dir;
    std::vector<File> m_files;
    int m_step = 0;
};

// Where the records of a whole spool file end, walked from its header.
std::vector<size_t> recordEnds(const std::string& bytes)
{
    spool::FileHeader header {};
    std::memcpy(&header, bytes.data(), sizeof(header));
    std::vector<size_t> ends;
    for (size_t at = header.headerBytes; at < bytes.size();) {
        spool::RecordHeader record {};
        std::memcpy(&record, bytes.data() + at, sizeof(record));
        at += record.bytes;
        ends.push_back(at);
    }
    return ends;
}

// The cursor holds every complete record of each file as it is on disk, and not one more.
void checkReadUpToLastCompleteRecord(const SpoolCursor& cursor, const GrowingFolder& folder)
{
    for (const collector::SpoolFile* file : cursor.files()) {
        const auto whole = std::find_if(folder.files().begin(), folder.files().end(),
            [&](const auto& f) { return std::filesystem::path(file->path).filename() == f.name; });
        REQUIRE(whole != folder.files().end());
        const size_t onDisk = std::filesystem::file_size(file->path);
        const std::vector<size_t> ends = recordEnds(whole->bytes);
        const size_t complete = size_t(std::upper_bound(ends.begin(), ends.end(), onDisk) - ends.begin());
        INFO(whole->name << " holding " << onDisk << " of " << whole->bytes.size() << " bytes");
        CHECK(file->recordCount() == complete);
        CHECK(file->bytesRead() == (complete > 0 ? ends[complete - 1] : size_t(file->header.headerBytes)));
        CHECK(file->truncated == (file->bytesRead() != onDisk));
    }
}

// Grows the folder step by step, advancing a cursor after each step; every `snapshotEvery`
// steps the cursor's report is compared with a single pass over the folder as it stands.
// Returns how many snapshots were compared.
int followGrowth(
    GrowingFolder& folder, SessionInfo session, int snapshotEvery, const std::filesystem::path& scratch)
{
    SpoolCursor cursor(session.spoolDir);
    int steps = 0, snapshots = 0;
    size_t lastEvents = 0;
    for (bool growing = true; growing; ++steps) {
        growing = folder.step();
        cursor.advance();
        checkReadUpToLastCompleteRecord(cursor, folder);
        if (steps % snapshotEvery != 0) continue;
        INFO("snapshot after step " << steps);
        const Trace snapshot = collector::assembleReport(cursor, session).trace;
        CHECK(snapshot.eventCount() >= lastEvents); // ranges still open are closed at the end
        lastEvents = snapshot.eventCount();
        CHECK(reportBytes(snapshot, scratch / "snapshot.rep")
            == reportBytes(collector::mergeSpools(session).trace, scratch / "one-pass-prefix.rep"));
        ++snapshots;
    }
    INFO(steps << " steps");
    CHECK(steps > 20);
    const collector::MergedReport followed = collector::assembleReport(cursor, session);
    const collector::MergedReport onePass = collector::mergeSpools(session);
    CHECK(followed.events == onePass.events);
    CHECK(followed.events > 0);
    CHECK(reportBytes(followed.trace, scratch / "followed.rep")
        == reportBytes(onePass.trace, scratch / "one-pass.rep"));
    return snapshots;
}

// ticks = 3 * ns + ns^2 / 2^26 + 1000: a TSC whose rate drifts, so each segment between two clock
// pairs maps ticks with its own slope.
uint64_t driftingTicks(int64_t ns)
{
    return uint64_t(3 * ns + (ns * ns >> 26) + 1000);
}

// One process image as the writer lays it out: blocks of records from two threads, each block
// followed by a clock pair; plain pushes popped some blocks later (some never), start/end
// ranges ended on the other thread, OS calls above and below the threshold, thread names and
// strings registered where they are first used.
SpoolBuilder driftingProcess(uint32_t pid, uint32_t image, int64_t& now, std::mt19937& random)
{
    SpoolBuilder spool(pid, spool::TickSource::Tsc);
    spool.addProcessText(spool::ProcessTextKind::CommandLineArg, image == 0 ? "./app" : "./app-exec");
    std::vector<int> depth(2, 0);
    std::vector<uint64_t> open;
    for (int block = 0; block < 40; ++block) {
        const uint32_t tid = pid + uint32_t(random() % 2);
        if (block % 10 == 3) spool.addString(uint32_t(block), "registered " + std::to_string(block + image));
        for (int n = 0; n < 6; ++n) {
            now += 20 + int64_t(random() % 400);
            const uint32_t pick = random() % 6;
            if (pick == 0 || (pick == 1 && depth[tid - pid] == 0)) {
                spool::NvtxPushPlainRecord push {};
                push.ticks = driftingTicks(now);
                spool.add(spool::RecordType::NvtxPushPlain, push, block % 2 ? "step" : "forward", tid);
                ++depth[tid - pid];
            } else if (pick == 1) {
                spool::NvtxPopPlainRecord pop {};
                pop.ticks = driftingTicks(now);
                spool.add(spool::RecordType::NvtxPopPlain, pop, {}, tid);
                --depth[tid - pid];
            } else if (pick == 2 || (pick == 3 && open.empty())) {
                spool::NvtxStartRecord start {};
                start.ticks = driftingTicks(now);
                start.rangeId = uint64_t(block * 10 + n) + 1;
                start.fields.messageKind = spool::NvtxMessageKind::Registered;
                start.fields.registeredId = uint32_t(block / 10 * 10 + 3);
                spool.add(spool::RecordType::NvtxStart, start, {}, tid);
                open.push_back(start.rangeId);
            } else if (pick == 3) {
                spool::NvtxEndRecord end {};
                end.ticks = driftingTicks(now);
                end.rangeId = open.front();
                open.erase(open.begin());
                spool.add(spool::RecordType::NvtxEnd, end, {}, tid);
            } else {
                spool::OsCallRecord call {};
                call.startTicks = driftingTicks(now);
                call.endTicks = driftingTicks(now += (pick == 4 ? 300 : 3000));
                call.function = uint16_t(spool::OsFunction::read);
                spool.add(spool::RecordType::OsCall, call, {}, tid);
            }
        }
        if (block == 25) {
            spool::ThreadNameRecord name {};
            name.source = spool::ThreadNameSource::Os, name.textBytes = 6;
            spool.add(spool::RecordType::ThreadName, name, "loader", pid + 1);
        }
        spool.addClockSync(driftingTicks(now), now);
    }
    return spool;
}

std::string text(const SpoolBuilder& spool)
{
    return {spool.bytes().begin(), spool.bytes().end()};
}

} // namespace

TEST_CASE("a real recording followed as it grows gives the report of one pass at every step")
{
    const auto dir = scratchDir("collector-spool-cursor-real");
    const CommandResult run = runCommand("SIGHTLINE_KEEP_SPOOL=1 TMPDIR=" + shellQuote(dir.string()) + " "
        + profileCommand() + " --trace=nvtx,osrt -o " + shellQuote((dir / "run.rep").string()) + " "
        + shellQuote(COLLECTOR_TARGET) + " nvtx-osrt " + shellQuote(dir.string()));
    INFO(run.err);
    REQUIRE(run.exitCode == 7); // the test program's own exit code
    std::vector<GrowingFolder::File> files;
    for (const auto& entry : std::filesystem::recursive_directory_iterator(dir))
        if (entry.path().extension() == spool::kFileSuffix)
            files.push_back(
                {entry.path().filename().string(), fileText(entry.path()), int(files.size()) * 5, 13});
    REQUIRE(!files.empty());
    REQUIRE(files.front().bytes.size() > 1000);

    // The session as the launcher saw it, from the target's clock pairs.
    std::ofstream(dir / "whole.spool", std::ios::binary) << files.front().bytes;
    const auto read = collector::readSpoolFile((dir / "whole.spool").string());
    REQUIRE(read);
    REQUIRE(read->clockPairs().size() >= 2);
    const spool::ClockSyncRecord& first = *read->clockPairs().front();
    const spool::ClockSyncRecord& last = *read->clockPairs().back();
    SessionInfo session;
    session.spoolDir = (dir / "growing").string();
    session.launcherTicks = read->header.tickSource;
    session.start = {first.ticks, first.monotonicNs, 1'700'000'000'000'000'000};
    session.end = {last.ticks, last.monotonicNs, 0};
    session.targetPid = read->header.pid;
    session.command = {"collector_target"};
    session.options = collector::ProfileOptions().conversion();
    session.queryHost = false;

    GrowingFolder folder(session.spoolDir, files);
    CHECK(followGrowth(folder, session, 7, dir) > 10);
}

TEST_CASE("three processes, one exec'ing, followed as they grow give the report of one pass")
{
    const auto dir = scratchDir("collector-spool-cursor-synthetic");
    std::mt19937 random(2024);
    int64_t now = 1000;
    const std::string parent = text(driftingProcess(500, 0, now, random));
    const std::string exec = text(driftingProcess(500, 1, now, random));
    const std::string child = text(driftingProcess(600, 0, now, random));
    const std::string cuda = text(cudaRecording(700, 3000));
    GrowingFolder folder(dir / "growing",
        {{"500.spool", parent, 0, 301}, {"600.spool", child, 4, 517}, {"500.1.spool", exec, 9, 389},
            {"700.spool", cuda, 2, 4099}});

    SessionInfo session;
    session.spoolDir = (dir / "growing").string();
    session.launcherTicks = spool::TickSource::Tsc;
    session.start = {driftingTicks(0), 0, 1'700'000'000'000'000'000};
    session.end = {driftingTicks(now + 1000), now + 1000, 0};
    session.targetPid = 500;
    session.command = {"./app"};
    session.options = collector::ProfileOptions().conversion();
    session.queryHost = false;
    CHECK(followGrowth(folder, session, 3, dir) > 5);
}

TEST_CASE("a cursor on a folder that is missing or holds no spool yet assembles an empty report")
{
    const auto dir = scratchDir("collector-spool-cursor-empty");
    SessionInfo session;
    session.spoolDir = (dir / "not-there").string();
    session.targetPid = 42;
    session.command = {"./app"};
    session.queryHost = false;
    SpoolCursor cursor(session.spoolDir);
    CHECK(cursor.advance() == 0);
    CHECK(cursor.files().empty());
    const Trace trace = collector::assembleReport(cursor, session).trace;
    CHECK(trace.eventCount() == 0);
    REQUIRE(trace.processes.size() == 1);
    CHECK(trace.processes.front().pid == Pid(42));
}

TEST_CASE("a snapshot assembled before the launcher knows the command names the target without one")
{
    // A live viewer may assemble before the session's command line is known.
    const auto dir = scratchDir("collector-spool-cursor-no-command");
    SessionInfo session;
    session.spoolDir = dir.string();
    session.targetPid = 7;
    session.queryHost = false;
    SpoolCursor cursor(session.spoolDir);
    cursor.advance();
    const Trace trace = collector::assembleReport(cursor, session).trace;
    REQUIRE(trace.processes.size() == 1);
    CHECK(trace.processes.front().pid == Pid(7));
    CHECK(trace.processes.front().name.empty());
    CHECK(trace.processes.front().commandLine.empty());
}
