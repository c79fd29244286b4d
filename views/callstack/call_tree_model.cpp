#include "views/callstack/call_tree_model.h"

#include <QLocale>

namespace sightline::views {
namespace {

const QLocale& englishLocale()
{
    static const QLocale locale(QLocale::English, QLocale::UnitedStates);
    return locale;
}

QString text(std::string_view s)
{
    return QString::fromUtf8(s.data(), qsizetype(s.size()));
}

} // namespace

QString functionText(const Trace& trace, const CallFunction& function)
{
    return text(functionName(trace, function));
}

QString moduleText(const Trace& trace, const CallFunction& function)
{
    return text(moduleName(trace, function));
}

QString sampleCountText(int64_t count)
{
    return englishLocale().toString(qlonglong(count));
}

QString percentText(double percent)
{
    return englishLocale().toString(percent, 'f', 1) + QStringLiteral(" %");
}

CallTreeModel::CallTreeModel(CallTreeKind kind, QObject* parent)
    : QAbstractItemModel(parent)
    , m_kind(kind)
{ }

void CallTreeModel::setTrees(std::shared_ptr<const Trace> trace, std::shared_ptr<const CallTrees> trees)
{
    beginResetModel();
    m_trace = std::move(trace);
    m_trees = m_trace ? std::move(trees) : nullptr;
    endResetModel();
}

const CallTree* CallTreeModel::tree() const
{
    if (!m_trees) return nullptr;
    return m_kind == CallTreeKind::TopDown ? &m_trees->topDown
        : m_kind == CallTreeKind::BottomUp ? &m_trees->bottomUp
                                           : nullptr;
}

QModelIndex CallTreeModel::index(int row, int column, const QModelIndex& parent) const
{
    if (row < 0 || column < 0 || column >= kColumnCount || row >= rowCount(parent)) return {};
    if (!tree()) return createIndex(row, column, quintptr(row));
    const uint32_t node
        = parent.isValid() ? tree()->nodes[parent.internalId()].firstChild + uint32_t(row) : uint32_t(row);
    return createIndex(row, column, quintptr(node));
}

QModelIndex CallTreeModel::parent(const QModelIndex& child) const
{
    const CallTree* t = tree();
    if (!t || !child.isValid()) return {};
    const uint32_t parent = t->nodes[child.internalId()].parent;
    if (parent == kNoCallNode) return {};
    return createIndex(int(t->row(parent)), 0, quintptr(parent));
}

int CallTreeModel::rowCount(const QModelIndex& parent) const
{
    if (!m_trees) return 0;
    const CallTree* t = tree();
    if (!parent.isValid()) return int(t ? t->rootCount : m_trees->functions.size());
    if (!t || parent.column() != 0) return 0;
    return int(t->nodes[parent.internalId()].childCount);
}

int CallTreeModel::columnCount(const QModelIndex&) const
{
    return kColumnCount;
}

CallTreeModel::Row CallTreeModel::rowAt(const QModelIndex& index) const
{
    if (const CallTree* t = tree()) {
        const CallNode& node = t->nodes[index.internalId()];
        return {node.function, node.self, node.total};
    }
    const CallFunction& function = m_trees->functions[index.internalId()];
    return {uint32_t(index.internalId()), function.self, function.total};
}

QVariant CallTreeModel::data(const QModelIndex& index, int role) const
{
    if (!index.isValid() || !m_trees) return {};
    const Row row = rowAt(index);
    const CallFunction& function = m_trees->functions[row.function];
    const auto column = Column(index.column());
    switch (role) {
    case Qt::DisplayRole:
    case SortRole:
        switch (column) {
        case FunctionColumn:
            return functionText(*m_trace, function);
        case ModuleColumn:
            return moduleText(*m_trace, function);
        case SelfColumn:
        case TotalColumn: {
            const int64_t count = column == SelfColumn ? row.self : row.total;
            return role == SortRole ? QVariant(qlonglong(count)) : QVariant(sampleCountText(count));
        }
        case SelfPercentColumn:
        case TotalPercentColumn: {
            const double percent = m_trees->percent(column == SelfPercentColumn ? row.self : row.total);
            return role == SortRole ? QVariant(percent) : QVariant(percentText(percent));
        }
        }
        return {};
    case Qt::ToolTipRole:
        if (column == FunctionColumn) return functionText(*m_trace, function);
        if (column == ModuleColumn) return moduleText(*m_trace, function);
        return {};
    case Qt::TextAlignmentRole:
        return column >= SelfColumn ? QVariant(int(Qt::AlignRight | Qt::AlignVCenter)) : QVariant();
    case FilterRole:
        return QString(functionText(*m_trace, function) + QLatin1Char(' ') + moduleText(*m_trace, function));
    case FunctionRole:
        return row.function;
    default:
        return {};
    }
}

QVariant CallTreeModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
    switch (Column(section)) {
    case FunctionColumn:
        return tr("Function");
    case ModuleColumn:
        return tr("Module");
    case SelfColumn:
        return tr("Self");
    case SelfPercentColumn:
        return tr("Self %");
    case TotalColumn:
        return tr("Total");
    case TotalPercentColumn:
        return tr("Total %");
    }
    return {};
}

CallTreeProxy::CallTreeProxy(QObject* parent)
    : QSortFilterProxyModel(parent)
{
    setSortRole(CallTreeModel::SortRole);
    setFilterRole(CallTreeModel::FilterRole);
    setFilterKeyColumn(CallTreeModel::FunctionColumn);
    setFilterCaseSensitivity(Qt::CaseInsensitive);
    setRecursiveFilteringEnabled(true);
    setSortCaseSensitivity(Qt::CaseInsensitive);
}

} // namespace sightline::views
