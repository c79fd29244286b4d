// Typed identifiers for the model. Each id kind is its own type, so a StreamId cannot be
// passed where a ThreadId (Tid) is expected; all are trivially copyable 32-bit values so
// they can live in columnar arrays at no cost.
#pragma once

// <functional> before <compare>: Qt's moc, which reads the headers that widgets include,
// fails on <compare> ("Parse error at std") when it comes first.
// clang-format off
#include <functional>
#include <compare>
#include <cstdint>
// clang-format on

namespace sightline {

template <class Tag, class Rep = uint32_t> struct TypedId
{
    using ValueType = Rep;
    Rep value {};

    constexpr TypedId() = default;
    constexpr explicit TypedId(Rep v)
        : value(v)
    { }
    friend constexpr auto operator<=>(TypedId, TypedId) = default;
};

using StringId = TypedId<struct StringTag>; // index into Trace::strings
using TrackId = TypedId<struct TrackTag>; // index into Trace::tracks
using Pid = TypedId<struct PidTag>; // OS process id
using Tid = TypedId<struct TidTag>; // OS thread id
using DeviceId = TypedId<struct DeviceTag>; // CUDA device ordinal
using ContextId = TypedId<struct ContextTag>; // CUDA context id (CUPTI contextId)
using StreamId = TypedId<struct StreamTag>; // CUDA stream id (CUPTI streamId)
using DomainId = TypedId<struct DomainTag>; // NVTX domain; 0 is the default domain
using CorrelationId = TypedId<struct CorrelationTag>; // CUPTI correlation id; 0 means none
// The recording a trace's entities come from (model/open/source_identity.h); 0: none named
// (a trace built or read without one). Never stored in a report.
using SourceId = TypedId<struct SourceTag>;

} // namespace sightline

template <class Tag, class Rep> struct std::hash<sightline::TypedId<Tag, Rep>>
{
    size_t operator()(sightline::TypedId<Tag, Rep> id) const noexcept { return std::hash<Rep> {}(id.value); }
};
