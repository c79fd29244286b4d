"""Checks the GPU metrics (PM sampling) of a `sightline profile` report of gpu_metrics.cu (or
gpu_metrics_torch.py) against what the workload's phases must show, through
`sightline stats --report gpu_metrics_sum`, `sightline info` and the NVTX ranges of the
report's SQLite export.

  check_gpu_metrics.py phases  SIGHTLINE REPORT.rep REPORT.sqlite EXPECTATIONS.json [FREQ]
  check_gpu_metrics.py spacing SIGHTLINE REPORT.rep REPORT.sqlite EXPECTATIONS.json FREQ
  check_gpu_metrics.py long    SIGHTLINE REPORT.rep REPORT.sqlite EXPECTATIONS.json [FREQ]
  check_gpu_metrics.py memory  SIGHTLINE REPORT.rep REPORT.sqlite EXPECTATIONS.json
  check_gpu_metrics.py refused SIGHTLINE REPORT.rep REPORT.sqlite EXPECTATIONS.json
  check_gpu_metrics.py torch   SIGHTLINE REPORT.rep REPORT.sqlite EXPECTATIONS.json [FREQ]

phases:  per NVTX phase (each range shrunk by 10% on both sides), the time-weighted means:
         SMs Active >= 90 in fma, <= 5 in idle and one_block; DRAM Bandwidth >= 50 in
         dram_copy; Tensor Active >= 20 in gemm, <= 2 in fma; every metric series present;
         the mean sample interval within 10% of 1/FREQ (default 10000 Hz).
spacing: only the interval check, over the whole report.
long:    no GPU metrics diagnostic about lost or dropped samples or overflow, and the samples in the
         range "long" at least 95% of its duration x FREQ.
memory:  each of the program's buffers is in the SQLite export's CUDA_GPU_MEMORY_USAGE_EVENTS at
         its address with its size and joins, by correlationId, the cudaMalloc call that made it
         (as in nsys' exports); cuda_gpu_mem_usage_sum's Peak Bytes equals the program's bytes plus
         what the libraries held at its last allocation.
refused: no GPU metric rows, and a diagnostic saying why ("GPU metrics").
torch:   SMs Active has samples (at least half of duration x FREQ) in the expectations'
         "range" while torch.profiler ran, or a GPU metrics diagnostic says why not.

The device checked is the one labelled 0 (or the only one); GPU_METRICS_DEVICE=LABEL picks
another. Each check prints one "PASS label: what" or "FAIL label: what (why)" line; the exit
status is the number of failures. Only the standard library is used.
"""
import csv
import io
import json
import os
import re
import sqlite3
import subprocess
import sys

METRICS = ("SMs Active", "Warp Occupancy", "Tensor Active", "DRAM Bandwidth", "DRAM Read", "DRAM Write",
           "PCIe Read", "PCIe Write", "GPU Active")
HEADER = ("Device", "Metric", "Unit", "Samples", "Mean", "Min", "Max", "Above 50% (%)", "Mean Interval (ns)")
MEMORY_HEADER = ("Device", "Peak Bytes", "Allocations", "Frees")
PHASES = ("idle", "fma", "dram_copy", "gemm", "one_block")
SHRINK = 0.10              # of each phase range, cut on both sides
INTERVAL_TOLERANCE = 0.10
LONG_SAMPLE_SHARE = 0.95
TORCH_SAMPLE_SHARE = 0.50
COMMAND_TIMEOUT_S = 600

failures = 0


def report(label, ok, what, why=""):
    global failures
    failures += 0 if ok else 1
    print(f"{'PASS' if ok else 'FAIL'} {label}: {what}{'' if ok or not why else f' ({why})'}", flush=True)


def note(text):
    print(f"  {text}", flush=True)


class Failure(Exception):
    """A command or a lookup that failed; its text is the reason printed in the FAIL line."""


def run(command):
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=COMMAND_TIMEOUT_S)
    except (OSError, subprocess.SubprocessError) as error:
        raise Failure(f"{' '.join(command[:3])}: {error}")
    if done.returncode != 0:
        tail = (done.stderr or done.stdout).strip().splitlines()[-2:]
        raise Failure(f"{' '.join(command[1:4])} exited with {done.returncode}: {' '.join(tail)[:300]}")
    return done.stdout


