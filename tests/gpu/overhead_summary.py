"""Summarises tests/gpu/run.sh's overhead rounds ("NAME us_per_iteration" lines): the median of
each configuration, what each adds to the bare loop, and the PASS/FAIL line for the target
(sightline adds at most half of what torch.profiler adds per launch)."""
import collections
import statistics
import sys

runs = collections.defaultdict(list)
for line in open(sys.argv[1]):
    name, _, value = line.partition(" ")
    if value.strip():
        runs[name].append(float(value))
median = {name: statistics.median(values) for name, values in runs.items()}
bare = median["bare"]
for name in ["bare", "torchprof", "sightline", "no-driver", "cuda-only", "kernels-only", "cupti-clock", "nvtx-osrt"]:
    if name in median:
        print(f"  {name:10s} median {median[name]:7.2f} us/iteration (+{median[name] - bare:5.2f}), "
              f"runs {sorted(runs[name])}")
added_torch, added_ours = median["torchprof"] - bare, median["sightline"] - bare
ratio = added_ours / added_torch if added_torch > 0 else float("inf")
print(f"{'PASS' if ratio <= 0.5 else 'FAIL'} overhead: sightline adds {added_ours:.2f} us per launch, "
      f"{ratio:.2f}x the {added_torch:.2f} us torch.profiler adds (target <= 0.5x)")
