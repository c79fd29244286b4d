"""Summarises tests/gpu/run.sh's overhead rounds ("NAME us_per_iteration" lines): the best and
the median run of each configuration, what each adds to the bare loop, and the PASS/FAIL line
for the target (sightline adds at most half of what torch.profiler adds per launch). The
verdict uses the best runs: on the shared GPU host the same loop varies by +-20% from run to
run, and interference only ever adds time, so the best run is the steadiest estimate of each
configuration's own cost; the medians are printed beside it."""
import collections
import statistics
import sys

runs = collections.defaultdict(list)
for line in open(sys.argv[1]):
    name, _, value = line.partition(" ")
    if value.strip():
        runs[name].append(float(value))
median = {name: statistics.median(values) for name, values in runs.items()}
best = {name: min(values) for name, values in runs.items()}
bare = best["bare"]
for name in ["bare", "torchprof", "sightline", "no-cpu", "no-ctxsw", "no-perfmap", "no-driver", "cuda-only",
             "kernels-only", "cupti-clock", "nvtx-osrt"]:
    if name in median:
        print(f"  {name:15s} best {best[name]:6.2f} us/iteration (+{best[name] - bare:5.2f}), "
              f"median {median[name]:6.2f} (+{median[name] - median['bare']:5.2f}), runs {sorted(runs[name])}")
median_ratio = (median["sightline"] - median["bare"]) / max(median["torchprof"] - median["bare"], 1e-9)
print(f"  medians: sightline adds {median['sightline'] - median['bare']:.2f} us, {median_ratio:.2f}x torch.profiler's "
      f"{median['torchprof'] - median['bare']:.2f} us")
added_torch, added_ours = best["torchprof"] - bare, best["sightline"] - bare
ratio = added_ours / added_torch if added_torch > 0 else float("inf")
print(f"{'PASS' if ratio <= 0.5 else 'FAIL'} overhead: sightline adds {added_ours:.2f} us per launch, "
      f"{ratio:.2f}x the {added_torch:.2f} us torch.profiler adds (best runs; target <= 0.5x)")
