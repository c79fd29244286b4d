#include "collector/convert/cpu/thread_states.h"

#include <algorithm>
#include <array>
#include <map>

namespace sightline::collector {

namespace {

struct Rule
{
    const char* fragment;
    ThreadState state;
};

// Kernel functions on the way to schedule(), most specific first.
constexpr std::array kKernelRules = {
    Rule {"nanosleep", ThreadState::Sleeping},
    Rule {"futex", ThreadState::Blocked},
    Rule {"ep_poll", ThreadState::WaitingIo},
    Rule {"do_sys_poll", ThreadState::WaitingIo},
    Rule {"do_select", ThreadState::WaitingIo},
    Rule {"pipe_read", ThreadState::WaitingIo},
    Rule {"pipe_write", ThreadState::WaitingIo},
    Rule {"wait_woken", ThreadState::WaitingIo},
    Rule {"sk_wait", ThreadState::WaitingIo},
    Rule {"unix_stream", ThreadState::WaitingIo},
    Rule {"tcp_", ThreadState::WaitingIo},
    Rule {"n_tty_read", ThreadState::WaitingIo},
    Rule {"io_schedule", ThreadState::WaitingIo},
    Rule {"folio_wait", ThreadState::WaitingIo},
    Rule {"wait_on_page", ThreadState::WaitingIo},
    Rule {"do_wait", ThreadState::Blocked}, // waitpid
    Rule {"rwsem", ThreadState::Blocked},
    Rule {"mutex_lock", ThreadState::Blocked},
};

// User functions, for when kernel frames are not there.
constexpr std::array kUserRules = {
    Rule {"sleep", ThreadState::Sleeping},
    Rule {"pthread_mutex", ThreadState::Blocked},
    Rule {"pthread_cond", ThreadState::Blocked},
    Rule {"pthread_rwlock", ThreadState::Blocked},
    Rule {"pthread_join", ThreadState::Blocked},
    Rule {"pthread_barrier", ThreadState::Blocked},
    Rule {"lll_lock", ThreadState::Blocked},
    Rule {"futex", ThreadState::Blocked},
    Rule {"sem_wait", ThreadState::Blocked},
    Rule {"sem_timedwait", ThreadState::Blocked},
    Rule {"Synchronize", ThreadState::Blocked}, // cudaStreamSynchronize, cudaDeviceSynchronize
    Rule {"epoll_wait", ThreadState::WaitingIo},
    Rule {"poll", ThreadState::WaitingIo},
    Rule {"select", ThreadState::WaitingIo},
    Rule {"recv", ThreadState::WaitingIo},
    Rule {"accept", ThreadState::WaitingIo},
    Rule {"read", ThreadState::WaitingIo},
    Rule {"write", ThreadState::WaitingIo},
};

template <size_t N>
bool matchRules(const std::array<Rule, N>& rules, const std::string& function, ThreadState& state)
{
    for (const Rule& rule : rules)
        if (function.find(rule.fragment) != std::string::npos) {
            state = rule.state;
            return true;
        }
    return false;
}

} // namespace

ThreadState waitReason(const std::vector<SymbolName>& framesInnermostFirst)
{
    ThreadState state = ThreadState::Waiting;
    for (const SymbolName& frame : framesInnermostFirst)
        if (frame.kernel && matchRules(kKernelRules, frame.function, state)) return state;
    for (const SymbolName& frame : framesInnermostFirst)
        if (!frame.kernel && matchRules(kUserRules, frame.function, state)) return state;
    return ThreadState::Waiting;
}

std::vector<ThreadStateInterval> threadStatesOf(const StateInput& input)
{
    const PerfRecording& recording = *input.recording;
    auto toTrace
        = [&](uint64_t t) { return std::clamp<Timestamp>(Timestamp(t) - input.originNs, 0, input.end); };

    // Where each thread was first seen: a thread whose first record is a switch out ran since.
    std::map<uint32_t, uint64_t> firstSeen;
    uint32_t previousTid = UINT32_MAX; // samples of one thread come in runs: look up once per run
    for (const PerfSample& s : recording.samples) {
        if (s.tid != previousTid) firstSeen.try_emplace(s.tid, s.time); // samples are in time order
        previousTid = s.tid;
    }
    for (const PerfThreadEvent& e : recording.threadEvents) {
        auto [it, added] = firstSeen.try_emplace(e.tid, e.time);
        if (!added) it->second = std::min(it->second, e.time);
    }

    // The last context-switch sample of each thread, to explain its next switch out.
    std::map<uint32_t, size_t> lastSwitchSample;
    size_t nextSample = 0;
    struct Open
    {
        Timestamp since = 0;
        ThreadState state = ThreadState::Running;
        uint32_t stack = kNoCallStack;
        bool known = false; // a state is open
        bool exited = false;
    };
    std::map<uint32_t, Open> open;
    std::vector<ThreadStateInterval> states;
    auto close = [&](uint32_t tid, Open& o, Timestamp at) {
        if (o.known && at > o.since) states.push_back({o.since, at, Tid(tid), o.state, o.stack});
        o.known = false;
    };
    auto begin = [&](Open& o, Timestamp at, ThreadState state, uint32_t stack) {
        o = {at, state, stack, true, false};
    };

    for (const PerfThreadEvent& e : recording.threadEvents) {
        for (; nextSample < recording.samples.size() && recording.samples[nextSample].time <= e.time;
             ++nextSample)
            if (recording.samples[nextSample].role == spool::cpu_recording::EventRole::ContextSwitch)
                lastSwitchSample[recording.samples[nextSample].tid] = nextSample;
        const Timestamp at = toTrace(e.time);
        Open& o = open[e.tid];
        if (o.exited) continue;
        switch (e.kind) {
        case PerfThreadEvent::Kind::SwitchIn:
            close(e.tid, o, at);
            begin(o, at, ThreadState::Running, kNoCallStack);
            break;
        case PerfThreadEvent::Kind::SwitchOut: {
            // Running since the thread was first seen when its first record is a switch out.
            if (!o.known) begin(o, toTrace(firstSeen[e.tid]), ThreadState::Running, kNoCallStack);
            close(e.tid, o, at);
            if (e.preempted) {
                begin(o, at, ThreadState::Runnable, kNoCallStack);
                break;
            }
            auto sample = lastSwitchSample.find(e.tid);
            auto [stack, state] = sample != lastSwitchSample.end()
                ? input.waitOfSample(sample->second)
                : std::pair(kNoCallStack, ThreadState::Waiting);
            if (sample != lastSwitchSample.end()) lastSwitchSample.erase(sample);
            begin(o, at, state, stack);
            break;
        }
        case PerfThreadEvent::Kind::Fork:
            if (e.tid != 0) begin(o, at, ThreadState::Runnable, kNoCallStack);
            break;
        case PerfThreadEvent::Kind::Exit:
            close(e.tid, o, at);
            o.exited = true;
            break;
        case PerfThreadEvent::Kind::Comm:
            break;
        }
    }
    for (auto& [tid, o] : open)
        close(tid, o, input.end);
    std::sort(states.begin(), states.end(),
        [](const auto& a, const auto& b) { return std::pair(a.tid, a.start) < std::pair(b.tid, b.start); });
    return states;
}

} // namespace sightline::collector
