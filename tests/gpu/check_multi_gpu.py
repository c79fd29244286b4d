"""Checks the report of a 2-GPU data-parallel run (ddp_step.py under torchrun) against what each
rank said about itself and against torch.profiler's run of the same steps.

  check_multi_gpu.py SIGHTLINE REPORT.rep REPORT.sqlite RANK_DIR

RANK_DIR holds rank-R-sightline.json and rank-R-torchprof.json of every rank (ddp_step.py).
Prints one PASS or FAIL line per check; the exit status is the FAIL count.
"""
import collections
import glob
import json
import os
import sys

import check_gpu_metrics
import check_report
from check_report import NVTX_RANGES, pid_of, report

LABEL = "multi-gpu"


def load_ranks(folder, mode):
    ranks = {}
    for path in glob.glob(os.path.join(folder, f"rank-*-{mode}.json")):
        with open(path) as f:
            facts = json.load(f)
        ranks[facts["rank"]] = facts
    return ranks


def plain_uuid(text):
    text = str(text or "").lower()
    return text[4:] if text.startswith("gpu-") else text


def report_device_of(rep, facts):
    """The report's device id of the rank's GPU: by UUID where both know it, else its ordinal."""
    try:
        gpus = rep.rows("SELECT id, uuid FROM TARGET_INFO_GPU")
    except Exception:
        gpus = []
    for device, uuid in gpus:
        if uuid and plain_uuid(uuid) == plain_uuid(facts.get("uuid")):
            return device
    return facts["device"]


def nvtx_of(rep, pid, text):
    return sorted((e for e in rep.nvtx if e["type"] in NVTX_RANGES and pid_of(e["gtid"]) == pid
                   and e["text"] == text and e["end"] is not None), key=lambda e: e["start"])


def launched_in(rep, kernels, window):
    """The kernels whose launching call began inside the NVTX range `window`."""
    return [k for k in kernels if rep.launching_call(k)
            and window["start"] <= rep.launching_call(k)["start"] <= window["end"]]


def check_processes(rep, ranks):
    processes = dict(rep.rows("SELECT pid, name FROM PROCESSES"))
    pids = sorted(f["pid"] for f in ranks.values())
    launchers = sorted({f["ppid"] for f in ranks.values()})
    report(LABEL, len(ranks) >= 2 and len(set(pids)) == len(ranks) and all(p in processes for p in pids),
           f"the {len(ranks)} ranks are separate processes of the report (pids {pids})",
           f"report processes: {sorted(processes.items())[:8]}")
    report(LABEL, len(launchers) == 1 and launchers[0] in processes,
           f"the torchrun launcher (pid {', '.join(map(str, launchers))}) is in the report too",
           f"report processes: {sorted(processes.items())[:8]}")


def check_devices(rep, ranks):
    for rank, facts in sorted(ranks.items()):
        mine = [k for k in rep.kernels if pid_of(k["gpid"]) == facts["pid"]]
        device = report_device_of(rep, facts)
        devices = collections.Counter(k["device"] for k in mine)
        report(LABEL, bool(mine) and set(devices) == {device},
               f"rank {rank}: its {len(mine)} kernels all ran on its GPU (report device {device})",
               f"kernels per device: {dict(devices)}")


def check_nccl_per_step(rep, ranks):
    per_rank = {}
    for rank, facts in sorted(ranks.items()):
        nccl = [k for k in rep.kernels if pid_of(k["gpid"]) == facts["pid"] and k["short"].startswith("nccl")]
        counts = []
        for i in range(facts["steps"]):
            steps = nvtx_of(rep, facts["pid"], f"step {i}")
            counts.append(len(launched_in(rep, nccl, steps[0])) if len(steps) == 1 else -1)
        per_rank[rank] = counts
        report(LABEL, counts and min(counts) > 0,
               f"rank {rank}: NCCL kernels in every one of its {facts['steps']} steps "
               f"({min(counts, default=0)}..{max(counts, default=0)} a step)",
               f"per step (-1: the step's NVTX range is missing): {counts}")
    lists = list(per_rank.values())
    report(LABEL, len(lists) >= 2 and all(c == lists[0] for c in lists),
           "every step launched the same number of NCCL kernels on each rank",
           "; ".join(f"rank {r}: {c}" for r, c in sorted(per_rank.items())))


