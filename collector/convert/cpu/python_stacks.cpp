#include "collector/convert/cpu/python_stacks.h"

#include "collector/spool/python_stack_records.h"

#include <cstring>

namespace sightline::collector {

namespace records = spool::python_stacks;

bool readPythonChunk(std::string_view chunk, PerfRecording& out)
{
    size_t at = 0;
    while (at + 8 <= chunk.size()) {
        uint32_t head[2];
        memcpy(head, chunk.data() + at, sizeof(head));
        const uint32_t kind = head[0], bytes = head[1];
        if (bytes < 8 || bytes % 8 != 0 || bytes > chunk.size() - at) return false;
        const std::string_view entry = chunk.substr(at, bytes);
        at += bytes;
        if (kind == records::kCodeEntry) {
            records::CodeEntryHeader code;
            if (entry.size() < sizeof(code)) return false;
            memcpy(&code, entry.data(), sizeof(code));
            const size_t room = entry.size() - sizeof(code);
            if (code.nameBytes > room || code.fileBytes > room - code.nameBytes) return false;
            out.pythonCodes[code.id] = {entry.substr(sizeof(code), code.nameBytes),
                entry.substr(sizeof(code) + code.nameBytes, code.fileBytes), code.firstLine};
        } else if (kind == records::kStackEntry) {
            records::StackEntryHeader stack;
            if (entry.size() < sizeof(stack)) return false;
            memcpy(&stack, entry.data(), sizeof(stack));
            if (stack.frameCount > (entry.size() - sizeof(stack)) / sizeof(uint32_t)) return false;
            // Entries are 8-byte aligned in the mapped file, so their frames are 4-byte aligned.
            const auto* frames = reinterpret_cast<const uint32_t*>(entry.data() + sizeof(stack));
            out.pythonStacks.push_back({stack.sampleTime, stack.pid, stack.tid, {frames, stack.frameCount}});
        }
    }
    return at == chunk.size();
}

PythonFrameMerger::PythonFrameMerger(const PerfRecording& recording)
{
    for (const PythonStack& stack : recording.pythonStacks)
        m_stacks[{stack.tid, stack.time}] = &stack;
}

const PythonStack* PythonFrameMerger::stackOf(const PerfSample& sample) const
{
    if (m_stacks.empty()) return nullptr;
    auto it = m_stacks.find({sample.tid, sample.time});
    return it == m_stacks.end() ? nullptr : it->second;
}

bool PythonFrameMerger::merge(std::span<const uint64_t> native, bool whole, const PythonStack& python,
    const std::function<bool(uint64_t)>& isInterpreterLoop, std::vector<MergedFrame>& out)
{
    out.clear();
    size_t next = 0; // the first Python frame not placed yet
    // The next run: up to and including its entry frame (or the chain's end).
    auto placeRun = [&] {
        while (next < python.frames.size()) {
            const uint32_t frame = python.frames[next++];
            if ((frame & ~records::kEntryFrameBit) != 0)
                out.push_back({true, frame & ~records::kEntryFrameBit});
            if (frame & records::kEntryFrameBit) return;
        }
    };
    bool fits = true;
    for (uint64_t ip : native) {
        if (!isInterpreterLoop(ip)) {
            out.push_back({false, ip});
            continue;
        }
        if (next == python.frames.size()) {
            fits = false; // more interpreter calls than runs: the thread had moved on
            break;
        }
        placeRun();
    }
    if (fits && next < python.frames.size()) {
        if (whole)
            fits = false; // runs left over on a whole stack
        else
            while (next < python.frames.size())
                placeRun();
    }
    if (fits) return true;
    out.clear();
    for (uint64_t ip : native)
        out.push_back({false, ip});
    return false;
}

} // namespace sightline::collector
