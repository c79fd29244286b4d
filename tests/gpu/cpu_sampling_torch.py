"""A training-like loop whose data step is pure Python on the CPU and whose GPU step waits on the
GPU: check_cpu_sampling.py finds make_batch (the data step's function, named through CPython's
perf map) among the top functions of the data_step NVTX range, and a stack on each long
cudaStreamSynchronize call (--cudabacktrace)."""
import torch


def make_batch(n):
    total = 0
    for i in range(n):
        total += (i * i) % 7
    return total


def gpu_step(x):
    for _ in range(40):
        x = x @ x
        x = x / x.norm()
    torch.cuda.current_stream().synchronize()
    return x


def main():
    x = torch.randn(4096, 4096, device="cuda")
    gpu_step(x)  # warm-up: cuBLAS handles, kernels loaded
    for _ in range(6):
        torch.cuda.nvtx.range_push("data_step")
        make_batch(1_500_000)
        torch.cuda.nvtx.range_pop()
        torch.cuda.nvtx.range_push("gpu_step")
        x = gpu_step(x)
        torch.cuda.nvtx.range_pop()
    print("cpu_sampling_torch done")


if __name__ == "__main__":
    main()
