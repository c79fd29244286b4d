"""A small torch.compile GPT training step for the step-cost benchmark (step_cost.sh): two
transformer blocks (width 256, 4 heads, sequence 128, batch 16), cross-entropy, backward and
AdamW, compiled with torch.compile. Launch-bound, as many real training steps of small models
are: a profiler's cost per launch shows in the step time.

  --mode bare        plain (also the mode to run under `sightline profile` or `nsys profile`)
  --mode torchprof   the measured steps inside torch.profiler with CPU and CUDA activities

Each step is timed from Python up to a synchronize; the warm-up steps (compilation, autotuning,
allocator) are left out. Prints "step_ms <median>" (what step_cost.sh reads), "steps_ms" with
every measured step, then where the CPU time went, thread by thread (measured_run.py).
"""
import argparse
import statistics
import time

import torch
import torch.nn.functional as F

from measured_run import measured_run

VOCAB, WIDTH, HEADS, LAYERS, SEQUENCE, BATCH = 4096, 256, 4, 2, 128, 16


class Block(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.norm1 = torch.nn.LayerNorm(WIDTH)
        self.qkv = torch.nn.Linear(WIDTH, 3 * WIDTH)
        self.proj = torch.nn.Linear(WIDTH, WIDTH)
        self.norm2 = torch.nn.LayerNorm(WIDTH)
        self.up = torch.nn.Linear(WIDTH, 4 * WIDTH)
        self.down = torch.nn.Linear(4 * WIDTH, WIDTH)

    def forward(self, x):
        batch, length, _ = x.shape
        q, k, v = self.qkv(self.norm1(x)).split(WIDTH, dim=2)
        heads = [t.view(batch, length, HEADS, WIDTH // HEADS).transpose(1, 2) for t in (q, k, v)]
        attended = F.scaled_dot_product_attention(*heads, is_causal=True)
        x = x + self.proj(attended.transpose(1, 2).reshape(batch, length, WIDTH))
        return x + self.down(F.gelu(self.up(self.norm2(x))))


class Gpt(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.tokens = torch.nn.Embedding(VOCAB, WIDTH)
        self.positions = torch.nn.Embedding(SEQUENCE, WIDTH)
        self.blocks = torch.nn.ModuleList(Block() for _ in range(LAYERS))
        self.norm = torch.nn.LayerNorm(WIDTH)
        self.head = torch.nn.Linear(WIDTH, VOCAB, bias=False)

    def forward(self, tokens, targets):
        x = self.tokens(tokens) + self.positions(torch.arange(SEQUENCE, device=tokens.device))
        for block in self.blocks:
            x = block(x)
        logits = self.head(self.norm(x))
        return F.cross_entropy(logits.view(-1, VOCAB), targets.view(-1))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--mode", choices=["bare", "torchprof"], default="bare")
    parser.add_argument("--steps", type=int, default=60)
    parser.add_argument("--warmup", type=int, default=15)
    args = parser.parse_args()
    torch.manual_seed(0)
    model = Gpt().cuda()
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-4)
    compiled = torch.compile(model)
    tokens = torch.randint(0, VOCAB, (BATCH, SEQUENCE), device="cuda")
    targets = torch.randint(0, VOCAB, (BATCH, SEQUENCE), device="cuda")

    def step():
        start = time.perf_counter()
        loss = compiled(tokens, targets)
        loss.backward()
        optimizer.step()
        optimizer.zero_grad(set_to_none=True)
        torch.cuda.synchronize()
        return (time.perf_counter() - start) * 1e3

    for _ in range(args.warmup):
        step()
    steps = measured_run(args.mode, lambda: [step() for _ in range(args.steps)], lambda s: sum(s) / 1e3)
    print(f"step_ms {statistics.median(steps):.4f}")
    print("steps_ms " + " ".join(f"{s:.3f}" for s in steps))


if __name__ == "__main__":
    main()
