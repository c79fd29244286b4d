"""Judges overhead runs by their medians and says how sure it is.

Input: a file of "CONFIG VALUE" lines written in rounds: each round runs every configuration
once, interleaved, so host drift hits all alike; the k-th line of a configuration belongs to
round k (an empty VALUE is a failed run, left out of its round's comparisons).

For each configuration it prints the median run with a 95% interval, and what it adds to the
reference (bare) run: the median over rounds of the paired differences (this round's run minus
this round's bare run), with a 95% bootstrap interval (rounds resampled). A target
"A<=K*B" (A adds at most K times what B adds) is judged on the ratio of the two medians of
added cost, with its bootstrap interval: PASS when the whole interval lies at or below K, FAIL
when it lies above, UNDECIDED when it straddles K or B's added cost is not told apart from
noise. A target "A<=P%" is judged likewise on what A adds as a share of the reference's
median. Exit status: the number of FAIL verdicts (UNDECIDED is not a failure, nor a pass).

  overhead_stats.py RUNS.txt --unit us/iteration --target 'sightline<=0.5*torchprof'
"""
import argparse
import collections
import random
import re
import statistics
import sys

RESAMPLES = 4000


def read_runs(path):
    runs = collections.defaultdict(list)
    for line in open(path):
        name, _, value = line.strip().partition(" ")
        if name:
            runs[name].append(float(value) if value.strip() else None)
    return runs


def interval(estimates):
    ordered = sorted(e for e in estimates if e is not None)
    if not ordered:
        return float("nan"), float("nan")
    return ordered[int(0.025 * (len(ordered) - 1))], ordered[int(0.975 * (len(ordered) - 1))]


def paired_differences(runs, name, reference):
    """Per round with both runs: name's run minus the reference's."""
    return [(a - b) if a is not None and b is not None else None for a, b in zip(runs[name], runs[reference])]


def median_or_none(values):
    values = [v for v in values if v is not None]
    return statistics.median(values) if values else None


def bootstrap(rounds, statistic, generator):
    """The statistic over RESAMPLES resamplings of the round indices."""
    return [statistic([generator.randrange(rounds) for _ in range(rounds)]) for _ in range(RESAMPLES)]


class Judge:
    def __init__(self, runs, reference, unit):
        self.runs, self.reference, self.unit = runs, reference, unit
        self.rounds = min(len(v) for v in runs.values())
        self.generator = random.Random(20261207)  # the same verdict for the same file

    def added(self, name, picks=None):
        differences = paired_differences(self.runs, name, self.reference)
        return median_or_none([differences[i] for i in (picks if picks is not None else range(self.rounds))])

    def describe(self, name):
        values = self.runs[name][:self.rounds]
        middle = median_or_none(values)
        if middle is None:
            return f"  {name:22s} no run printed a figure"
        low, high = interval(bootstrap(self.rounds, lambda p: median_or_none([values[i] for i in p]), self.generator))
        text = (f"  {name:22s} median {middle:9.3f} {self.unit} [95% {low:.3f}..{high:.3f}], "
                f"best {min(v for v in values if v is not None):.3f}")
        if name != self.reference:
            added = self.added(name)
            low, high = interval(bootstrap(self.rounds, lambda p: self.added(name, p), self.generator))
            base = median_or_none(self.runs[self.reference][:self.rounds])
            text += f"; adds {added:+.3f} [95% {low:+.3f}..{high:+.3f}] ({added / base * 100:+.1f}%)"
        return text

    def share_verdict(self, ours, limit):
        """A adds at most `limit` percent of the reference's median."""
        def share(picks):
            added = self.added(ours, picks)
            base = median_or_none([self.runs[self.reference][i] for i in picks])
            return None if added is None or not base else added / base * 100

        estimate = share(range(self.rounds))
        low, high = interval(bootstrap(self.rounds, share, self.generator))
        sentence = (f"{ours} adds {estimate:+.2f}% [95% {low:+.2f}..{high:+.2f}] to {self.reference}, "
                    f"target <= {limit:g}% ({self.rounds} rounds, medians)")
        if high <= limit:
            return f"PASS {sentence}"
        if low > limit:
            return f"FAIL {sentence}"
        return f"UNDECIDED {sentence}; the interval straddles the target: more rounds needed"

    def verdict(self, target):
        share = re.fullmatch(r"([\w.-]+)<=([\d.]+)%", target)
        if share:
            if share.group(1) not in self.runs:
                return f"UNDECIDED {target}: no runs of {share.group(1)}"
            return self.share_verdict(share.group(1), float(share.group(2)))
        match = re.fullmatch(r"([\w.-]+)<=([\d.]+)\*([\w.-]+)", target)
        if not match:
            raise SystemExit(f"overhead_stats.py: target {target!r} is not of the form A<=K*B or A<=P%")
        ours, limit, theirs = match.group(1), float(match.group(2)), match.group(3)
        if ours not in self.runs or theirs not in self.runs:
            return f"UNDECIDED {target}: no runs of {ours if ours not in self.runs else theirs}"

        def ratio(picks):
            a, b = self.added(ours, picks), self.added(theirs, picks)
            return None if a is None or b is None or b <= 0 else a / b

        estimate = ratio(range(self.rounds))
        low, high = interval(bootstrap(self.rounds, ratio, self.generator))
        theirs_low, _ = interval(bootstrap(self.rounds, lambda p: self.added(theirs, p), self.generator))
        sentence = (f"{ours} adds {self.added(ours):+.3f} {self.unit}, {theirs} adds {self.added(theirs):+.3f}: "
                    f"ratio {estimate if estimate is not None else float('nan'):.2f} [95% {low:.2f}..{high:.2f}], "
                    f"target <= {limit:g} ({self.rounds} rounds, medians)")
        if estimate is None or theirs_low <= 0:
            return f"UNDECIDED {sentence}; what {theirs} adds is not told apart from noise"
        if high <= limit:
            return f"PASS {sentence}"
        if low > limit:
            return f"FAIL {sentence}"
        return f"UNDECIDED {sentence}; the interval straddles the target: more rounds needed"


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("runs")
    parser.add_argument("--reference", default="bare")
    parser.add_argument("--unit", default="us/iteration")
    parser.add_argument("--target", action="append", default=[])
    args = parser.parse_args()
    runs = read_runs(args.runs)
    if args.reference not in runs:
        raise SystemExit(f"overhead_stats.py: {args.runs} has no '{args.reference}' runs to compare with")
    judge = Judge(runs, args.reference, args.unit)
    for name in runs:
        print(judge.describe(name))
    verdicts = [judge.verdict(t) for t in args.target]
    for line in verdicts:
        print(line)
    sys.exit(sum(line.startswith("FAIL") for line in verdicts))


if __name__ == "__main__":
    main()
