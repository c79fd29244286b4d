// The Expert view's tree over one AnalysisResult (model/analysis/analysis.h), as a Qt item
// model: the verdict lines on top (the whole scope's, then one per top-level NVTX range name),
// then one group per severity present (errors first), each holding its findings, each finding
// holding its evidence (largest first, as the rules list it). Columns: Finding / Evidence,
// Count (the evidence a finding found, or an NVTX verdict's instances), Start and Duration
// (of a verdict's scope or a piece of evidence).
// The tree is laid out once per result as a flat node list (parent and children by position),
// so index() and parent() are lookups; the model only reads the result it shares.
#pragma once

#include "model/analysis/analysis.h"

#include <QAbstractItemModel>
#include <memory>
#include <vector>

namespace sightline::views {

class FindingsModel : public QAbstractItemModel
{
    Q_OBJECT
public:
    enum Column { NameColumn, CountColumn, StartColumn, DurationColumn };
    static constexpr int kColumnCount = 4;
    enum class Kind : uint8_t { Verdict, Group, Finding, Evidence };

    explicit FindingsModel(QObject* parent = nullptr);

    // Shows `result` (null: nothing).
    void setResult(std::shared_ptr<const AnalysisResult> result);
    const AnalysisResult* result() const { return m_result.get(); }

    // What a row is, and the parts of the result behind it (null where they do not apply: a
    // finding's evidence row gives its finding too).
    Kind kindOf(const QModelIndex& index) const;
    const Verdict* verdictAt(const QModelIndex& index) const;
    const Finding* findingAt(const QModelIndex& index) const;
    const Evidence* evidenceAt(const QModelIndex& index) const;
    // The position of a row's finding in result()->findings; -1 for other rows.
    int findingNumber(const QModelIndex& index) const;
    // The row of result()->findings[finding] (invalid when out of range).
    QModelIndex findingIndex(size_t finding) const;
    // The severity group rows, for expanding them.
    std::vector<QModelIndex> groupIndexes() const;

    QModelIndex index(int row, int column, const QModelIndex& parent = {}) const override;
    QModelIndex parent(const QModelIndex& child) const override;
    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    static constexpr int kNoNode = -1;
    struct Node
    {
        Kind kind = Kind::Group;
        int parent = kNoNode;
        int row = 0; // among its parent's children
        std::vector<int> children;
        size_t item = 0; // the verdict or finding number; a group's severity
        size_t evidence = 0; // an evidence row's position in its finding's evidence
    };
    int addNode(Node node);
    const Node* nodeAt(const QModelIndex& index) const;
    const std::vector<int>& childrenOf(const QModelIndex& parent) const;
    QVariant display(const Node& node, int column) const;
    QVariant toolTip(const Node& node) const;

    std::shared_ptr<const AnalysisResult> m_result;
    std::vector<Node> m_nodes;
    std::vector<int> m_roots;
    std::vector<int> m_findingNodes; // by finding number
};

// A finding's title (its rule's, e.g. "Asynchronous copies from pageable memory").
QString findingTitle(const Finding& finding);
// "Whole report: launch bound" for the scope's verdict (result's first), "NVTX “step” \u00d712:
// GPU compute bound" for a range name's.
QString verdictText(const Verdict& verdict, bool rangeName);
// A limit as a heading: "Launch bound".
QString limitTitle(Limit limit);

} // namespace sightline::views
