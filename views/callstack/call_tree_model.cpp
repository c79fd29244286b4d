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

QString filterText(const Trace& trace, const CallFunction& function)
{
    return functionText(trace, function) + QLatin1Char(' ') + moduleText(trace, function);
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

void CallTreeModel::setTrees(std::shared_ptr<const Trace> trace, std::shared_ptr<const CallTrees> trees,
    std::shared_ptr<const CallTree> topDown)
{
    beginResetModel();
    m_trace = std::move(trace);
    m_trees = m_trace && (m_kind != CallTreeKind::TopDown || topDown) ? std::move(trees) : nullptr;
    m_topDown = m_trees && m_kind == CallTreeKind::TopDown ? std::move(topDown) : nullptr;
    m_fetched.clear();
    m_markedFilter = QRegularExpression();
    m_markedStacks.clear();
    endResetModel();
}

const CallTree* CallTreeModel::topDown() const
{
    return m_topDown.get();
}

const BottomUpTree* CallTreeModel::bottomUp() const
{
    return m_trees && m_kind == CallTreeKind::BottomUp ? &m_trees->bottomUp : nullptr;
}

const CallNode& CallTreeModel::nodeAt(const QModelIndex& index) const
{
    const auto node = uint32_t(index.internalId());
    return topDown() ? topDown()->nodes[node] : bottomUp()->node(node);
}

QModelIndex CallTreeModel::index(int row, int column, const QModelIndex& parent) const
{
    if (row < 0 || column < 0 || column >= kColumnCount || row >= rowCount(parent)) return {};
    const uint32_t node = parent.isValid() ? nodeAt(parent).firstChild + uint32_t(row) : uint32_t(row);
    return createIndex(row, column, quintptr(node));
}

QModelIndex CallTreeModel::parent(const QModelIndex& child) const
{
    if (!child.isValid() || (!topDown() && !bottomUp())) return {};
    const uint32_t parent = nodeAt(child).parent;
    if (parent == kNoCallNode) return {};
    const uint32_t row = topDown() ? topDown()->row(parent) : bottomUp()->row(parent);
    return createIndex(int(row), 0, quintptr(parent));
}

int CallTreeModel::rowCount(const QModelIndex& parent) const
{
    if (!m_trees) return 0;
    if (!parent.isValid()) {
        return int(topDown() ? topDown()->rootCount
                : bottomUp() ? bottomUp()->rootCount()
                             : m_trees->functions.size());
    }
    if (parent.column() != 0) return 0;
    if (topDown()) return int(nodeAt(parent).childCount);
    return bottomUp() && fetched(uint32_t(parent.internalId())) ? int(nodeAt(parent).childCount) : 0;
}

int CallTreeModel::columnCount(const QModelIndex&) const
{
    return kColumnCount;
}

bool CallTreeModel::hasChildren(const QModelIndex& parent) const
{
    if (!bottomUp() || !parent.isValid()) return QAbstractItemModel::hasChildren(parent);
    return parent.column() == 0 && bottomUp()->hasChildren(uint32_t(parent.internalId()));
}

bool CallTreeModel::canFetchMore(const QModelIndex& parent) const
{
    return hasChildren(parent) && bottomUp() && parent.isValid() && !fetched(uint32_t(parent.internalId()));
}

void CallTreeModel::fetchMore(const QModelIndex& parent)
{
    if (!canFetchMore(parent)) return;
    const auto node = uint32_t(parent.internalId());
    const size_t children = bottomUp()->children(node).size();
    m_fetched.resize(bottomUp()->nodeCount(), false);
    if (children == 0) {
        m_fetched[node] = true;
        return;
    }
    beginInsertRows(parent, 0, int(children) - 1);
    m_fetched[node] = true;
    endInsertRows();
}

bool CallTreeModel::callersMatch(const QModelIndex& index, const QRegularExpression& filter) const
{
    if (!bottomUp() || !index.isValid()) return false;
    if (m_markedStacks.empty() || m_markedFilter != filter) {
        std::vector<char> functions(m_trees->functions.size());
        for (size_t f = 0; f < functions.size(); ++f)
            functions[f] = filter.match(filterText(*m_trace, m_trees->functions[f])).hasMatch();
        m_markedStacks = bottomUp()->markStacks(functions);
        m_markedFilter = filter;
    }
    return bottomUp()->callersHold(uint32_t(index.internalId()), m_markedStacks);
}

CallTreeModel::Row CallTreeModel::rowAt(const QModelIndex& index) const
{
    if (topDown() || bottomUp()) {
        const CallNode& node = nodeAt(index);
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
        return filterText(*m_trace, function);
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

bool CallTreeProxy::filterAcceptsRow(int sourceRow, const QModelIndex& sourceParent) const
{
    if (QSortFilterProxyModel::filterAcceptsRow(sourceRow, sourceParent)) return true;
    // Recursive filtering sees the fetched rows only; the model answers for the callers not fetched.
    const auto* model = qobject_cast<const CallTreeModel*>(sourceModel());
    return model && model->callersMatch(model->index(sourceRow, 0, sourceParent), filterRegularExpression());
}

} // namespace sightline::views
