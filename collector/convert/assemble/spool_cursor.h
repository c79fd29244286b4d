// Follows a session's spool folder while the target writes it, so that the conversion can
// run as the recording grows: each advance() reads what is new (spool files that appeared,
// and the complete records appended to those already open; a record still being written is
// left for the next advance), and the report can be assembled from what was read at any point
// (assembleReport in spool_merge.h). mergeSpools is one advance at the end, then the assembly.
//
// What the cursor carries from one advance to the next is what the files hold: per file, the
// offset where its next record starts, its records split into chunks, its string and domain
// tables and its clock pairs (from which the session's clock map is made). The decoding into
// events, the pairing of NVTX ranges and the clock map itself are made at each assembly, from
// every record read so far: the clock map of a session is fitted through the pairs of all its
// files and the launcher's own, and the report's string and domain ids follow the processes'
// order, so a range paired or a time mapped early could come out other than in one pass.
// Assembling the records the cursor holds gives, byte for byte, the report of one pass over
// files cut where its reads stopped.
#pragma once

#include "collector/convert/decode/spool_reader.h"
#include "model/core/metadata.h"

#include <optional>
#include <string>
#include <vector>

namespace sightline::collector {

class SpoolCursor
{
public:
    explicit SpoolCursor(std::string folder, size_t chunkBytes = SpoolFile::kDefaultChunkBytes);

    // Reads what the folder's spool files hold beyond what was read; returns how many
    // records that was.
    size_t advance();

    // The files read, in the order of writing: by image (`<pid>.spool` before `<pid>.1.spool`),
    // then by name. Valid until the next advance.
    std::vector<const SpoolFile*> files() const;
    // A sentence for each spool file that could not be read at the last advance.
    std::vector<Diagnostic> problems() const;

private:
    struct Entry
    {
        std::string path;
        int image = 0;
        std::optional<SpoolFile> file; // once its header could be read
        std::string problem; // why the last read failed
    };
    void discover();

    std::string m_folder;
    size_t m_chunkBytes;
    std::vector<Entry> m_entries; // in the order of files()
};

} // namespace sightline::collector
