#include "views/events/event_query.h"

#include "model/events/radix_sort.h"
#include "views/events/event_sort_keys.h"

#include <QRegularExpression>
#include <algorithm>

namespace sightline::views {
namespace {

constexpr size_t kCancelCheckEvery = 1u << 20;

bool cancelled(const std::atomic<bool>* cancel)
{
    return cancel && cancel->load(std::memory_order_relaxed);
}

char foldAscii(char c)
{
    return c >= 'A' && c <= 'Z' ? char(c - 'A' + 'a') : c;
}

// Case-insensitive (for ASCII letters) substring search over UTF-8 bytes: no conversion per
// name, so a filter over a million distinct names stays in milliseconds.
bool containsCaseless(std::string_view text, const std::string& foldedNeedle)
{
    if (foldedNeedle.size() > text.size()) return false;
    const size_t last = text.size() - foldedNeedle.size();
    for (size_t at = 0; at <= last; ++at) {
        size_t k = 0;
        while (k < foldedNeedle.size() && foldAscii(text[at + k]) == foldedNeedle[k])
            ++k;
        if (k == foldedNeedle.size()) return true;
    }
    return false;
}

std::vector<EventRef> filtered(const EventCells& cells, std::span<const EventRef> base,
    const std::vector<uint8_t>& match, const std::atomic<bool>* cancel)
{
    std::vector<EventRef> rows;
    for (size_t p = 0; p < base.size(); ++p) {
        if (p % kCancelCheckEvery == 0 && cancelled(cancel)) return {};
        const EventRef row = base[p];
        if (match[cells.names().key(row)]) rows.push_back(row);
    }
    return rows;
}

} // namespace

NameMatches matchNames(const EventNames& names, const NameFilter& filter)
{
    NameMatches result;
    if (filter.regex) {
        const QRegularExpression expression(filter.pattern, QRegularExpression::CaseInsensitiveOption);
        if (!expression.isValid()) {
            result.error
                = QStringLiteral("The filter \"%1\" is not a valid regular expression (%2); fix it or "
                                 "untick Regex to match it as plain text.")
                      .arg(filter.pattern, expression.errorString());
            return result;
        }
        result.matches.resize(names.keyCount());
        for (uint32_t k = 0; k < names.keyCount(); ++k) {
            const std::string_view text = names.text(k);
            result.matches[k]
                = expression.match(QString::fromUtf8(text.data(), qsizetype(text.size()))).hasMatch() ? 1 : 0;
        }
        return result;
    }
    std::string needle = filter.pattern.toStdString();
    std::transform(needle.begin(), needle.end(), needle.begin(), foldAscii);
    result.matches.resize(names.keyCount());
    for (uint32_t k = 0; k < names.keyCount(); ++k)
        result.matches[k] = containsCaseless(names.text(k), needle) ? 1 : 0;
    return result;
}

QueryOutcome runEventQuery(const EventCells& cells, std::span<const EventRef> base, const EventQuery& query,
    const std::atomic<bool>* cancel)
{
    QueryOutcome outcome;
    std::vector<EventRef> rows;
    std::span<const EventRef> input = base;
    if (!query.filter.isEmpty()) {
        NameMatches names = matchNames(cells.names(), query.filter);
        if (!names.error.isEmpty()) {
            outcome.error = names.error;
            return outcome;
        }
        rows = filtered(cells, base, names.matches, cancel);
        input = rows;
    }
    if (cancelled(cancel)) {
        outcome.cancelled = true;
        return outcome;
    }

    // `base` is in start order already.
    if (query.sortColumn == EventColumn::Start && query.order == Qt::AscendingOrder) {
        outcome.rows = rows.empty() && query.filter.isEmpty()
            ? std::vector<EventRef>(base.begin(), base.end())
            : std::move(rows);
        return outcome;
    }

    SortKeys keys;
    if (!buildSortKeys(cells, input, query.sortColumn, keys, cancel)) {
        outcome.cancelled = true;
        return outcome;
    }
    // Descending order sorts complemented keys, so equal keys still keep start order.
    if (query.order == Qt::DescendingOrder)
        for (uint64_t& key : keys.keys)
            key = ~key;
    if (!radixSortByKey(keys.keys, keys.positions, cancel)) {
        outcome.cancelled = true;
        return outcome;
    }
    keys.keys = {};
    outcome.rows.reserve(input.size());
    for (uint32_t p : keys.positions)
        outcome.rows.push_back(input[p]);
    for (uint32_t p : keys.missing)
        outcome.rows.push_back(input[p]);
    return outcome;
}

} // namespace sightline::views