def csv_rows(text, header):
    """The rows under `header` in a CSV printout, as dicts; a missing header is a Failure."""
    lines = text.splitlines()
    for index, line in enumerate(lines):
        if line.startswith(header[0] + ","):
            names = next(csv.reader([line]))
            missing = [h for h in header if h not in names]
            if missing:
                raise Failure(f"CSV header lacks {missing}: {line[:200]}")
            rows = []
            for fields in csv.reader(io.StringIO("\n".join(lines[index + 1:]))):
                if not fields or not "".join(fields).strip():
                    break
                rows.append(dict(zip(names, fields)))
            return rows
    raise Failure(f"no CSV header '{','.join(header[:3])},...' in the output: {text.strip()[:200]!r}")


def number(row, column):
    try:
        return float(row[column])
    except (KeyError, TypeError, ValueError):
        raise Failure(f"{row.get('Metric', '?')}: column '{column}' is {row.get(column)!r}, not a number")


class Context:
    def __init__(self, sightline, rep, sqlite_path, expectations_path):
        self.sightline, self.rep, self.sqlite_path = sightline, rep, sqlite_path
        self.expectations_path = expectations_path
        self._info = None

    def expectations(self):
        try:
            with open(self.expectations_path) as f:
                return json.load(f)
        except (OSError, ValueError) as error:
            raise Failure(f"expectations {self.expectations_path}: {error}")

    def metric_rows(self, span=None, allow_empty=False):
        """gpu_metrics_sum's rows, over `span` (start, end) in report ns when given. With
        allow_empty, a printout with no table at all (nothing, or a SKIPPED note) is no rows."""
        command = [self.sightline, "stats", "--report", "gpu_metrics_sum", "--format", "csv"]
        if span:
            command += ["--range", f"{span[0]}:{span[1]}"]
        text = run(command + [self.rep])
        if allow_empty and not any(line.startswith(HEADER[0] + ",") for line in text.splitlines()):
            if not text.strip() or "SKIPPED" in text:
                return []
        return csv_rows(text, HEADER)

    def diagnostics(self):
        """The lines of `sightline info` under "Diagnostics:"."""
        if self._info is None:
            lines = run([self.sightline, "info", self.rep]).splitlines()
            start = next((i for i, line in enumerate(lines) if line.startswith("Diagnostics:")), None)
            if start is None:
                raise Failure("sightline info printed no 'Diagnostics:' section")
            self._info = [line.strip() for line in lines[start + 1:] if line.strip()]
        return self._info

    def ranges(self, name):
        """(start, end) of each NVTX range called `name`, in report time (ns), from the SQLite."""
        try:
            strings = dict(self.query("SELECT id, value FROM StringIds"))
        except Failure:
            strings = {}
        rows = self.query("SELECT start, end, text, textId FROM NVTX_EVENTS WHERE end IS NOT NULL")
        found = []
        for start, end, text, text_id in rows:
            if text is None and text_id is not None:
                text = strings.get(text_id)
            if text == name and end > start:
                found.append((int(start), int(end)))
        return sorted(found)

    def query(self, sql):
        """The rows of `sql` over the SQLite export."""
        if not os.path.exists(self.sqlite_path):
            raise Failure(f"{self.sqlite_path} does not exist (the SQLite export failed?)")
        try:
            db = sqlite3.connect(f"file:{self.sqlite_path}?mode=ro", uri=True)
            try:
                return db.execute(sql).fetchall()
            finally:
                db.close()
        except sqlite3.Error as error:
            raise Failure(f"{self.sqlite_path}: {error}")

    def one_range(self, name):
        found = self.ranges(name)
        if len(found) != 1:
            raise Failure(f"{len(found)} NVTX ranges '{name}' in the report, expected 1")
        return found[0]


def pick_device(rows):
    devices = sorted({row["Device"] for row in rows})
    if not devices:
        raise Failure("no GPU metric rows")
    wanted = os.environ.get("GPU_METRICS_DEVICE")
    if wanted is not None:
        if wanted not in devices:
            raise Failure(f"GPU_METRICS_DEVICE={wanted} is not among the devices {devices}")
        return wanted
    if len(devices) == 1:
        return devices[0]
    for device in devices:
        digits = re.findall(r"\d+", device)
        if digits and int(digits[0]) == 0:
            return device
    return devices[0]


def shrunk(span):
    cut = int((span[1] - span[0]) * SHRINK)
    return span[0] + cut, span[1] - cut


def frequency_argument(extra, default=None):
    if not extra:
        if default is None:
            raise Failure("the requested frequency (Hz) was not given")
        return default
    try:
        value = float(extra[0])
    except ValueError:
        raise Failure(f"frequency '{extra[0]}' is not a number")
    if value <= 0:
        raise Failure(f"frequency {value} is not positive")
    return value


