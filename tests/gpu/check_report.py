"""Checks a `sightline profile` report (exported to SQLite with Nsight Systems' table names by
`sightline export --type sqlite`) against what the profiled program says it did.

  check_report.py cuda    REPORT.sqlite EXPECTATIONS.json LABEL
  check_report.py torch   REPORT.sqlite TORCHPROF.json LABEL
  check_report.py drops   REPORT.sqlite LABEL

Each check prints one "PASS label: what" or "FAIL label: what (why)" line; the exit status is the
number of failures (0: all passed). Only the standard library is used.
"""
import collections
import json
import sqlite3
import sys

DIRECTIONS = {1: "HtoD", 2: "DtoH"}   # model CopyKind
HOST_KINDS = {0: "pageable", 1: "pinned"}  # model MemoryKind
HTOD = 1
NVTX_RANGES = (59, 60)                # NVTX_EVENTS eventType: push/pop, start/end
DURATION_TOLERANCE = 0.05
LONG_KERNEL_NS = 100_000

failures = 0


def report(label, ok, what, why=""):
    global failures
    failures += 0 if ok else 1
    print(f"{'PASS' if ok else 'FAIL'} {label}: {what}{'' if ok or not why else f' ({why})'}", flush=True)


def pid_of(global_id):
    return (global_id >> 24) & 0xFFFFFF


class Report:
    def __init__(self, path):
        self.db = sqlite3.connect(path)
        self.strings = dict(self.rows("SELECT id, value FROM StringIds"))
        self.kernels = [dict(zip(("start", "end", "corr", "gpid", "short", "name", "graph", "stream", "device"), r))
                        for r in self.rows("SELECT start, end, correlationId, globalPid, shortName, demangledName, "
                                           "graphId, streamId, deviceId FROM CUPTI_ACTIVITY_KIND_KERNEL")]
        for k in self.kernels:
            k["short"] = self.strings.get(k["short"], "?")
            k["name"] = self.strings.get(k["name"], "?")
        self.copies = [dict(zip(("start", "end", "corr", "gpid", "kind", "src", "dst", "bytes"), r)) for r in self.rows(
            "SELECT start, end, correlationId, globalPid, copyKind, srcKind, dstKind, bytes "
            "FROM CUPTI_ACTIVITY_KIND_MEMCPY")]
        self.memsets = [dict(zip(("start", "end", "corr", "gpid"), r)) for r in self.rows(
            "SELECT start, end, correlationId, globalPid FROM CUPTI_ACTIVITY_KIND_MEMSET")]
        self.api = [dict(zip(("start", "end", "corr", "gtid", "name"), r)) for r in self.rows(
            "SELECT start, end, correlationId, globalTid, nameId FROM CUPTI_ACTIVITY_KIND_RUNTIME")]
        self.nvtx = [dict(zip(("start", "end", "type", "text", "gtid"), r)) for r in self.rows(
            "SELECT start, end, eventType, text, globalTid FROM NVTX_EVENTS")]
        self.diagnostics = [r[0] for r in self.rows("SELECT text FROM DIAGNOSTIC_EVENT")]
        self.launcher = {}
        for call in self.api:
            key = (pid_of(call["gtid"]), call["corr"])
            # The outermost call wins when a runtime and a driver call share the id.
            if key not in self.launcher or call["start"] < self.launcher[key]["start"]:
                self.launcher[key] = call

    def rows(self, sql):
        try:
            return self.db.execute(sql).fetchall()
        except sqlite3.OperationalError:
            return []

    def launching_call(self, op):
        return self.launcher.get((pid_of(op["gpid"]), op["corr"]))


def check_launch_links(label, rep):
    ops = rep.kernels + rep.copies + rep.memsets
    orphans = [op for op in ops if rep.launching_call(op) is None]
    report(label, bool(ops) and not orphans, f"every GPU operation ({len(ops)}) has its launching API call",
           f"{len(orphans)} without one" if ops else "no GPU operations at all")
    early = [op for op in ops if rep.launching_call(op) and op["start"] < rep.launching_call(op)["start"]]
    report(label, not early, "no GPU operation starts before the API call that launched it",
           f"{len(early)} start earlier, worst by {max((rep.launching_call(o)['start'] - o['start'] for o in early), default=0)} ns")


def check_kernel_counts(label, rep, expected, kernels=None):
    seen = collections.Counter(k["short"] for k in (rep.kernels if kernels is None else kernels))
    want = collections.Counter({name: count for name, count in expected.items()})
    diff = {n: (seen.get(n, 0), want.get(n, 0)) for n in set(seen) | set(want) if seen.get(n, 0) != want.get(n, 0)}
    report(label, not diff, f"kernel count per name equals the launches made ({sum(want.values())})",
           "name: (recorded, launched) " + ", ".join(f"{n}: {v}" for n, v in sorted(diff.items())[:8]))


