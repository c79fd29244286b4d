// Progress while the target runs: how many events its processes have written to their spool
// files so far. The counter reads only what was appended since the last look (record headers,
// not contents), so a look costs little however long the run. Used by `sightline profile` to
// print "Collecting data: 12.5 s, 34567 events so far" every SIGHTLINE_PROGRESS_INTERVAL
// seconds (the GUI's Profile dialog sets it and shows the count live).
#pragma once

#include <cstdint>
#include <map>
#include <string>

namespace sightline::collector {

class SpoolEventCounter
{
public:
    explicit SpoolEventCounter(std::string spoolDir)
        : m_spoolDir(std::move(spoolDir))
    { }

    // Events recorded so far in every spool file of the folder (one per range, call or GPU
    // operation: the closing record of a range is not counted).
    uint64_t count();

private:
    struct FileState
    {
        uint64_t offset = 0; // the next record header to read
        bool headerSkipped = false;
    };
    void scan(const std::string& path, FileState& state);

    std::string m_spoolDir;
    std::map<std::string, FileState> m_files;
    uint64_t m_events = 0;
};

} // namespace sightline::collector
