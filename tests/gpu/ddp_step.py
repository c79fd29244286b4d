"""A small data-parallel training step (DistributedDataParallel over NCCL), one process per GPU,
started by torchrun, run two ways for the same steps:

  --mode sightline   as is (run it under `sightline profile ... torchrun`): the measured steps are
                     inside an NVTX range "measured", each step inside "step N";
  --mode torchprof   the measured steps inside torch.profiler; each rank's kernel names and counts

Each rank writes DIR/rank-R-MODE.json: its pid, its parent's pid (the torchrun launcher), its GPU
(ordinal and UUID) and, with torchprof, the kernels torch.profiler saw. check_multi_gpu.py
compares them with the report.

  torchrun --nproc_per_node=2 ddp_step.py --mode sightline --out DIR
"""
import argparse
import json
import os

import torch
import torch.distributed as dist

from torch_loop import profiled_kernel_counts


def build(device):
    torch.manual_seed(0)
    torch.backends.cudnn.benchmark = False
    model = torch.nn.Sequential(
        torch.nn.Linear(1024, 2048), torch.nn.ReLU(),
        torch.nn.Linear(2048, 2048), torch.nn.ReLU(),
        torch.nn.Linear(2048, 10)).to(device)
    model = torch.nn.parallel.DistributedDataParallel(model, device_ids=[device.index])
    optimizer = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)
    generator = torch.Generator(device=device).manual_seed(1 + dist.get_rank())
    data = torch.randn(256, 1024, device=device, generator=generator)
    target = torch.randint(0, 10, (256,), device=device, generator=generator)
    return model, optimizer, data, target


def step(model, optimizer, data, target, index):
    torch.cuda.nvtx.range_push(f"step {index}")
    loss = torch.nn.functional.cross_entropy(model(data), target)
    optimizer.zero_grad(set_to_none=True)
    loss.backward()  # DDP all-reduces the gradients here, through NCCL
    optimizer.step()
    torch.cuda.nvtx.range_pop()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--mode", choices=["sightline", "torchprof"], required=True)
    parser.add_argument("--warmup", type=int, default=5)
    parser.add_argument("--steps", type=int, default=20)
    parser.add_argument("--out", required=True)
    args = parser.parse_args()

    local_rank = int(os.environ["LOCAL_RANK"])
    device = torch.device("cuda", local_rank)
    torch.cuda.set_device(device)
    dist.init_process_group("nccl", device_id=device)
    rank = dist.get_rank()
    model, optimizer, data, target = build(device)
    for i in range(args.warmup):
        step(model, optimizer, data, target, -1 - i)
    torch.cuda.synchronize()
    dist.barrier()

    facts = {"rank": rank, "pid": os.getpid(), "ppid": os.getppid(), "device": local_rank,
             "uuid": str(getattr(torch.cuda.get_device_properties(device), "uuid", "")),
             "steps": args.steps, "world": dist.get_world_size()}
    if args.mode == "sightline":
        torch.cuda.nvtx.range_push("measured")
        for i in range(args.steps):
            step(model, optimizer, data, target, i)
        torch.cuda.synchronize()
        torch.cuda.nvtx.range_pop()
    else:
        def measured_steps():
            for i in range(args.steps):
                step(model, optimizer, data, target, i)

        facts["kernels"] = profiled_kernel_counts(measured_steps)
    with open(os.path.join(args.out, f"rank-{rank}-{args.mode}.json"), "w") as f:
        json.dump(facts, f, indent=1, sort_keys=True)
    dist.barrier()
    dist.destroy_process_group()
    print(f"ddp step rank {rank} (pid {os.getpid()}, GPU {local_rank}): {args.steps} steps, mode {args.mode}"
          + (f", torch.profiler saw {sum(facts['kernels'].values())} kernels" if "kernels" in facts else ""))


if __name__ == "__main__":
    main()