def check_against_torch(rep, ranks, torch_ranks):
    for rank, facts in sorted(ranks.items()):
        theirs = collections.Counter(torch_ranks.get(rank, {}).get("kernels", {}))
        measured = nvtx_of(rep, facts["pid"], "measured")
        if len(measured) != 1:
            report(LABEL, False, f"rank {rank}: the NVTX range 'measured' is in the report", f"found {len(measured)}")
            continue
        mine = [k for k in rep.kernels if pid_of(k["gpid"]) == facts["pid"]]
        ours = collections.Counter(k["name"] for k in launched_in(rep, mine, measured[0]))
        diff = {n: (ours.get(n, 0), theirs.get(n, 0)) for n in set(ours) | set(theirs)
                if ours.get(n, 0) != theirs.get(n, 0)}
        report(LABEL, not diff and bool(theirs),
               f"rank {rank}: kernel names and counts equal torch.profiler's for the same steps "
               f"({sum(theirs.values())} kernels, {len(theirs)} names)",
               "name: (sightline, torch.profiler) " + "; ".join(f"{n[:80]}: {v}" for n, v in sorted(diff.items())[:6]))


def check_metrics(sightline, rep_path, sqlite_path, rep, ranks):
    context = check_gpu_metrics.Context(sightline, rep_path, sqlite_path, None)
    for rank, facts in sorted(ranks.items()):
        measured = nvtx_of(rep, facts["pid"], "measured")
        device = report_device_of(rep, facts)
        what = f"rank {rank}: GPU metrics of its GPU (device {device}) show SMs active during its steps"
        if len(measured) != 1:
            report(LABEL, False, what, "no single 'measured' range")
            continue
        try:
            rows = context.metric_rows((measured[0]["start"], measured[0]["end"]))
        except check_gpu_metrics.Failure as error:
            report(LABEL, False, what, str(error))
            continue
        active = [r for r in rows if str(r["Device"]) == str(device) and r["Metric"] == "SMs Active"]
        mean = float(active[0]["Mean"]) if active else 0.0
        samples = float(active[0]["Samples"]) if active else 0.0
        devices = sorted({r["Device"] for r in rows})
        report(LABEL, mean > 0, f"{what}: mean {mean:.2f}% over {samples:.0f} samples (metric rows on devices {devices})",
               f"rows: {[(r['Device'], r['Metric'], r.get('Mean')) for r in rows][:6]}")


def main(argv):
    if len(argv) != 5:
        print(__doc__)
        return 2
    sightline, rep_path, sqlite_path, folder = argv[1:]
    ranks, torch_ranks = load_ranks(folder, "sightline"), load_ranks(folder, "torchprof")
    report(LABEL, len(ranks) >= 2 and set(ranks) == set(torch_ranks),
           f"every rank of both runs wrote its facts ({sorted(ranks)} under sightline, {sorted(torch_ranks)} under torch.profiler)")
    if len(ranks) < 2:
        return check_report.failures
    rep = check_report.Report(sqlite_path)
    check_processes(rep, ranks)
    check_devices(rep, ranks)
    check_nccl_per_step(rep, ranks)
    check_report.check_launch_links(LABEL, rep)
    check_report.check_no_drops(LABEL, rep)
    check_against_torch(rep, ranks, torch_ranks)
    check_metrics(sightline, rep_path, sqlite_path, rep, ranks)
    return check_report.failures


if __name__ == "__main__":
    sys.exit(main(sys.argv))
