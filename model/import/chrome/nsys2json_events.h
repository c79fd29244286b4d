// nsys2json, a script that turns an Nsight Systems SQLite export into Chrome trace JSON, writes a
// bare array of events whose rows are names, not numbers: pid "Device 0", and per kind of row a
// tid "CUDA API Thread 24129" (category "cuda_api": the CUDA runtime calls of host thread 24129,
// args.correlationId), "Stream 82" (category "cuda": the kernels of stream 82), "NVTX Kernel
// Thread 24129" (category "nvtx-kernel": the thread's NVTX ranges stretched over the kernels
// launched inside them, so ranges on the GPU) or "NVTX Thread 24129" (category "nvtx": the NVTX
// ranges on the thread). The file names no process: the device's number stands for it.
#pragma once

#include "model/import/chrome/kineto_event.h"
#include "model/import/chrome/kineto_mapping.h"

#include <optional>

namespace sightline {

// When `e` is an nsys2json event: the kind of Kineto event it stands for, with `out` a copy of
// `e` whose rows are numbers (pid the device; tid the host thread, none on the GPU) and whose
// GPU events carry their device (and a kernel its stream) as args.
std::optional<KinetoKind> readNsys2jsonEvent(const KinetoEvent& e, KinetoEvent& out);

} // namespace sightline