def guarded(label, what, check):
    """Runs `check` (which reports itself); a failure inside becomes one FAIL line with the reason."""
    try:
        check()
    except Failure as error:
        report(label, False, what, str(error))
    except Exception as error:  # never a traceback
        report(label, False, what, f"{type(error).__name__}: {error}")


def shown(row, column, digits=4):
    """A cell for the printout: a number with `digits` significant digits, else the text as is."""
    try:
        return f"{float(row[column]):.{digits}g}"
    except (KeyError, TypeError, ValueError):
        return repr(row.get(column))


def check_interval(ctx, label, frequency, rows=None):
    period = 1e9 / frequency
    what = f"mean sample interval within {INTERVAL_TOLERANCE * 100:.0f}% of {period:.0f} ns ({frequency:g} Hz)"

    def body():
        all_rows = rows if rows is not None else ctx.metric_rows()
        device = pick_device(all_rows)
        intervals = {}
        for row in all_rows:
            if row["Device"] == device and number(row, "Samples") > 1:
                intervals[row["Metric"]] = number(row, "Mean Interval (ns)")
        if not intervals:
            raise Failure(f"no metric with two samples or more on device {device}")
        worst_name = max(intervals, key=lambda n: abs(intervals[n] - period))
        worst = intervals[worst_name]
        error = abs(worst - period) / period
        report(label, error <= INTERVAL_TOLERANCE,
               f"{what}: device {device}, {len(intervals)} metrics at {min(intervals.values()):.0f}.."
               f"{max(intervals.values()):.0f} ns, worst '{worst_name}' {error * 100:.2f}% off")

    guarded(label, what, body)


# (phase, metric, "min" or "max", bound)
PHASE_BOUNDS = (
    ("fma", "SMs Active", "min", 90.0),
    ("idle", "SMs Active", "max", 5.0),
    ("dram_copy", "DRAM Bandwidth", "min", 50.0),
    ("gemm", "Tensor Active", "min", 20.0),
    ("fma", "Tensor Active", "max", 2.0),
    ("one_block", "SMs Active", "max", 5.0),
)


def check_phases(ctx, extra):
    label = "gpu metrics phases"
    frequency = 10000.0
    try:
        frequency = frequency_argument(extra, 10000.0)
        whole = ctx.metric_rows()
        device = pick_device(whole)
    except Failure as error:
        report(label, False, "GPU metric series in the report", str(error))
        return
    present = {row["Metric"] for row in whole if row["Device"] == device and number_or_zero(row) > 0}
    missing = [m for m in METRICS if m not in present]
    report(label, not missing, f"all {len(METRICS)} metric series have samples on device {device}",
           f"missing or empty: {missing}")

    per_phase = {}
    for phase in PHASES:
        try:
            span = shrunk(ctx.one_range(phase))
            rows = ctx.metric_rows(span)
            per_phase[phase] = (span, {row["Metric"]: row for row in rows if row["Device"] == device})
            means = ", ".join(f"{m} {shown(r, 'Mean')}" for m, r in per_phase[phase][1].items())
            note(f"{phase} [{span[0]}, {span[1]}) ns, {(span[1] - span[0]) / 1e6:.1f} ms: {means}")
        except Failure as error:
            per_phase[phase] = error
        except Exception as error:  # never a traceback
            per_phase[phase] = Failure(f"{type(error).__name__}: {error}")

    for phase, name, kind, bound in PHASE_BOUNDS:
        what = f"{phase}: {name} mean {'>=' if kind == 'min' else '<='} {bound:g}"
        found = per_phase[phase]
        if isinstance(found, Failure):
            report(label, False, what, str(found))
            continue
        span, rows = found
        row = rows.get(name)
        try:
            if row is None:
                raise Failure(f"no '{name}' row in the phase's range on device {device}")
            mean, samples = number(row, "Mean"), number(row, "Samples")
            if samples <= 0:
                raise Failure(f"'{name}' has no samples in the phase's range")
        except Failure as error:
            report(label, False, what, str(error))
            continue
        ok = mean >= bound if kind == "min" else mean <= bound
        report(label, ok, f"{what}: measured {mean:.2f} ({samples:.0f} samples, "
               f"min {shown(row, 'Min')}, max {shown(row, 'Max')})")

    check_interval(ctx, label, frequency, whole)


def number_or_zero(row):
    try:
        return float(row["Samples"])
    except (KeyError, TypeError, ValueError):
        return 0.0


