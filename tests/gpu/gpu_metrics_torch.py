"""GPU metrics next to torch.profiler: an FP16 matmul loop on the GPU for about SECONDS (default
2) inside torch.profiler.profile(activities=[CPU, CUDA]), so torch.profiler (Kineto) uses CUPTI in
the target while `sightline profile --gpu-metrics-devices=...` samples the counters. The loop is
inside the NVTX range "torch_gemm"; check_gpu_metrics.py torch checks that SMs Active has samples
in it (or that a diagnostic says why not).

  gpu_metrics_torch.py EXPECTATIONS.json [--seconds SECONDS] [--size N]

Writes EXPECTATIONS.json: {"range": "torch_gemm", "nvtx": {...}, "values": {...}}.
"""
import argparse
import json
import time

import torch

RANGE = "torch_gemm"


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("expectations")
    parser.add_argument("--seconds", type=float, default=2.0)
    parser.add_argument("--size", type=int, default=8192)
    args = parser.parse_args()

    torch.manual_seed(0)
    a = torch.randn(args.size, args.size, device="cuda", dtype=torch.float16)
    b = torch.randn(args.size, args.size, device="cuda", dtype=torch.float16)
    for _ in range(3):  # cuBLAS handle, workspace and kernel choice before anything is measured
        c = a @ b
    torch.cuda.synchronize()

    activities = [torch.profiler.ProfilerActivity.CPU, torch.profiler.ProfilerActivity.CUDA]
    matmuls = 0
    with torch.profiler.profile(activities=activities) as prof:
        torch.cuda.nvtx.range_push(RANGE)
        start = time.perf_counter()
        while time.perf_counter() - start < args.seconds:
            for _ in range(10):
                c = a @ b
            torch.cuda.synchronize()  # bounds the queue, so the loop ends near SECONDS
            matmuls += 10
        elapsed = time.perf_counter() - start
        torch.cuda.nvtx.range_pop()
    try:  # for the printout only; the attribute names have moved between torch versions before
        kernels = sum(1 for event in prof.events() if event.device_type == torch.autograd.DeviceType.CUDA)
    except (AttributeError, RuntimeError):
        kernels = -1
    tflops = 2.0 * args.size ** 3 * matmuls / elapsed / 1e12
    with open(args.expectations, "w") as f:
        json.dump({"range": RANGE, "nvtx": {RANGE: 1},
                   "values": {"matmuls": matmuls, "seconds": elapsed, "size": args.size,
                              "torch_profiler_gpu_events": kernels, "tflops": tflops, "checksum": float(c[0, 0])}},
                  f, indent=1, sort_keys=True)
    print(f"gpu_metrics_torch: {matmuls} matmuls of {args.size}^3 in {elapsed:.2f} s ({tflops:.0f} TFLOP/s), "
          f"torch.profiler saw {kernels} GPU events")


if __name__ == "__main__":
    main()
