"""Launch-bound PyTorch loop for the overhead comparison: a tiny elementwise op on a
one-element tensor, ITERS times, timed from Python around the loop only (not start-up, not the
profiler's post-processing).

  --mode bare        plain (also the mode to run under `sightline profile`)
  --mode torchprof   the loop inside torch.profiler with CPU and CUDA activities

Prints one line: "us_per_iteration <value>".
"""
import argparse
import time

import torch


def loop(x, iterations):
    torch.cuda.synchronize()
    start = time.perf_counter()
    for _ in range(iterations):
        x.add_(1.0)
    torch.cuda.synchronize()
    return (time.perf_counter() - start) / iterations * 1e6


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--mode", choices=["bare", "torchprof"], default="bare")
    parser.add_argument("--iters", type=int, default=20000)
    args = parser.parse_args()
    x = torch.zeros(1, device="cuda")
    loop(x, 2000)  # warm-up: context, kernels loaded, allocator settled
    if args.mode == "bare":
        us = loop(x, args.iters)
    else:
        activities = [torch.profiler.ProfilerActivity.CPU, torch.profiler.ProfilerActivity.CUDA]
        with torch.profiler.profile(activities=activities):
            us = loop(x, args.iters)
    print(f"us_per_iteration {us:.3f}")


if __name__ == "__main__":
    main()
