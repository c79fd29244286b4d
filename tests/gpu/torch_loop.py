"""A small PyTorch training loop with torch.cuda.nvtx ranges, run two ways for the same steps:

  --mode sightline   as is (run it under `sightline profile`): the measured steps are inside
                     an NVTX range "measured", each step inside "step N";
  --mode torchprof   the measured steps inside torch.profiler (Kineto); the kernel names and
                     counts it saw are written to --out as JSON.

check_report.py compares the kernels `sightline profile` recorded inside "measured" with the
torch.profiler counts.
"""
import argparse
import collections
import json
import os
import tempfile

import torch


def build(seed):
    torch.manual_seed(seed)
    torch.backends.cudnn.benchmark = False
    model = torch.nn.Sequential(
        torch.nn.Linear(1024, 2048), torch.nn.ReLU(),
        torch.nn.Linear(2048, 2048), torch.nn.ReLU(),
        torch.nn.Linear(2048, 10)).cuda()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)
    data = torch.randn(256, 1024, device="cuda")
    target = torch.randint(0, 10, (256,), device="cuda")
    return model, optimizer, data, target


def step(model, optimizer, data, target, index):
    torch.cuda.nvtx.range_push(f"step {index}")
    torch.cuda.nvtx.range_push("forward")
    loss = torch.nn.functional.cross_entropy(model(data), target)
    torch.cuda.nvtx.range_pop()
    torch.cuda.nvtx.range_push("backward")
    optimizer.zero_grad(set_to_none=True)
    loss.backward()
    torch.cuda.nvtx.range_pop()
    torch.cuda.nvtx.range_push("optimizer")
    optimizer.step()
    torch.cuda.nvtx.range_pop()
    torch.cuda.nvtx.mark(f"loss {index}")
    torch.cuda.nvtx.range_pop()


def profiled_kernel_counts(run):
    """Calls run() inside torch.profiler (CPU and CUDA) and returns the kernels it saw, by name."""
    activities = [torch.profiler.ProfilerActivity.CPU, torch.profiler.ProfilerActivity.CUDA]
    with torch.profiler.profile(activities=activities) as prof:
        run()
        torch.cuda.synchronize()
    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, "trace.json")
        prof.export_chrome_trace(path)
        return kernel_counts(path)


def kernel_counts(chrome_trace_path):
    with open(chrome_trace_path) as f:
        trace = json.load(f)
    counts = collections.Counter()
    for event in trace.get("traceEvents", []):
        if event.get("cat") == "kernel":
            counts[event["name"]] += 1
    return counts


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--mode", choices=["sightline", "torchprof"], required=True)
    parser.add_argument("--warmup", type=int, default=5)
    parser.add_argument("--steps", type=int, default=10)
    parser.add_argument("--out")
    args = parser.parse_args()

    model, optimizer, data, target = build(0)
    for i in range(args.warmup):
        step(model, optimizer, data, target, -1 - i)
    torch.cuda.synchronize()

    if args.mode == "sightline":
        torch.cuda.nvtx.range_push("measured")
        for i in range(args.steps):
            step(model, optimizer, data, target, i)
        torch.cuda.synchronize()
        torch.cuda.nvtx.range_pop()
        print(f"torch loop: {args.steps} steps recorded under NVTX range 'measured'")
        return

    def measured_steps():
        for i in range(args.steps):
            step(model, optimizer, data, target, i)

    counts = profiled_kernel_counts(measured_steps)
    with open(args.out, "w") as f:
        json.dump({"kernels": counts, "steps": args.steps}, f, indent=1, sort_keys=True)
    print(f"torch loop: torch.profiler saw {sum(counts.values())} kernels of {len(counts)} names")


if __name__ == "__main__":
    main()