def check_spacing(ctx, extra):
    label = "gpu metrics spacing"
    try:
        frequency = frequency_argument(extra)
    except Failure as error:
        report(label, False, "mean sample interval", str(error))
        return
    check_interval(ctx, label, frequency)


def is_metrics_diagnostic(line):
    lowered = line.lower()
    return any(word in lowered for word in ("gpu metric", "pm sampling", "pm-sampling", "counter", "sample"))


def check_long(ctx, extra):
    label = "gpu metrics long"

    def no_loss():
        lost = [line for line in ctx.diagnostics() if is_metrics_diagnostic(line)
                and any(word in line.lower() for word in ("lost", "overflow", "dropped"))]
        report(label, not lost, "no GPU metrics diagnostic about lost or dropped samples or overflow", "; ".join(lost[:3]))

    guarded(label, "no GPU metrics diagnostic about lost or dropped samples or overflow", no_loss)

    what = f"samples in 'long' >= {LONG_SAMPLE_SHARE * 100:.0f}% of duration x frequency"

    def samples():
        frequency = frequency_argument(extra, 10000.0)
        span = ctx.one_range("long")
        rows = ctx.metric_rows(span)
        device = pick_device(rows)
        counts = {row["Metric"]: number(row, "Samples") for row in rows if row["Device"] == device}
        if "SMs Active" not in counts:
            raise Failure(f"no 'SMs Active' row in 'long' on device {device}")
        seconds = (span[1] - span[0]) / 1e9
        expected = seconds * frequency
        fewest_name = min(counts, key=counts.get)
        fewest = counts[fewest_name]
        report(label, fewest >= LONG_SAMPLE_SHARE * expected,
               f"{what}: fewest {fewest:.0f} ('{fewest_name}') of {expected:.0f} expected in {seconds:.2f} s "
               f"at {frequency:g} Hz ({fewest / expected * 100:.2f}%), SMs Active {counts['SMs Active']:.0f}")

    guarded(label, what, samples)


def program_allocations(values):
    """The program's own cudaMalloc'ed buffers from its expectations: {address: bytes}."""
    found = {}
    k = 0
    while f"allocation_{k}_address" in values:
        found[int(values[f"allocation_{k}_address"])] = int(values[f"allocation_{k}_bytes"])
        k += 1
    if not found:
        raise Failure("the expectations list no allocations (allocation_K_address); rebuild gpu_metrics.cu")
    return found


def check_memory(ctx, extra):
    """The Memory row against what the program knows of its own buffers: each of them is in
    CUDA_GPU_MEMORY_USAGE_EVENTS at its address with its size and joins its cudaMalloc call, and
    the row's peak (cuda_gpu_mem_usage_sum) is the program's bytes plus what the libraries
    (cuBLAS, the runtime) held at the moment of the program's last allocation."""
    label = "gpu memory usage"
    what = "cuda_gpu_mem_usage_sum Peak Bytes equals the program's cudaMalloc'ed bytes plus the libraries' then"
    records_sql = ("SELECT m.start, m.address, m.bytes, m.memoryOperationType, COALESCE(s.value, '') "
                   "FROM CUDA_GPU_MEMORY_USAGE_EVENTS m "
                   "LEFT JOIN CUPTI_ACTIVITY_KIND_RUNTIME r ON r.correlationId = m.correlationId "
                   "AND (r.globalTid >> 24) = (m.globalPid >> 24) "
                   "LEFT JOIN StringIds s ON s.id = r.nameId ORDER BY m.start")

    def body():
        values = ctx.expectations().get("values", {})
        own = program_allocations(values)
        expected = int(round(values["allocated_bytes"]))
        records = ctx.query(records_sql)
        own_records = [r for r in records if r[3] == 0 and own.get(int(r[1])) == int(r[2])]
        if len(own_records) < len(own):
            raise Failure(f"only {len(own_records)} of the program's {len(own)} allocations are in "
                          f"CUDA_GPU_MEMORY_USAGE_EVENTS at their address with their size")
        last = max(int(r[0]) for r in own_records)
        library = {}  # address -> bytes: what others held at `last`
        for start, address, size, operation, _call in records:
            if int(start) > last:
                break
            if int(address) in own:
                continue
            if operation == 0:
                library[int(address)] = int(size)
            else:
                library.pop(int(address), None)
        held = sum(library.values())
        text = run([ctx.sightline, "stats", "--report", "cuda_gpu_mem_usage_sum", "--format", "csv", ctx.rep])
        rows = csv_rows(text, MEMORY_HEADER)
        if not rows:
            raise Failure("no rows (was --cuda-memory-usage=true given?)")
        row = max(rows, key=lambda r: number(r, "Peak Bytes"))
        peak = int(number(row, "Peak Bytes"))
        report(label, peak == expected + held,
               f"{what}: peak {peak} on device {row['Device']} = program {expected} + libraries {held} "
               f"({len(library)} allocation(s) not the program's, live at its last allocation); "
               f"allocations {row.get('Allocations', '?')} (program: {len(own)}), frees {row.get('Frees', '?')}")

    guarded(label, what, body)

    label = "gpu memory calls"
    what = "each of the program's allocations joins, by correlationId, the cudaMalloc call that made it"

    def calls():
        own = program_allocations(ctx.expectations().get("values", {}))
        records = ctx.query(records_sql)
        joined = {int(r[1]): r[4] for r in records if r[3] == 0 and own.get(int(r[1])) == int(r[2])}
        by_call = {}
        for start, address, size, operation, call in records:
            if operation == 0:
                by_call[call or "(no call)"] = by_call.get(call or "(no call)", 0) + 1
        malloc = sum(1 for call in joined.values() if call.startswith("cudaMalloc"))
        listed = ", ".join(f"{call} {count}" for call, count in sorted(by_call.items()))
        report(label, malloc == len(own),
               f"{what}: {malloc} of {len(own)} joined cudaMalloc; every allocation by call: {listed}")

    guarded(label, what, calls)


