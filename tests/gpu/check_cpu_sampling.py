"""Checks a profile of cpu_sampling_torch.py through its SQLite export (Nsight Systems' tables):
  - within the data_step NVTX ranges, make_batch is among the 3 Python functions (frames named
    through CPython 3.12's perf map, whose module is their script) found on the most samples'
    stacks; native frames every sample shares (_start, Py_RunMain...) are not counted;
  - every cudaStreamSynchronize call at least THRESHOLD_NS long carries a call chain.
Usage: check_cpu_sampling.py REPORT.sqlite THRESHOLD_NS. Prints PASS/FAIL lines."""
import sqlite3
import sys


def main():
    db = sqlite3.connect(sys.argv[1])
    threshold = int(sys.argv[2])
    fails = 0

    def say(ok, text):
        nonlocal fails
        fails += 0 if ok else 1
        print(f"{'PASS' if ok else 'FAIL'} cpu-sampling: {text}")

    ranges = db.execute(
        "SELECT start, end FROM NVTX_EVENTS WHERE text = 'data_step' AND end IS NOT NULL ORDER BY start").fetchall()
    say(len(ranges) == 6, f"{len(ranges)} data_step ranges (6 expected)")
    samples_in = 0
    counts = {}
    for start, end in ranges:
        rows = db.execute(
            "SELECT c.id, s.value FROM COMPOSITE_EVENTS e JOIN SAMPLING_CALLCHAINS c ON c.id = e.id "
            "JOIN StringIds s ON s.id = c.symbol JOIN StringIds m ON m.id = c.module "
            "WHERE e.start >= ? AND e.start < ? AND m.value LIKE '%.py'", (start, end)).fetchall()
        per_sample = {}
        for sample, function in rows:
            per_sample.setdefault(sample, set()).add(function)
        samples_in += len(per_sample)
        for functions in per_sample.values():
            for f in functions:
                counts[f] = counts.get(f, 0) + 1
    top = sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))[:3]
    names = [f for f, _ in top]
    say(samples_in >= 100, f"{samples_in} CPU samples with Python frames inside the data_step ranges")
    say("make_batch" in names, f"top Python functions on the data_step stacks: {top}")

    calls = db.execute(
        "SELECT r.callchainId FROM CUPTI_ACTIVITY_KIND_RUNTIME r JOIN StringIds s ON s.id = r.nameId "
        "WHERE s.value LIKE 'cudaStreamSynchronize%' AND r.end - r.start >= ?", (threshold,)).fetchall()
    with_stack = sum(1 for (chain,) in calls if chain is not None)
    say(len(calls) > 0 and with_stack == len(calls),
        f"{with_stack} of {len(calls)} cudaStreamSynchronize calls >= {threshold} ns carry a call chain")
    if calls and with_stack:
        chain = next(c for (c,) in calls if c is not None)
        frames = db.execute(
            "SELECT s.value FROM CUDA_CALLCHAINS c JOIN StringIds s ON s.id = c.symbol WHERE c.id = ? "
            "ORDER BY c.stackDepth LIMIT 8", (chain,)).fetchall()
        print("cpu-sampling: first synchronize stack: " + " <- ".join(f for (f,) in frames))
    return fails


if __name__ == "__main__":
    sys.exit(main())
