"""Launch-bound PyTorch loop for the overhead comparison: a tiny elementwise op on a
one-element tensor, ITERS times, timed from Python around the loop only (not start-up, not the
profiler's post-processing).

  --mode bare        plain (also the mode to run under `sightline profile` or `nsys profile`)
  --mode torchprof   the loop inside torch.profiler with CPU and CUDA activities

Prints "us_per_iteration <value>" (what overhead.sh reads), then the loop's tenths
("tenths_us min median max": a run slowed in one stretch differs from one slowed throughout)
and where the CPU time went, thread by thread (measured_run.py).
"""
import argparse
import statistics
import time

import torch

from measured_run import measured_run


def loop(x, iterations):
    """Microseconds per iteration of each tenth of the loop (the last one synchronizes)."""
    tenths = []
    torch.cuda.synchronize()
    for tenth in range(10):
        start = time.perf_counter()
        for _ in range(iterations // 10):
            x.add_(1.0)
        if tenth == 9:
            torch.cuda.synchronize()
        tenths.append((time.perf_counter() - start) / (iterations // 10) * 1e6)
    return tenths


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--mode", choices=["bare", "torchprof"], default="bare")
    parser.add_argument("--iters", type=int, default=20000)
    args = parser.parse_args()
    x = torch.zeros(1, device="cuda")
    loop(x, 2000)  # warm-up: context, kernels loaded, allocator settled
    tenths = measured_run(args.mode, lambda: loop(x, args.iters), lambda t: sum(t) * args.iters / 10 / 1e6)
    print(f"us_per_iteration {statistics.fmean(tenths):.3f}")
    print(f"tenths_us {min(tenths):.2f} {statistics.median(tenths):.2f} {max(tenths):.2f}")


if __name__ == "__main__":
    main()
