#include "views/expert/findings_model.h"

#include "model/analysis/rule_catalog.h"
#include "model/text/time_text.h"
#include "views/common/severity_icon.h"

#include <QApplication>
#include <QFont>
#include <QLocale>
#include <QStyle>

namespace sightline::views {
namespace {

QString text(std::string_view s)
{
    return QString::fromUtf8(s.data(), qsizetype(s.size()));
}

QString capitalized(QString s)
{
    if (!s.isEmpty()) s[0] = s[0].toUpper();
    return s;
}

QString groupTitle(Severity severity, size_t findings)
{
    const QString count = QLocale(QLocale::English, QLocale::UnitedStates).toString(qulonglong(findings));
    switch (severity) {
    case Severity::Error:
        return FindingsModel::tr("Errors (%1)").arg(count);
    case Severity::Warning:
        return FindingsModel::tr("Warnings (%1)").arg(count);
    case Severity::Info:
        return FindingsModel::tr("Notes (%1)").arg(count);
    }
    return {};
}

QString countText(size_t n)
{
    return QLocale(QLocale::English, QLocale::UnitedStates).toString(qulonglong(n));
}

} // namespace

QString findingTitle(const Finding& finding)
{
    const RuleInfo* rule = findAnalysisRule(finding.rule);
    return rule ? text(rule->title) : text(finding.rule);
}

QString limitTitle(Limit limit)
{
    return capitalized(text(limitName(limit)));
}

QString verdictText(const Verdict& verdict, bool rangeName)
{
    if (!rangeName)
        return capitalized(text(verdict.scope)) + QStringLiteral(": ") + text(limitName(verdict.limit));
    return FindingsModel::tr("NVTX \u201c%1\u201d \u00d7%2: %3")
        .arg(text(verdict.scope), countText(verdict.instances), text(limitName(verdict.limit)));
}

FindingsModel::FindingsModel(QObject* parent)
    : QAbstractItemModel(parent)
{ }

int FindingsModel::addNode(Node node)
{
    const int id = int(m_nodes.size());
    std::vector<int>& siblings = node.parent == kNoNode ? m_roots : m_nodes[size_t(node.parent)].children;
    node.row = int(siblings.size());
    siblings.push_back(id);
    m_nodes.push_back(std::move(node));
    return id;
}

void FindingsModel::setResult(std::shared_ptr<const AnalysisResult> result)
{
    beginResetModel();
    m_result = std::move(result);
    m_nodes.clear();
    m_roots.clear();
    m_findingNodes.clear();
    if (m_result) {
        for (size_t v = 0; v < m_result->verdicts.size(); ++v)
            addNode({.kind = Kind::Verdict, .item = v});
        m_findingNodes.resize(m_result->findings.size(), kNoNode);
        // Findings come sorted by severity (errors first), so each group is one run.
        int group = kNoNode;
        for (size_t f = 0; f < m_result->findings.size(); ++f) {
            const Finding& finding = m_result->findings[f];
            if (group == kNoNode || m_nodes[size_t(group)].item != size_t(finding.severity))
                group = addNode({.kind = Kind::Group, .item = size_t(finding.severity)});
            const int node = addNode({.kind = Kind::Finding, .parent = group, .item = f});
            m_findingNodes[f] = node;
            for (size_t e = 0; e < finding.evidence.size(); ++e)
                addNode({.kind = Kind::Evidence, .parent = node, .item = f, .evidence = e});
        }
    }
    endResetModel();
}

const FindingsModel::Node* FindingsModel::nodeAt(const QModelIndex& index) const
{
    if (!index.isValid() || index.model() != this || index.internalId() >= m_nodes.size()) return nullptr;
    return &m_nodes[index.internalId()];
}

const std::vector<int>& FindingsModel::childrenOf(const QModelIndex& parent) const
{
    static const std::vector<int> none;
    if (!parent.isValid()) return m_roots;
    const Node* node = nodeAt(parent);
    return node && parent.column() == 0 ? node->children : none;
}

FindingsModel::Kind FindingsModel::kindOf(const QModelIndex& index) const
{
    const Node* node = nodeAt(index);
    return node ? node->kind : Kind::Group;
}

const Verdict* FindingsModel::verdictAt(const QModelIndex& index) const
{
    const Node* node = nodeAt(index);
    return node && node->kind == Kind::Verdict ? &m_result->verdicts[node->item] : nullptr;
}

const Finding* FindingsModel::findingAt(const QModelIndex& index) const
{
    const int number = findingNumber(index);
    return number >= 0 ? &m_result->findings[size_t(number)] : nullptr;
}

const Evidence* FindingsModel::evidenceAt(const QModelIndex& index) const
{
    const Node* node = nodeAt(index);
    return node && node->kind == Kind::Evidence ? &m_result->findings[node->item].evidence[node->evidence]
                                                : nullptr;
}

int FindingsModel::findingNumber(const QModelIndex& index) const
{
    const Node* node = nodeAt(index);
    return node && (node->kind == Kind::Finding || node->kind == Kind::Evidence) ? int(node->item) : -1;
}

QModelIndex FindingsModel::findingIndex(size_t finding) const
{
    if (finding >= m_findingNodes.size()) return {};
    const int node = m_findingNodes[finding];
    return createIndex(m_nodes[size_t(node)].row, 0, quintptr(node));
}

std::vector<QModelIndex> FindingsModel::groupIndexes() const
{
    std::vector<QModelIndex> groups;
    for (int id : m_roots)
        if (m_nodes[size_t(id)].kind == Kind::Group)
            groups.push_back(createIndex(m_nodes[size_t(id)].row, 0, quintptr(id)));
    return groups;
}

QModelIndex FindingsModel::index(int row, int column, const QModelIndex& parent) const
{
    const std::vector<int>& children = childrenOf(parent);
    if (row < 0 || column < 0 || column >= kColumnCount || size_t(row) >= children.size()) return {};
    return createIndex(row, column, quintptr(children[size_t(row)]));
}

QModelIndex FindingsModel::parent(const QModelIndex& child) const
{
    const Node* node = nodeAt(child);
    if (!node || node->parent == kNoNode) return {};
    return createIndex(m_nodes[size_t(node->parent)].row, 0, quintptr(node->parent));
}

int FindingsModel::rowCount(const QModelIndex& parent) const
{
    return int(childrenOf(parent).size());
}

int FindingsModel::columnCount(const QModelIndex&) const
{
    return kColumnCount;
}

QVariant FindingsModel::display(const Node& node, int column) const
{
    const auto timeCells = [column](TimeRange range) -> QVariant {
        if (column == StartColumn) return QString::fromStdString(formatTimestamp(range.start, 1000));
        if (column == DurationColumn) return QString::fromStdString(formatDuration(range.duration()));
        return {};
    };
    switch (node.kind) {
    case Kind::Verdict: {
        const Verdict& verdict = m_result->verdicts[node.item];
        if (column == NameColumn) return verdictText(verdict, node.item > 0);
        if (column == CountColumn) return node.item > 0 ? countText(verdict.instances) : QVariant();
        return timeCells(verdict.range);
    }
    case Kind::Group: {
        if (column != NameColumn) return {};
        return groupTitle(Severity(node.item), node.children.size());
    }
    case Kind::Finding: {
        const Finding& finding = m_result->findings[node.item];
        if (column == NameColumn) return findingTitle(finding);
        if (column == CountColumn) return countText(finding.evidenceCount);
        return {};
    }
    case Kind::Evidence: {
        const Evidence& evidence = m_result->findings[node.item].evidence[node.evidence];
        if (column == NameColumn) return text(evidence.label);
        return timeCells(evidence.range);
    }
    }
    return {};
}

QVariant FindingsModel::toolTip(const Node& node) const
{
    switch (node.kind) {
    case Kind::Verdict:
        return text(m_result->verdicts[node.item].reason);
    case Kind::Finding:
        return text(m_result->findings[node.item].summary);
    case Kind::Evidence:
        return text(m_result->findings[node.item].evidence[node.evidence].label);
    case Kind::Group:
        return {};
    }
    return {};
}

QVariant FindingsModel::data(const QModelIndex& index, int role) const
{
    const Node* node = nodeAt(index);
    if (!node) return {};
    switch (role) {
    case Qt::DisplayRole:
        return display(*node, index.column());
    case Qt::ToolTipRole:
        return toolTip(*node);
    case Qt::DecorationRole:
        if (index.column() != NameColumn) return {};
        if (node->kind == Kind::Group) return severityIcon(QApplication::style(), Severity(node->item));
        if (node->kind == Kind::Finding)
            return severityIcon(QApplication::style(), m_result->findings[node->item].severity);
        return {};
    case Qt::FontRole:
        if (node->kind == Kind::Verdict || node->kind == Kind::Group) {
            QFont bold;
            bold.setBold(true);
            return bold;
        }
        return {};
    case Qt::TextAlignmentRole:
        return index.column() == NameColumn ? QVariant() : QVariant(Qt::AlignRight | Qt::AlignVCenter);
    default:
        return {};
    }
}

QVariant FindingsModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
    switch (section) {
    case NameColumn:
        return tr("Finding / Evidence");
    case CountColumn:
        return tr("Count");
    case StartColumn:
        return tr("Start");
    case DurationColumn:
        return tr("Duration");
    default:
        return {};
    }
}

} // namespace sightline::views
