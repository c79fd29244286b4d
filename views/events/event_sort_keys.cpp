#include "views/events/event_sort_keys.h"

#include "model/common/huge_pages.h"
#include "model/events/radix_sort.h"

#include <QCollator>
#include <algorithm>
#include <numeric>

namespace sightline::views {
namespace {

constexpr size_t kCancelCheckEvery = 1u << 20;

unsigned char folded(char c)
{
    const auto u = static_cast<unsigned char>(c);
    return u >= 'A' && u <= 'Z' ? static_cast<unsigned char>(u - 'A' + 'a') : u;
}

// Case-insensitive byte order, then plain byte order so that the order is total.
bool caselessLess(std::string_view a, std::string_view b)
{
    const size_t n = std::min(a.size(), b.size());
    for (size_t i = 0; i < n; ++i)
        if (folded(a[i]) != folded(b[i])) return folded(a[i]) < folded(b[i]);
    if (a.size() != b.size()) return a.size() < b.size();
    return a < b;
}

// The rank of every name key used by `rows`, in caseless name order; equal names share a rank.
std::vector<uint32_t> nameRanks(const EventNames& names, std::span<const EventRef> rows)
{
    std::vector<uint8_t> used(names.keyCount(), 0);
    for (const EventRef& row : rows)
        used[names.key(row)] = 1;
    std::vector<uint32_t> keys;
    for (uint32_t k = 0; k < used.size(); ++k)
        if (used[k]) keys.push_back(k);
    std::sort(keys.begin(), keys.end(),
        [&](uint32_t a, uint32_t b) { return caselessLess(names.text(a), names.text(b)); });
    std::vector<uint32_t> rank(names.keyCount(), 0);
    uint32_t next = 0;
    for (size_t i = 0; i < keys.size(); ++i) {
        if (i > 0 && names.text(keys[i]) != names.text(keys[i - 1])) ++next;
        rank[keys[i]] = next;
    }
    return rank;
}

// The rank of a per-descriptor text, by descriptor id.
template <class Descriptor, class TextOf>
std::vector<uint32_t> descriptorRanks(const std::vector<Descriptor>& table, TextOf&& textOf)
{
    std::vector<QString> texts;
    texts.reserve(table.size());
    for (const Descriptor& d : table)
        texts.push_back(textOf(d));
    return naturalRanks(texts);
}

uint64_t volume(const std::array<uint32_t, 3>& d)
{
    return uint64_t(d[0]) * d[1] * d[2];
}

// Walks the rows, asking `keyOf(track, index, row)` for each event's key and `sampleKeyOf(row)`
// for each counter sample's (event_names.h), or no value.
template <class SampleKeyOf, class KeyOf>
bool collect(const Trace& trace, std::span<const EventRef> rows, SortKeys& out,
    const std::atomic<bool>* cancel, SampleKeyOf&& sampleKeyOf, KeyOf&& keyOf)
{
    out.keys.clear();
    out.positions.clear();
    out.missing.clear();
    reserveColumn(out.keys, rows.size());
    reserveColumn(out.positions, rows.size());
    for (size_t p = 0; p < rows.size(); ++p) {
        if (p % kCancelCheckEvery == 0 && cancel && cancel->load(std::memory_order_relaxed)) return false;
        const EventRef row = rows[p];
        const std::optional<uint64_t> key
            = counterSeriesOf(trace, row) ? sampleKeyOf(row) : keyOf(trace.track(row.track), row.index, row);
        if (key) {
            out.keys.push_back(*key);
            out.positions.push_back(uint32_t(p));
        } else {
            out.missing.push_back(uint32_t(p));
        }
    }
    return true;
}

} // namespace

std::vector<uint32_t> naturalRanks(const std::vector<QString>& texts)
{
    QCollator collator(QLocale(QLocale::English, QLocale::UnitedStates));
    collator.setNumericMode(true);
    collator.setCaseSensitivity(Qt::CaseInsensitive);
    std::vector<uint32_t> order(texts.size());
    std::iota(order.begin(), order.end(), 0u);
    std::stable_sort(order.begin(), order.end(),
        [&](uint32_t a, uint32_t b) { return collator.compare(texts[a], texts[b]) < 0; });
    std::vector<uint32_t> rank(texts.size(), 0);
    uint32_t next = 0;
    for (size_t i = 0; i < order.size(); ++i) {
        if (i > 0 && collator.compare(texts[order[i]], texts[order[i - 1]]) != 0) ++next;
        rank[order[i]] = next;
    }
    return rank;
}

bool buildSortKeys(const EventCells& cells, std::span<const EventRef> rows, EventColumn column, SortKeys& out,
    const std::atomic<bool>* cancel)
{
    const Trace& trace = cells.trace();
    using Key = std::optional<uint64_t>;
    auto detailOf
        = [](const Track& t, uint32_t i) { return t.events.detail.empty() ? ~0u : t.events.detail[i]; };
    const std::vector<uint32_t> nameRank
        = column == EventColumn::Name ? nameRanks(cells.names(), rows) : std::vector<uint32_t> {};
    // Counter samples have a name, times and a value.
    auto sampleKeyOf = [&](EventRef row) -> Key {
        if (column == EventColumn::Name) return nameRank[cells.names().key(row)];
        if (column == EventColumn::Value) {
            if (const auto value = cells.sampleValue(row)) return orderedKey(*value);
            return std::nullopt;
        }
        if (const auto value = cells.number(row, column)) return orderedKey(*value);
        return std::nullopt;
    };
    auto collectKeys = [&](auto&& keyOf) { return collect(trace, rows, out, cancel, sampleKeyOf, keyOf); };

    switch (column) {
    case EventColumn::Name:
        return collectKeys(
            [&](const Track& t, uint32_t i, EventRef) -> Key { return nameRank[cells.names().key(t, i)]; });
    case EventColumn::Start:
        return collectKeys(
            [](const Track& t, uint32_t i, EventRef) -> Key { return orderedKey(t.events.start[i]); });
    case EventColumn::End:
        return collectKeys(
            [](const Track& t, uint32_t i, EventRef) -> Key { return orderedKey(t.events.end[i]); });
    case EventColumn::Duration:
        return collectKeys(
            [](const Track& t, uint32_t i, EventRef) -> Key { return orderedKey(t.duration(i)); });
    case EventColumn::ThreadOrStream:
    case EventColumn::DeviceContext: {
        std::vector<QString> labels;
        for (uint32_t t = 0; t < trace.tracks.size(); ++t)
            labels.push_back(
                toQString(column == EventColumn::ThreadOrStream ? cells.threadOrStreamLabel(TrackId(t))
                                                                : cells.deviceContextLabel(TrackId(t))));
        const std::vector<uint32_t> rank = naturalRanks(labels);
        return collectKeys([&](const Track& t, uint32_t, EventRef row) -> Key {
            if (!columnApplies(column, t.key.kind)) return std::nullopt;
            return rank[row.track.value];
        });
    }
    case EventColumn::Grid:
    case EventColumn::Block:
        return collectKeys([&](const Track& t, uint32_t i, EventRef) -> Key {
            const uint32_t d = detailOf(t, i);
            if (t.key.kind != TrackKind::Kernels || d >= trace.kernelLaunches.size()) return std::nullopt;
            const KernelLaunch& k = trace.kernelLaunches[d];
            return volume(column == EventColumn::Grid ? k.grid : k.block);
        });
    case EventColumn::Throughput:
        return collectKeys([&](const Track&, uint32_t, EventRef row) -> Key {
            if (auto rate = cells.throughput(row)) return orderedKey(*rate);
            return std::nullopt;
        });
    case EventColumn::CopyKind:
    case EventColumn::MemoryKinds: {
        const std::vector<uint32_t> rank
            = descriptorRanks(trace.memoryOps, [&](const MemoryOp& op) -> QString {
                  if (column == EventColumn::MemoryKinds)
                      return toQString(label(op.srcKind)) + toQString(label(op.dstKind));
                  return op.kind == MemoryOpKind::Memset ? QStringLiteral("Memset")
                                                         : toQString(shortLabel(op.copyKind));
              });
        return collectKeys([&](const Track& t, uint32_t i, EventRef) -> Key {
            const uint32_t d = detailOf(t, i);
            if (t.key.kind != TrackKind::Memory || d >= rank.size()) return std::nullopt;
            return rank[d];
        });
    }
    case EventColumn::Domain: {
        const std::vector<uint32_t> rank = descriptorRanks(trace.nvtxAttributes,
            [&](const NvtxAttributes& a) { return toQString(trace.domainName(a.domain)); });
        return collectKeys([&](const Track& t, uint32_t i, EventRef) -> Key {
            const uint32_t d = detailOf(t, i);
            if (t.key.kind != TrackKind::Nvtx || d >= rank.size()) return std::nullopt;
            return rank[d];
        });
    }
    default:
        return collectKeys([&](const Track&, uint32_t, EventRef row) -> Key {
            if (auto value = cells.number(row, column)) return orderedKey(*value);
            return std::nullopt;
        });
    }
}

} // namespace sightline::views
