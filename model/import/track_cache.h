// A hash-map front for TraceBuilder's track lookup, for importers that add millions of events
// whose rows arrive interleaved: one hash probe per event (a repeated row costs a compare)
// instead of an ordered-map search. It also remembers which host threads and which
// (process, device, context) triples own tracks, which importers need to name entities.
#pragma once

#include "model/construct/trace_builder.h"

#include <set>
#include <tuple>
#include <unordered_map>

namespace sightline {

class TrackCache
{
public:
    explicit TrackCache(TraceBuilder& builder)
        : m_builder(builder)
    { }

    TrackId host(TrackKind kind, Pid pid, Tid tid, DomainId domain = {})
    {
        return lookup({kind, pid.value, tid.value, domain.value, 0, 0, 0}, true);
    }
    TrackId gpu(TrackKind kind, Pid pid, DeviceId device, ContextId context, StreamId stream)
    {
        return lookup({kind, pid.value, 0, 0, device.value, context.value, stream.value}, false);
    }

    const std::set<std::pair<uint32_t, uint32_t>>& hostThreads() const { return m_hostThreads; }
    // (pid, device, context) of every GPU track.
    const std::set<std::tuple<uint32_t, uint32_t, uint32_t>>& gpuContexts() const { return m_gpuContexts; }

private:
    struct Key
    {
        TrackKind kind;
        uint32_t pid, tid, domain, device, context, stream;
        friend bool operator==(const Key&, const Key&) = default;
    };
    struct KeyHash
    {
        size_t operator()(const Key& k) const noexcept
        {
            uint64_t h = (uint64_t(k.kind) << 32 | k.pid) * 0x9E3779B97F4A7C15ull;
            for (uint32_t v : {k.tid, k.domain, k.device, k.context, k.stream})
                h = (h ^ v) * 0x100000001B3ull + (h >> 29);
            return size_t(h);
        }
    };

    TrackId lookup(const Key& key, bool host)
    {
        if (m_hasLast && key == m_lastKey) return m_lastTrack;
        auto [it, inserted] = m_tracks.try_emplace(key);
        if (inserted) {
            if (host) {
                it->second = m_builder.hostTrack(key.kind, Pid(key.pid), Tid(key.tid), DomainId(key.domain));
                m_hostThreads.insert({key.pid, key.tid});
            } else {
                it->second = m_builder.gpuTrack(key.kind, Pid(key.pid), DeviceId(key.device),
                    ContextId(key.context), StreamId(key.stream));
                m_gpuContexts.insert({key.pid, key.device, key.context});
            }
        }
        m_hasLast = true;
        m_lastKey = key;
        m_lastTrack = it->second;
        return m_lastTrack;
    }

    TraceBuilder& m_builder;
    std::unordered_map<Key, TrackId, KeyHash> m_tracks;
    bool m_hasLast = false;
    Key m_lastKey {};
    TrackId m_lastTrack;
    std::set<std::pair<uint32_t, uint32_t>> m_hostThreads;
    std::set<std::tuple<uint32_t, uint32_t, uint32_t>> m_gpuContexts;
};

} // namespace sightline
