// How an event looks on the canvas: its fill colour and the short label written inside its
// box. Kernels are blues (shades vary by name so neighbours stay apart), memory operations are
// coloured by kind (HtoD, DtoH, DtoD, peer, other copies and memset each distinct), NVTX ranges
// use their own ARGB colour (or a pastel picked from the name), API and OS runtime calls have
// their own hues; thread states and CPU samples have theirs. Colours follow the platform
// palette: muted on a dark background.
// Labels are built once per distinct name or descriptor and cached.
#pragma once

#include "model/trace/trace.h"

#include <QColor>
#include <QPalette>
#include <QString>
#include <unordered_map>
#include <vector>

namespace sightline::views {

struct CanvasColors
{
    QRgb background = 0;
    QRgb alternateRow = 0;
    QRgb separator = 0;
    QRgb groupRow = 0;
    QRgb text = 0;
    QRgb highlight = 0; // the selected event and its correlated events (teal)
    QRgb selectionFill = 0; // the dragged time range
    QRgb selectionEdge = 0;
    bool dark = false;
};

CanvasColors canvasColors(const QPalette& palette);

class EventStyle
{
public:
    EventStyle(const Trace& trace, bool dark);

    QRgb color(const Track& track, uint32_t index) const;
    QRgb color(EventRef event) const { return color(m_trace.track(event.track), event.index); }
    // A counter series' graph: activity shares green, DRAM traffic amber, PCIe blue, tensor pipes
    // purple, memory in use teal, CPU utilization indigo.
    static QRgb counterColor(const CounterSeries& series);
    // A thread state's stretch of the CPU strip, as Nsight Systems colours them: Running green,
    // Runnable yellow-green, Sleeping light blue, Blocked red, Waiting on I/O purple, Waiting
    // light grey.
    QRgb threadStateColor(ThreadState state) const;
    // A CPU sample's tick: dark grey (light grey on a dark background), or a strong magenta
    // when it is highlighted.
    QRgb sampleTickColor(bool highlighted) const;
    // Black or white, whichever reads better on `fill`.
    static QRgb textColorOn(QRgb fill);

    // The text written inside the event's box ("gemm_kernel", "Memcpy HtoD (Pinned -> Device)").
    const QString& label(const Track& track, uint32_t index) const;
    const QString& label(EventRef event) const { return label(m_trace.track(event.track), event.index); }
    // The full name, as Find matches it and tooltips title it.
    QString fullName(EventRef event) const;

    // Legend colours for a memory operation kind and for kernels (tests and legends).
    QRgb memoryColor(const MemoryOp& op) const;
    QRgb kernelColor(StringId name) const;

private:
    QRgb adjusted(QRgb rgb) const;
    const QString& stringLabel(StringId id) const;

    const Trace& m_trace;
    bool m_dark = false;
    std::vector<QRgb> m_memoryColors; // by MemoryOp id
    std::vector<QRgb> m_nvtxColors; // by NvtxAttributes id; 0: pick from the name
    std::vector<QString> m_memoryLabels; // by MemoryOp id
    std::vector<QString> m_syncLabels; // by SyncOp id
    mutable std::unordered_map<uint32_t, QString> m_stringLabels; // by StringId, filled on first use
};

} // namespace sightline::views
