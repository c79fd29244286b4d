// The one name of a track's thread or stream, shared by the timeline's rows, the event tooltip,
// the Events View and the CSV of events, so that a stream reads the same everywhere: "Stream 7",
// or "Stream 7 (default)" for the default (NULL) stream of its context; "python [1234]" for a
// named thread, "Thread 1234" for one without a name.
#pragma once

#include "model/trace/trace.h"

#include <string>

namespace sightline {

// The name of the stream of `key` (a GPU track's key: pid, device, context and stream).
std::string streamName(const Trace& trace, const TrackKey& key);

// The name of the thread of `key` (a host track's key).
std::string threadName(const Trace& trace, const TrackKey& key);

// Whether the track of `key` is a row of a stream: a GPU kind, or NVTX-style ranges placed on a
// stream (Kineto's gpu_user_annotation), which have a stream but no thread.
bool onStream(const TrackKey& key);

} // namespace sightline
