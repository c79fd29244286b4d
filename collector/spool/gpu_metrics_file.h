// The GPU metrics file: what the sampler (collector/sampler, one process beside the target)
// writes into the spool folder for each GPU it samples, and the conversion reads back
// (collector/convert/decode/gpu_metrics_reader.cpp). Little-endian, in this order:
//
//   file header  "SLGPUMET", u32 version, u32 reserved
//   records      u32 type, u32 payload bytes, payload:
//     Device      u32 device ordinal, then NUL-terminated strings: name, UUID ("GPU-..."), chip
//     Series      f64 resolution, then NUL-terminated strings: name, unit, description
//                 (series are numbered in the order their records come)
//     Samples     u32 series count S, u32 sample count N, then N x (i64 start, i64 end) on
//                 CLOCK_MONOTONIC in nanoseconds, then S x N f64 values, series by series
//     Diagnostic  u32 severity (0 info, 1 warning, 2 error), then the sentence (not terminated)
//
// Records are appended as the sampler decodes, so a file cut short (the sampler killed) keeps
// every complete record; the reader stops at the first incomplete one.
#pragma once

#include <cstdint>
#include <string_view>

namespace sightline::spool::gpu_metrics {

constexpr std::string_view kMagic {"SLGPUMET", 8};
constexpr uint32_t kVersion = 1;
constexpr size_t kFileHeaderBytes = 16;
constexpr size_t kRecordHeaderBytes = 8;
constexpr const char* kFilePrefix = "gpu-metrics-"; // then the device ordinal and kFileSuffix
constexpr const char* kFileSuffix = ".smp";

enum class RecordType : uint32_t { Device = 1, Series = 2, Samples = 3, Diagnostic = 4 };

} // namespace sightline::spool::gpu_metrics
