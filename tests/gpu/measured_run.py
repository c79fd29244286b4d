"""The measured stretch of the overhead benchmarks' programs, run bare or inside torch.profiler,
and where it spent its CPU time, thread by thread, read from /proc/self/task: a slow run says
which threads (the program's, CUDA's, CUPTI's, a profiler's) took the CPU and whether the timed
thread was preempted.

  figures = measured_run(mode, measure, seconds_of)
"""
import os
import threading

_TICKS_PER_SECOND = os.sysconf("SC_CLK_TCK")


def _snapshot():
    """Per thread id: (name, CPU seconds, voluntary switches, involuntary switches)."""
    threads = {}
    for tid in os.listdir("/proc/self/task"):
        try:
            with open(f"/proc/self/task/{tid}/stat") as stat:
                text = stat.read()
            with open(f"/proc/self/task/{tid}/status") as status:
                fields = dict(line.split(":", 1) for line in status if ":" in line)
        except OSError:
            continue  # the thread ended between the listing and the read
        name = text[text.index("(") + 1:text.rindex(")")]
        after_name = text[text.rindex(")") + 2:].split()
        # utime and stime are fields 14 and 15 of stat; after the name, 12 and 13 (0-based 11, 12).
        cpu = (int(after_name[11]) + int(after_name[12])) / _TICKS_PER_SECOND
        threads[int(tid)] = (name, cpu, int(fields["voluntary_ctxt_switches"]),
                             int(fields["nonvoluntary_ctxt_switches"]))
    return threads


class ThreadUsage:
    def __init__(self):
        self._main = threading.get_native_id()
        self._before = _snapshot()

    def report(self, wall_seconds):
        """Prints, per thread that used CPU or switched during the stretch, its CPU share of the
        wall time and its switches; the timed (calling) thread is marked 'timed'."""
        after = _snapshot()
        rows = []
        for tid, (name, cpu, voluntary, involuntary) in after.items():
            _, cpu0, voluntary0, involuntary0 = self._before.get(tid, (name, 0.0, 0, 0))
            used, v, iv = cpu - cpu0, voluntary - voluntary0, involuntary - involuntary0
            if used > 0 or v or iv:
                rows.append((used, name, tid, v, iv))
        for used, name, tid, v, iv in sorted(rows, reverse=True):
            role = " timed" if tid == self._main else ""
            print(f"thread {name!r}{role} cpu {used / wall_seconds * 100:.1f}% "
                  f"switches voluntary {v} involuntary {iv}")


def measured_run(mode, measure, seconds_of):
    """Runs measure() bare (mode "bare") or inside torch.profiler with CPU and CUDA activities
    ("torchprof"), prints the thread lines for its stretch (seconds_of(figures) long) and
    returns its figures."""
    def timed():
        usage = ThreadUsage()
        figures = measure()
        usage.report(seconds_of(figures))
        return figures

    if mode == "bare":
        return timed()
    import torch  # only the torch.profiler mode needs it here

    activities = [torch.profiler.ProfilerActivity.CPU, torch.profiler.ProfilerActivity.CUDA]
    with torch.profiler.profile(activities=activities):
        return timed()
