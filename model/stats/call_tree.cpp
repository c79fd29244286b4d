#include "model/stats/call_tree.h"

#include <algorithm>
#include <unordered_map>

namespace sightline {
namespace {

constexpr uint32_t kUnstackedFunction = 0; // function 0 is "[no call stack]"

bool cancelled(const std::atomic<bool>* cancel)
{
    return cancel && cancel->load(std::memory_order_relaxed);
}

uint64_t functionKey(StringId name, StringId module)
{
    return uint64_t(name.value) << 32 | module.value;
}

// Dense function numbers: frames of one (name, module) share one.
struct FunctionNumbering
{
    std::vector<CallFunction> functions;
    std::vector<uint32_t> ofNode; // per stack node

    explicit FunctionNumbering(const CpuProfile& cpu)
    {
        functions.push_back({StringId {}, StringId {}, true});
        std::unordered_map<uint64_t, uint32_t> ids;
        auto number = [&](StringId name, StringId module) {
            auto [it, added] = ids.try_emplace(functionKey(name, module), uint32_t(functions.size()));
            if (added) functions.push_back({name, module});
            return it->second;
        };
        std::vector<uint32_t> ofFrame;
        ofFrame.reserve(cpu.frames.size());
        for (const StackFrame& frame : cpu.frames)
            ofFrame.push_back(number(frame.function, frame.module));
        ofNode.reserve(cpu.stacks.size());
        for (const CallStackNode& node : cpu.stacks)
            ofNode.push_back(node.frame < ofFrame.size() ? ofFrame[node.frame] : number({}, {}));
    }
};

// The scope's samples per leaf stack node; those without a valid stack in `unstacked`.
struct LeafCounts
{
    std::vector<int64_t> perStack;
    int64_t unstacked = 0;
    int64_t samples = 0;
};

LeafCounts countLeaves(const CpuProfile& cpu, const CallScope& scope)
{
    LeafCounts counts;
    counts.perStack.assign(cpu.stacks.size(), 0);
    std::vector<Tid> threads = scope.threads.value_or(std::vector<Tid> {});
    std::sort(threads.begin(), threads.end());
    for (const ThreadRange& thread : cpu.sampleThreads) {
        if (scope.threads && !std::binary_search(threads.begin(), threads.end(), thread.tid)) continue;
        const std::span<const CpuSample> samples = scope.range
            ? cpu.threadSamples(thread.tid, *scope.range)
            : std::span<const CpuSample>(cpu.samples.data() + thread.first, thread.count);
        counts.samples += int64_t(samples.size());
        int64_t* perStack = counts.perStack.data();
        const size_t stackCount = counts.perStack.size();
        for (const CpuSample& sample : samples) {
            if (sample.stack < stackCount)
                ++perStack[sample.stack];
            else
                ++counts.unstacked;
        }
    }
    return counts;
}

// Function order for ties: by name, then module.
std::vector<uint32_t> nameRanks(const Trace& trace, const std::vector<CallFunction>& functions)
{
    std::vector<uint32_t> order(functions.size());
    for (uint32_t f = 0; f < order.size(); ++f)
        order[f] = f;
    std::sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) {
        const CallFunction &x = functions[a], &y = functions[b];
        const auto nameA = functionName(trace, x), nameB = functionName(trace, y);
        if (nameA != nameB) return nameA < nameB;
        return moduleName(trace, x) < moduleName(trace, y);
    });
    std::vector<uint32_t> rank(functions.size());
    for (uint32_t i = 0; i < order.size(); ++i)
        rank[order[i]] = i;
    return rank;
}

} // namespace

CallTrees computeCallTrees(const Trace& trace, const CallScope& scope, const std::atomic<bool>* cancel)
{
    const CpuProfile& cpu = trace.cpu;
    CallTrees result;
    const LeafCounts leaves = countLeaves(cpu, scope);
    if (cancelled(cancel) || leaves.samples == 0) return result;

    FunctionNumbering numbering(cpu);
    std::vector<CallFunction>& functions = numbering.functions;
    SampledStacks stacks = sampledStacks(cpu, numbering.ofNode, leaves.perStack, cancel);
    if (cancelled(cancel)) return result;

    if (leaves.unstacked > 0)
        functions[kUnstackedFunction].self = functions[kUnstackedFunction].total = leaves.unstacked;
    for (uint32_t node = 0; node < stacks.size(); ++node)
        functions[stacks.function[node]].self += stacks.leafSamples[node];
    const std::vector<int64_t> totals = functionTotals(stacks, functions.size());
    for (size_t f = 0; f < functions.size(); ++f)
        if (f != kUnstackedFunction) functions[f].total = totals[f];
    if (cancelled(cancel)) return {};

    // The flat table keeps the functions that were seen, by self, then total, then name.
    const std::vector<uint32_t> rank = nameRanks(trace, functions);
    std::vector<uint32_t> kept;
    for (uint32_t f = 0; f < functions.size(); ++f)
        if (functions[f].total > 0) kept.push_back(f);
    std::sort(kept.begin(), kept.end(), [&](uint32_t a, uint32_t b) {
        const CallFunction &x = functions[a], &y = functions[b];
        if (x.self != y.self) return x.self > y.self;
        if (x.total != y.total) return x.total > y.total;
        return rank[a] < rank[b];
    });
    std::vector<uint32_t> newFunction(functions.size(), kNoCallNode);
    for (uint32_t i = 0; i < kept.size(); ++i) {
        newFunction[kept[i]] = i;
        result.functions.push_back(functions[kept[i]]);
    }
    result.samples = leaves.samples;
    // The trees number functions as the flat table does.
    std::vector<uint32_t> newRank(result.functions.size());
    for (uint32_t i = 0; i < kept.size(); ++i)
        newRank[i] = rank[kept[i]];
    for (uint32_t& function : stacks.function)
        function = newFunction[function];
    result.bottomUp = BottomUpTree(std::move(stacks), result.functions, std::move(newRank));
    return result;
}

std::string_view functionName(const Trace& trace, const CallFunction& function)
{
    if (function.unstacked) return "[no call stack]";
    const std::string_view name = trace.strings.contains(function.name) ? trace.strings[function.name] : "";
    return name.empty() ? "[unknown]" : name;
}

std::string_view moduleName(const Trace& trace, const CallFunction& function)
{
    return trace.strings.contains(function.module) ? trace.strings[function.module] : "";
}

std::vector<uint32_t> stacksWithFunction(const Trace& trace, const CallFunction& function, bool leafOnly)
{
    if (function.unstacked) return {kNoCallStack};
    const CpuProfile& cpu = trace.cpu;
    std::vector<char> holds(cpu.stacks.size(), 0);
    std::vector<uint32_t> stacks;
    for (uint32_t node = 0; node < cpu.stacks.size(); ++node) {
        const uint32_t frame = cpu.stacks[node].frame;
        const bool here = frame < cpu.frames.size()
            ? cpu.frames[frame].function == function.name && cpu.frames[frame].module == function.module
            : function.name.value == 0 && function.module.value == 0;
        const uint32_t caller = callerOf(cpu, node);
        holds[node] = here || (!leafOnly && caller != kNoCallStack && holds[caller]);
        if (holds[node]) stacks.push_back(node);
    }
    return stacks;
}

} // namespace sightline