def check_refused(ctx, extra):
    label = "gpu metrics refused"
    what = "no GPU metric rows where the counters are refused"

    def no_rows():
        rows = ctx.metric_rows(allow_empty=True)
        first = f", e.g. {rows[0].get('Device')} {rows[0].get('Metric')}: {rows[0].get('Samples')} samples" if rows else ""
        report(label, not rows, what, f"{len(rows)} rows{first}")

    def diagnostic():
        found = [line for line in ctx.diagnostics() if "gpu metrics" in line.lower()]
        report(label, bool(found), "a diagnostic explains the refusal" + (f": {found[0][:300]}" if found else ""),
               "no diagnostic line mentions 'GPU metrics'")

    guarded(label, what, no_rows)
    guarded(label, "a diagnostic explains the refusal", diagnostic)


def check_torch(ctx, extra):
    label = "gpu metrics torch"
    what = "SMs Active sampled while torch.profiler ran"

    def body():
        frequency = frequency_argument(extra, 10000.0)
        try:
            name = ctx.expectations().get("range", "torch_gemm")
        except Failure:  # the program may have failed after its range: the name is known anyway
            name = "torch_gemm"
        span = ctx.one_range(name)
        seconds = (span[1] - span[0]) / 1e9
        expected = seconds * frequency
        samples, mean, device = 0.0, "-", "?"
        rows = ctx.metric_rows(span, allow_empty=True)
        if rows:
            device = pick_device(rows)
            for row in rows:
                if row["Device"] == device and row["Metric"] == "SMs Active":
                    samples, mean = number(row, "Samples"), shown(row, "Mean", 3)
        if samples >= TORCH_SAMPLE_SHARE * expected:
            report(label, True, f"{what}: {samples:.0f} samples in '{name}' ({seconds:.2f} s, "
                   f"{samples / expected * 100:.1f}% of {expected:.0f}), mean {mean}% on device {device}")
            return
        explained = [line for line in ctx.diagnostics() if "gpu metrics" in line.lower()]
        report(label, bool(explained),
               f"{what}: only {samples:.0f} of {expected:.0f} samples in '{name}'"
               + (f", explained by the diagnostic: {explained[0][:300]}" if explained else ""),
               "and no diagnostic mentions 'GPU metrics'")

    guarded(label, what, body)


MODES = {"phases": check_phases, "spacing": check_spacing, "long": check_long, "memory": check_memory,
         "refused": check_refused, "torch": check_torch}


def main(argv):
    if len(argv) < 6 or argv[1] not in MODES:
        print(__doc__)
        return 2
    mode, sightline, rep, sqlite_path, expectations = argv[1:6]
    ctx = Context(sightline, rep, sqlite_path, expectations)
    try:
        MODES[mode](ctx, argv[6:])
    except Failure as error:
        report(f"gpu metrics {mode}", False, "the check could run", str(error))
    except Exception as error:  # never a traceback: one FAIL line with the reason
        report(f"gpu metrics {mode}", False, "the check could run", f"{type(error).__name__}: {error}")
    return failures


if __name__ == "__main__":
    sys.exit(main(sys.argv))