def check_durations(label, rep, timed):
    for name, event_ms in timed.items():
        recorded = sorted((k for k in rep.kernels if k["short"] == name), key=lambda k: k["start"])
        if len(recorded) != len(event_ms):
            report(label, False, f"{name} durations match CUDA events", f"{len(recorded)} recorded, {len(event_ms)} timed")
            continue
        worst = 0.0
        compared = 0
        for kernel, ms in zip(recorded, event_ms):
            duration = kernel["end"] - kernel["start"]
            if duration < LONG_KERNEL_NS:
                continue
            compared += 1
            worst = max(worst, abs(duration - ms * 1e6) / (ms * 1e6))
        report(label, compared > 0 and worst <= DURATION_TOLERANCE,
               f"{name}: {compared} kernels > 100 us within 5% of CUDA-event timings (worst {worst * 100:.2f}%)")


def check_copies(label, rep, expected_counts, expected_bytes):
    counts, sizes = collections.Counter(), collections.Counter()
    for c in rep.copies:
        host = c["src"] if c["kind"] == HTOD else c["dst"]
        key = DIRECTIONS.get(c["kind"], str(c["kind"])) + "/" + HOST_KINDS.get(host, str(host))
        counts[key] += 1
        sizes[key] += c["bytes"]
    report(label, counts == collections.Counter(expected_counts) and sizes == collections.Counter(expected_bytes),
           "copies by direction and host memory kind (pageable/pinned) with their bytes",
           f"recorded {dict(counts)} {dict(sizes)}, expected {expected_counts} {expected_bytes}")


def check_nvtx(label, rep, expected):
    seen = collections.Counter(e["text"] for e in rep.nvtx if e["type"] in NVTX_RANGES)
    missing = {n: (seen.get(n, 0), c) for n, c in expected.items() if seen.get(n, 0) != c}
    report(label, not missing, f"NVTX ranges {sorted(expected)} recorded", f"(recorded, made): {missing}")


def check_cuda(label, rep, expect):
    check_kernel_counts(label, rep, expect["kernels"])
    check_launch_links(label, rep)
    if expect.get("timed_ms"):
        check_durations(label, rep, expect["timed_ms"])
    if expect.get("copies"):
        check_copies(label, rep, expect["copies"], expect["copy_bytes"])
    if expect.get("memsets"):
        report(label, len(rep.memsets) == expect["memsets"], f"{expect['memsets']} memset(s) recorded",
               f"{len(rep.memsets)} recorded")
    if expect.get("graph_kernels"):
        in_graphs = sum(1 for k in rep.kernels if k["graph"])
        report(label, in_graphs == expect["graph_kernels"], f"{expect['graph_kernels']} graph node kernels carry a graph id",
               f"{in_graphs} do")
    if expect.get("nvtx"):
        check_nvtx(label, rep, expect["nvtx"])
    check_no_drops(label, rep)


def check_no_drops(label, rep):
    lost = [d for d in rep.diagnostics if "dropped" in d or "no timestamps" in d or "CUDA activity was not recorded" in d]
    report(label, not lost, "no dropped or missing CUDA records", "; ".join(lost[:3]))


def check_torch(label, rep, torchprof):
    measured = [e for e in rep.nvtx if e["text"] == "measured" and e["type"] in NVTX_RANGES]
    if len(measured) != 1:
        report(label, False, "the NVTX range 'measured' is in the report", f"found {len(measured)}")
        return
    window = measured[0]
    inside = [k for k in rep.kernels if rep.launching_call(k)
              and window["start"] <= rep.launching_call(k)["start"] <= window["end"]]
    ours = collections.Counter(k["name"] for k in inside)
    theirs = collections.Counter(torchprof["kernels"])
    diff = {n: (ours.get(n, 0), theirs.get(n, 0)) for n in set(ours) | set(theirs) if ours.get(n, 0) != theirs.get(n, 0)}
    report(label, not diff and bool(theirs),
           f"kernel names and counts equal torch.profiler's for the same steps ({sum(theirs.values())} kernels, {len(theirs)} names)",
           "name: (sightline, torch.profiler) " + "; ".join(f"{n[:80]}: {v}" for n, v in sorted(diff.items())[:6]))
    steps = collections.Counter(e["text"] for e in rep.nvtx if e["type"] in NVTX_RANGES and str(e["text"]).startswith("step "))
    wanted = torchprof.get("steps", 0)
    report(label, sum(1 for n in steps if not n.startswith("step -")) == wanted,
           f"torch.cuda.nvtx ranges of the {wanted} measured steps recorded")
    check_launch_links(label, rep)
    check_no_drops(label, rep)


def main(argv):
    if len(argv) < 4:
        print(__doc__)
        return 2
    mode, path = argv[1], argv[2]
    rep = Report(path)
    if mode == "cuda":
        with open(argv[3]) as f:
            check_cuda(argv[4], rep, json.load(f))
    elif mode == "torch":
        with open(argv[3]) as f:
            check_torch(argv[4], rep, json.load(f))
    elif mode == "drops":
        check_no_drops(argv[3], rep)
    else:
        print(__doc__)
        return 2
    return failures


if __name__ == "__main__":
    sys.exit(main(sys.argv))
