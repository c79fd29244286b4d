"""Checks `sightline analyze` on the reports of bottlenecks.cu's five programs (one per mode):

  check_diagnosis.py SIGHTLINE DIR      DIR holds pageable.rep, pinned-streams.rep, launch-bound.rep,
                                        sync-bound.rep and compute-bound.rep

The verdict checked is the one of the NVTX range "work" (the program's measured part). Prints one
PASS or FAIL line per check; the exit status is the FAIL count.
"""
import json
import os
import subprocess
import sys

failures = 0
PAGEABLE_RULES = ("pageable_copies", "cuda_memcpy_async")
EXPECTED_LIMIT = {
    "pageable": "memory-transfer bound",
    "launch-bound": "CUDA API / launch bound",
    "sync-bound": "synchronization bound",
    "compute-bound": "GPU compute bound",
}


def report(label, ok, what, why=""):
    global failures
    failures += 0 if ok else 1
    print(f"{'PASS' if ok else 'FAIL'} {label}: {what}{'' if ok or not why else f' ({why})'}", flush=True)


def analyze(sightline, path):
    done = subprocess.run([sightline, "analyze", "--format", "json", path], capture_output=True, text=True, timeout=300)
    if done.returncode != 0:
        raise RuntimeError(f"sightline analyze exited with {done.returncode}: {done.stderr.strip()[:300]}")
    return json.loads(done.stdout)


def work_verdict(result):
    for verdict in result["verdicts"]:
        if verdict["scope"] == "work":
            return verdict
    return result["verdicts"][0]


def main(argv):
    if len(argv) != 3:
        print(__doc__)
        return 2
    sightline, folder = argv[1:]
    for mode in ("pageable", "pinned-streams", "launch-bound", "sync-bound", "compute-bound"):
        label = f"diagnosis {mode}"
        path = os.path.join(folder, f"{mode}.rep")
        try:
            result = analyze(sightline, path)
        except (OSError, RuntimeError, ValueError, subprocess.SubprocessError) as error:
            report(label, False, "sightline analyze ran", str(error))
            continue
        verdict = work_verdict(result)
        pageable = [f for f in result["findings"] if f["rule"] in PAGEABLE_RULES]
        if mode == "pageable":
            report(label, bool(pageable), "the pageable copies are a finding",
                   f"findings: {[f['rule'] for f in result['findings']]}")
        if mode == "pinned-streams":
            report(label, not pageable, "no pageable-copy finding on pinned memory",
                   "; ".join(f["summary"] for f in pageable))
        if mode in EXPECTED_LIMIT:
            report(label, verdict["limit"] == EXPECTED_LIMIT[mode],
                   f"verdict '{verdict['limit']}' (expected '{EXPECTED_LIMIT[mode]}'): {verdict['reason']}")
        else:
            print(f"note {label}: verdict '{verdict['limit']}': {verdict['reason']}")
    return failures


if __name__ == "__main__":
    sys.exit(main(sys.argv))
