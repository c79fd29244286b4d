#!/usr/bin/env python3
"""One benchmark, two builds, side by side: runs BENCH from the build before a change and the
build after it in interleaved rounds (the before build first in odd rounds, second in even ones,
so drift on a shared machine hits both alike) and prints, for every figure the benchmark prints,
each build's median with its range and the ratio after/before, paired by round.

    tests/bench/before_after.py --before ../old/build --after build [--rounds 5] -- bench_model --events 1M

A figure is a number on an output line; lines are matched between runs by their text with the
numbers and verdict words (PASS, MISS) taken out, and numbers by their place on the line. A figure whose two ranges overlap
reads "within noise"; one whose ranges are apart reads "after is lower" or "after is higher";
which of those is better depends on the figure (time or rate), so the table does not judge.
"""
import argparse
import re
import statistics
import subprocess
import sys

NUMBER = re.compile(r"-?\d+(?:\.\d+)?")
VERDICT = re.compile(r"\b(PASS|MISS|FAIL|UNDECIDED)\b")


def figures(output):
    """{(line shape, place): value} for every number of every line of one run's output."""
    found = {}
    for line in output.splitlines():
        shape = VERDICT.sub("", NUMBER.sub("#", line)).strip()
        if "#" not in shape:
            continue
        for place, text in enumerate(NUMBER.findall(line)):
            found[(shape, place)] = float(text)
    return found


def run(build, bench):
    command = [f"{build}/bin/{bench[0]}"] + bench[1:]
    done = subprocess.run(command, capture_output=True, text=True)
    if done.returncode != 0:
        sys.exit(f"before_after.py: {' '.join(command)} exited with {done.returncode}: {done.stderr.strip()[-300:]}")
    return figures(done.stdout)


def describe(before, after):
    low_b, high_b, low_a, high_a = min(before), max(before), min(after), max(after)
    if high_a < low_b:
        return "after is lower"
    if low_a > high_b:
        return "after is higher"
    return "within noise"


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--before", required=True, help="the build folder before the change")
    parser.add_argument("--after", required=True, help="the build folder after it")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("bench", nargs=argparse.REMAINDER, help="-- the benchmark and its arguments")
    args = parser.parse_args()
    bench = args.bench[1:] if args.bench[:1] == ["--"] else args.bench
    if not bench:
        parser.error("name the benchmark after --")

    runs = {"before": [], "after": []}
    for round_index in range(args.rounds):
        order = ("before", "after") if round_index % 2 == 0 else ("after", "before")
        for which in order:
            runs[which].append(run(getattr(args, which), bench))

    print(f"{' '.join(bench)}: {args.rounds} interleaved rounds, medians [min..max]")
    print(f"{'figure':70} | {'before':24} | {'after':24} | after/before (paired median)")
    shared = [key for key in runs["before"][0] if all(key in r for r in runs["before"] + runs["after"])]
    for key in shared:
        before = [r[key] for r in runs["before"]]
        after = [r[key] for r in runs["after"]]
        if len(set(before + after)) == 1:
            continue  # a count or a setting, the same in every run
        ratios = [a / b for a, b in zip(after, before) if b != 0]
        ratio = f"{statistics.median(ratios):.3f}" if ratios else "-"
        shape, place = key
        first_column = shape.split("|")[0].strip()
        label = f"{(first_column if first_column.strip('# ') else shape)[:62]} #{place}"

        def cell(values):
            return f"{statistics.median(values):.4g} [{min(values):.4g}..{max(values):.4g}]"

        print(f"{label:70} | {cell(before):24} | {cell(after):24} | {ratio} {describe(before, after)}")


if __name__ == "__main__":
    main()
