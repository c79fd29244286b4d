// The one name of a CUDA stream, shared by the timeline's stream row, the event tooltip and the
// Events View so that a stream reads the same everywhere: "Stream 7", or "Stream 7 (default)"
// for the default (NULL) stream of its context.
#pragma once

#include "model/trace/trace.h"

#include <QString>

namespace sightline::views {

// The name of the stream of `key` (a GPU track's key: pid, device, context and stream).
QString streamName(const Trace& trace, const TrackKey& key);

// Whether the track of `key` is a row of a stream: a GPU kind, or NVTX-style ranges placed on a
// stream (Kineto's gpu_user_annotation), which have a stream but no thread.
bool onStream(const TrackKey& key);

} // namespace sightline::views
