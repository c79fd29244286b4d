#!/usr/bin/env bash
# The collector's GPU checks, in one command: builds the test programs with nvcc, profiles each
# with `sightline profile`, exports the reports to SQLite and checks them (check_report.py),
# compares a PyTorch loop with torch.profiler, checks the GPU metrics (check_gpu_metrics.py) and
# measures the overheads.
#
#   tests/gpu/run.sh            results in $OUT (default ./gpu-results): results.txt, reports/
#   SIGHTLINE_GPU_ONLY=metrics tests/gpu/run.sh     the GPU metrics section alone
#   SIGHTLINE_GPU_ONLY=cpu tests/gpu/run.sh         the CPU sampling section alone
#   SIGHTLINE_GPU_ONLY=diagnosis tests/gpu/run.sh   `sightline analyze` on five programs, each limited
#                                                   by one thing (bottlenecks.cu, check_diagnosis.py)
#   SIGHTLINE_GPU_ONLY=multigpu tests/gpu/run.sh    the 2-GPU data-parallel step alone (torchrun,
#                                                   NCCL; skipped where fewer than 2 GPUs are)
#   SIGHTLINE_GPU_ONLY=overhead tests/gpu/run.sh    what profilers add: a torch.compile training step
#                                                   (step_cost.sh: bare, torch.profiler, nsys,
#                                                   sightline variants) and a launch-bound loop
#                                                   (overhead.sh), judged by medians with intervals;
#                                                   STEP_ROUNDS, STEP_CONFIGS, LOOP_ROUNDS and
#                                                   LOOP_VARIANTS choose what runs; STEP_BUDGET_S and
#                                                   LOOP_BUDGET_S bound each one's seconds (rounds.sh)
#   SIGHTLINE_GPU_ONLY=core tests/gpu/run.sh        everything but those five (each call fits in
#                                                   10 minutes on a machine that limits calls)
#   GPU_METRICS_EXPECT_REFUSED=1 tests/gpu/run.sh   where the GPU refuses its counters (gVisor):
#                                                   the metrics section checks the refusal and the
#                                                   GPU memory records only
#
# Needs: an NVIDIA GPU, CUDA at /usr/local/cuda (or CUDA_HOME) with nvcc, python3 with torch,
# and a built Sightline whose sightline binary has no shared protobuf/zstd/sqlite dependency:
# $SIGHTLINE_BUILD (default build/) must hold bin/sightline (built with the collector, and
# -DSIGHTLINE_STATIC_DEPS=ON for hosts without our libraries) and lib/libsightline-inject.so;
# bin/bench_collector and bin/bench_processing (the benchmarks) are run when they are there.
# Every check prints a PASS or FAIL line into results.txt (an overhead check whose noise is too
# wide to tell prints UNDECIDED); the exit status is the FAIL count.
set -u

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
build=${SIGHTLINE_BUILD:-$root/build}
out=${OUT:-$root/gpu-results}
cuda=${CUDA_HOME:-/usr/local/cuda}
mkdir -p "$out/bin" "$out/reports" "$out/logs"
results="$out/results.txt"
: > "$results"

say() { echo "$*" | tee -a "$results"; }
fail_setup() { say "FAIL setup: $*"; exit 1; }

sightline="$build/bin/sightline"
[ -x "$sightline" ] || fail_setup "$sightline not found (set SIGHTLINE_BUILD to the build folder)"
"$sightline" profile --help > /dev/null 2>&1 || fail_setup "$sightline was built without the collector"
profile=("$sightline" profile)

# SIGHTLINE_GPU_ONLY=core|metrics|cpu|diagnosis|multigpu|overhead runs that part alone, or several
# named with spaces between ("cpu overhead"); the machine lines and the tally still print. Unset
# or empty, every section runs.
only=${SIGHTLINE_GPU_ONLY:-}
for section in $only; do
    case "$section" in
        core | metrics | cpu | diagnosis | multigpu | overhead) ;;
        *) fail_setup "SIGHTLINE_GPU_ONLY=$only: only 'core', 'metrics', 'cpu', 'diagnosis', 'multigpu' and 'overhead' can run alone" ;;
    esac
done
runs() { [ -z "$only" ] || [[ " $only " == *" $1 "* ]]; }

say "== machine"
nvidia-smi --query-gpu=name,driver_version,compute_cap,memory.total --format=csv,noheader 2>&1 | tee -a "$results"
say "nvcc: $("$cuda/bin/nvcc" --version | tail -1)"
say "torch: $(python3 -c 'import torch; print(torch.__version__, "cuda", torch.version.cuda)' 2>&1 | tail -1)"
say "profiler: ${profile[*]}"

if runs core; then
    say "== build"
    for program in reduction copies graph capture_range launch_rate driver_launch; do
        "$cuda/bin/nvcc" -O2 -std=c++17 -arch=native -I"$here" -I"$cuda/include" -o "$out/bin/$program" \
            "$here/$program.cu" -lcuda > "$out/logs/build-$program.txt" 2>&1 || fail_setup "nvcc $program.cu (see logs/build-$program.txt)"
    done
    g++ -O2 -I"$cuda/include" -o "$out/bin/nvtx_flood" "$here/nvtx_flood.cpp" -ldl || fail_setup "g++ nvtx_flood.cpp"
    g++ -O2 -o "$out/bin/clock_cost" "$here/clock_cost.cpp" || fail_setup "g++ clock_cost.cpp"
    say "built: reduction copies graph capture_range launch_rate driver_launch nvtx_flood clock_cost"
fi

# profile NAME [sightline options...] -- COMMAND...: profiles, exports to SQLite, keeps the log.
profile_run() {
    local name=$1; shift
    local options=()
    while [ "$1" != "--" ]; do options+=("$1"); shift; done
    shift
    "${profile[@]}" -f -o "$out/reports/$name.rep" "${options[@]}" "$@" > "$out/logs/$name.txt" 2>&1
    local status=$?
    date +%s%N > "$out/logs/$name.done-ns"  # when 'Generated:' was printed
    "$sightline" export --type sqlite -f -o "$out/reports/$name.sqlite" "$out/reports/$name.rep" \
        >> "$out/logs/$name.txt" 2>&1 || say "FAIL $name: export to SQLite (see logs/$name.txt)"
    return $status
}

# check NAME MODE ARGS...: runs check_report.py and records its lines.
check() {
    local name=$1 mode=$2; shift 2
    python3 "$here/check_report.py" "$mode" "$out/reports/$name.sqlite" "$@" 2>&1 | tee -a "$results"
}

if runs core; then
    say "== CUDA programs"
    for streams in 1 4 8; do
        name="reduction-$streams"
        profile_run "$name" -t cuda,nvtx,osrt -- "$out/bin/reduction" "$streams" "$out/reports/$name.json" \
            || say "FAIL $name: the program failed (see logs/$name.txt)"
        check "$name" cuda "$out/reports/$name.json" "$name"
    done
    profile_run copies -t cuda,nvtx -- "$out/bin/copies" "$out/reports/copies.json" || say "FAIL copies: program failed"
    check copies cuda "$out/reports/copies.json" copies
    profile_run graph -t cuda,nvtx -- "$out/bin/graph" "$out/reports/graph.json" || say "FAIL graph: program failed"
    check graph cuda "$out/reports/graph.json" graph
    profile_run capture -t cuda -c cudaProfilerApi -- "$out/bin/capture_range" "$out/reports/capture.json" \
        || say "FAIL capture: program failed"
    check capture cuda "$out/reports/capture.json" capture-range
    profile_run driver -t cuda,nvtx -- "$out/bin/driver_launch" "$out/reports/driver.json" \
        || say "FAIL driver: program failed"
    check driver cuda "$out/reports/driver.json" driver-api
    profile_run launch-rate -t cuda -- "$out/bin/launch_rate" "$out/reports/launch-rate.json" 2 \
        || say "FAIL launch-rate: program failed"
    say "$(grep -h 'launch rate' "$out/logs/launch-rate.txt")"
    check launch-rate cuda "$out/reports/launch-rate.json" launch-rate
fi

# check_metrics NAME MODE ARGS...: runs check_gpu_metrics.py on reports/NAME.rep, .sqlite and .json.
check_metrics() {
    local name=$1 mode=$2; shift 2
    python3 "$here/check_gpu_metrics.py" "$mode" "$sightline" "$out/reports/$name.rep" "$out/reports/$name.sqlite" \
        "$out/reports/$name.json" "$@" 2>&1 | tee -a "$results"
}

if runs metrics; then
    say "== GPU metrics"
    # GPU_METRICS_EXPECT_REFUSED=1 where the counters are refused (the H200 machines under gVisor):
    # one profile, and the check that the report says why it has no metrics.
    metrics=(--gpu-metrics-devices=all --gpu-metrics-frequency=10000)
    # --cuda-memory-usage where this build has it (the memory checks need it); it needs no
    # counters, so it is checked where they are refused too.
    memory=()
    "$sightline" profile --help 2>&1 | grep -q -- --cuda-memory-usage && memory=(--cuda-memory-usage=true)
    if ! "$cuda/bin/nvcc" -O2 -std=c++17 -arch=native -I"$here" -I"$cuda/include" -o "$out/bin/gpu_metrics" \
        "$here/gpu_metrics.cu" -lcuda -lcublas -Xlinker -rpath="$cuda/lib64" > "$out/logs/build-gpu_metrics.txt" 2>&1; then
        say "FAIL gpu metrics: nvcc gpu_metrics.cu (see logs/build-gpu_metrics.txt)"
    elif [ "${GPU_METRICS_EXPECT_REFUSED:-0}" = 1 ]; then
        profile_run gm-refused -t cuda,nvtx "${metrics[@]}" "${memory[@]}" -- \
            "$out/bin/gpu_metrics" "$out/reports/gm-refused.json" \
            || say "FAIL gm-refused: the program failed (see logs/gm-refused.txt)"
        check_metrics gm-refused refused
        if [ ${#memory[@]} -gt 0 ]; then
            check_metrics gm-refused memory
        else
            say "FAIL gm-refused memory: this build has no --cuda-memory-usage"
        fi
    else
        profile_run gm-phases -t cuda,nvtx "${metrics[@]}" "${memory[@]}" -- \
            "$out/bin/gpu_metrics" "$out/reports/gm-phases.json" \
            || say "FAIL gm-phases: the program failed (see logs/gm-phases.txt)"
        grep -h -E '^(device 0|gpu_metrics)' "$out/logs/gm-phases.txt" | tee -a "$results"
        check_metrics gm-phases phases 10000
        if [ ${#memory[@]} -gt 0 ]; then
            check_metrics gm-phases memory
        else
            say "FAIL gm-phases memory: this build has no --cuda-memory-usage"
        fi
        profile_run gm-100k -t cuda,nvtx --gpu-metrics-devices=all --gpu-metrics-frequency=100000 -- \
            "$out/bin/gpu_metrics" "$out/reports/gm-100k.json" \
            || say "FAIL gm-100k: the program failed (see logs/gm-100k.txt)"
        check_metrics gm-100k spacing 100000
        # The target notes when it exits: from then to 'Generated:' is the processing time.
        profile_run gm-long -t cuda,nvtx "${metrics[@]}" -- \
            sh -c '"$0" "$1" --seconds 60 && date +%s%N > "$2"' "$out/bin/gpu_metrics" "$out/reports/gm-long.json" \
            "$out/logs/gm-long.exit-ns" || say "FAIL gm-long: the program failed (see logs/gm-long.txt)"
        check_metrics gm-long long 10000
        python3 - "$out/reports/gm-long.rep" "$out/logs/gm-long.exit-ns" "$out/logs/gm-long.done-ns" <<'EOF' | tee -a "$results"
import os, sys
report, exit_file, done_file = sys.argv[1:4]
try:
    exited, done = (int(open(f).read()) for f in (exit_file, done_file))
except (OSError, ValueError) as error:
    print(f"FAIL gpu metrics long: no exit or end time to measure with ({error})")
    sys.exit()
rate = os.path.getsize(report) / 60.0 / 1000
print(f"{'PASS' if rate <= 100 else 'FAIL'} gpu metrics long: the whole report grew {rate:.1f} KB per second of "
      f"10 kHz sampling, tracing included (target <= 100 KB/s for the metrics alone)")
print(f"gpu metrics long: 'Generated:' {(done - exited) / 1e9:.2f} s after the 60 s target exited")
EOF
        # A GPU another sampler holds refuses its counters: the second profile records the rest
        # and says why (CUPTI_ERROR_HARDWARE_BUSY, measured on the H100 and H200 machines).
        "${profile[@]}" -q -f -o "$out/reports/gm-holder.rep" -t cuda "${metrics[@]}" -- \
            "$out/bin/gpu_metrics" "$out/reports/gm-holder.json" --seconds 12 > "$out/logs/gm-holder.txt" 2>&1 &
        holder=$!
        sleep 4
        profile_run gm-busy -t cuda,nvtx "${metrics[@]}" -- "$out/bin/gpu_metrics" "$out/reports/gm-busy.json" \
            || say "FAIL gm-busy: the program failed (see logs/gm-busy.txt)"
        check_metrics gm-busy refused
        wait "$holder"
        # torch.profiler uses CUPTI in the target while the counters are sampled.
        profile_run gm-torch -t cuda,nvtx "${metrics[@]}" -- python3 "$here/gpu_metrics_torch.py" "$out/reports/gm-torch.json" \
            || say "FAIL gm-torch: the program failed (see logs/gm-torch.txt)"
        grep -h '^gpu_metrics_torch' "$out/logs/gm-torch.txt" | tee -a "$results"
        check_metrics gm-torch torch 10000
    fi
fi

if runs cpu; then
    say "== CPU samples and CUDA API backtraces (PyTorch, CPython's perf map)"
    profile_run cpu-torch -t cuda,nvtx --cudabacktrace=sync:2000000 -- python3 "$here/cpu_sampling_torch.py" \
        || say "FAIL cpu-torch: the program failed (see logs/cpu-torch.txt)"
    python3 "$here/check_cpu_sampling.py" "$out/reports/cpu-torch.sqlite" 2000000 | tee -a "$results"
    say "-- Python frames in order through a C extension without frame pointers (python_ext_stacks.sh)"
    SIGHTLINE_BUILD="$build" OUT="$out" bash "$here/python_ext_stacks.sh" 2> "$out/logs/python-stacks.txt" \
        | grep -E '^(PASS|MISS|FAIL|python-stacks)' | tee -a "$results"
    say "-- sampling overhead and processing rate (tests/bench/cpu_sampling.sh)"
    g++ -O2 -fno-omit-frame-pointer -pthread -o "$out/bin/cpu_target_fp" "$root/tests/unit/collector/cpu_target.cpp" \
        || fail_setup "g++ cpu_target.cpp"
    CPU_TARGET="$out/bin/cpu_target_fp" RUNS=7 bash "$root/tests/bench/cpu_sampling.sh" "$build" | tee -a "$results"
fi

if runs diagnosis; then
    say "== diagnosis: sightline analyze on programs limited by copies, launches, synchronization, compute"
    if "$cuda/bin/nvcc" -O2 -std=c++17 -arch=native -I"$here" -I"$cuda/include" -o "$out/bin/bottlenecks" \
        "$here/bottlenecks.cu" -lcuda > "$out/logs/build-bottlenecks.txt" 2>&1; then
        for mode in pageable pinned-streams launch-bound sync-bound compute-bound; do
            "${profile[@]}" -f -o "$out/reports/$mode.rep" -t cuda,nvtx,osrt "$out/bin/bottlenecks" "$mode" \
                > "$out/logs/diagnosis-$mode.txt" 2>&1 || say "FAIL diagnosis $mode: the program failed (see logs/diagnosis-$mode.txt)"
        done
        python3 "$here/check_diagnosis.py" "$sightline" "$out/reports" 2>&1 | tee -a "$results"
    else
        say "FAIL diagnosis: nvcc bottlenecks.cu (see logs/build-bottlenecks.txt)"
    fi
fi

if runs multigpu; then
    say "== 2-GPU data-parallel step: torchrun, DistributedDataParallel over NCCL, GPU metrics of both"
    gpus=$(nvidia-smi --list-gpus 2> /dev/null | wc -l)
    if [ "$gpus" -lt 2 ]; then
        say "skipped: $gpus GPU(s) here, the 2-GPU step needs 2"
    else
        # NVLink multicast stays off: a program that uses it can take a shared host's GPUs down.
        export NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1
        ranks="$out/reports/ddp-ranks"
        mkdir -p "$ranks"
        torchrun=(torchrun)
        command -v torchrun > /dev/null || torchrun=(python3 -m torch.distributed.run)
        torchrun+=(--standalone --nproc_per_node=2 "$here/ddp_step.py" --out "$ranks")
        timeout 300 "${torchrun[@]}" --mode torchprof > "$out/logs/ddp-torchprof.txt" 2>&1 \
            || say "FAIL multi-gpu: the torch.profiler run failed (see logs/ddp-torchprof.txt)"
        timeout 300 "${profile[@]}" -f -o "$out/reports/ddp.rep" -t cuda,nvtx,osrt --gpu-metrics-devices=all \
            "${torchrun[@]}" --mode sightline > "$out/logs/ddp.txt" 2>&1 \
            || say "FAIL multi-gpu: the profiled run failed (see logs/ddp.txt)"
        grep -h -E '^(ddp step|device [0-9]|gpu_metrics)' "$out/logs/ddp-torchprof.txt" "$out/logs/ddp.txt" | tee -a "$results"
        "$sightline" export --type sqlite -f -o "$out/reports/ddp.sqlite" "$out/reports/ddp.rep" >> "$out/logs/ddp.txt" 2>&1 \
            || say "FAIL multi-gpu: export to SQLite (see logs/ddp.txt)"
        (cd "$here" && python3 check_multi_gpu.py "$sightline" "$out/reports/ddp.rep" "$out/reports/ddp.sqlite" "$ranks") \
            2>&1 | tee -a "$results"
    fi
fi

if runs core; then
    say "== PyTorch loop against torch.profiler"
    python3 "$here/torch_loop.py" --mode torchprof --out "$out/reports/torch-profiler.json" > "$out/logs/torch-profiler.txt" 2>&1 \
        || say "FAIL torch: torch.profiler run failed (see logs/torch-profiler.txt)"
    profile_run torch-loop -t cuda,nvtx,osrt -- python3 "$here/torch_loop.py" --mode sightline \
        || say "FAIL torch: profiled run failed (see logs/torch-loop.txt)"
    check torch-loop torch "$out/reports/torch-profiler.json" torch-loop

    say "== collector hot paths (NVTX push+pop <= 30 ns, OS-runtime wrapper below threshold <= 20 ns)"
    say "clock cost (one read; pair-floor = two TSC reads + a 48-byte store, the least an NVTX pair can cost here): $("$out/bin/clock_cost" | tr '\n' ' ')"
    say "clock: $(cat /sys/devices/system/clocksource/clocksource0/current_clocksource) of" \
        "[$(cat /sys/devices/system/clocksource/clocksource0/available_clocksource)]; cpu flags:" \
        "$(grep -m1 '^flags' /proc/cpuinfo | grep -o -w -E 'constant_tsc|nonstop_tsc|tsc_known_freq|tsc_reliable|rdtscp' | tr '\n' ' ')"
    if [ -x "$build/bin/bench_collector" ]; then
        SIGHTLINE_INJECT_LIBRARY="$build/lib/libsightline-inject.so" "$build/bin/bench_collector" 2>&1 \
            | tee "$out/logs/bench-collector.txt" | tee -a "$results"
        # A target the benchmark marks MISS is a failed check of this run; UNDECIDED, noise too
        # wide to judge.
        grep MISS "$out/logs/bench-collector.txt" | sed 's/^/FAIL hot path: /; s/  */ /g' | tee -a "$results"
        grep UNDECIDED "$out/logs/bench-collector.txt" | sed 's/^/UNDECIDED hot path: /; s/  */ /g' | tee -a "$results"
        say "-- the same with SIGHTLINE_CLOCK=tsc (the TSC used even where the flags are hidden)"
        SIGHTLINE_CLOCK=tsc SIGHTLINE_INJECT_LIBRARY="$build/lib/libsightline-inject.so" "$build/bin/bench_collector" 2>&1 \
            | grep -E "NVTX|OS-runtime|mutex" | sed 's/PASS/pass/; s/MISS/miss/' | tee -a "$results"
    else
        say "skipped: $build/bin/bench_collector was not built"
    fi

    say "== processing time: 10M NVTX ranges, target exit to 'Generated:'"
    SIGHTLINE_TIMINGS=1 "${profile[@]}" -f -o "$out/reports/flood.rep" -t nvtx "$out/bin/nvtx_flood" 10000000 > "$out/logs/flood.txt" 2>&1
    done_ns=$(date +%s%N)
    exit_ns=$(awk '/target-exit-ns/ {print $2}' "$out/logs/flood.txt")
    python3 - "$exit_ns" "$done_ns" <<'EOF' | tee -a "$results"
import sys
exit_ns, done_ns = (int(x) for x in sys.argv[1:3])
seconds = (done_ns - exit_ns) / 1e9
print(f"{'PASS' if seconds <= 1.0 else 'FAIL'} processing: 'Generated:' {seconds:.2f} s after a 10M-event target exited (target <= 1 s)")
EOF

    say "== processing time: 10M CUDA events (a spool written by bench_processing, no GPU needed)"
    if [ -x "$build/bin/bench_processing" ]; then
        "$build/bin/bench_processing" --events 10M > "$out/logs/processing-cuda.txt" 2>&1
        sed -n '2,$p' "$out/logs/processing-cuda.txt" | grep -v "target exit" | tee -a "$results"
        python3 - "$out/logs/processing-cuda.txt" <<'EOF' | tee -a "$results"
import re, sys
found = re.search(r"([0-9.]+) s per 10M events", open(sys.argv[1]).read())
seconds = float(found.group(1)) if found else float("inf")
print(f"{'PASS' if seconds <= 1.0 else 'FAIL'} processing (CUDA): 'Generated:' {seconds:.2f} s per 10M CUDA events after the target's exit (target <= 1 s)")
EOF
    else
        say "skipped: $build/bin/bench_processing was not built"
    fi

    cp "$out/reports/reduction-4.rep" "$out/sample-multistream.rep" 2> /dev/null \
        && say "sample for resources/samples/: $out/sample-multistream.rep (the 4-stream reduction)"
fi
if runs overhead; then
    say "== overhead: a torch.compile training step (median step, ${STEP_ROUNDS:-6} interleaved rounds)"
    OUT="$out" SIGHTLINE_BUILD="$build" ROUNDS_BUDGET_S=${STEP_BUDGET_S:-0} bash "$here/step_cost.sh" "${STEP_ROUNDS:-6}" ${STEP_CONFIGS:-} | tee -a "$results"
    say "== overhead: launch-bound PyTorch loop (x.add_(1) on one element, ${LOOP_ROUNDS:-7} interleaved rounds)"
    OUT="$out" SIGHTLINE_BUILD="$build" ROUNDS_BUDGET_S=${LOOP_BUDGET_S:-0} bash "$here/overhead.sh" "${LOOP_ROUNDS:-7}" ${LOOP_VARIANTS:-} | tee -a "$results"
fi
say "== $(grep -c '^PASS' "$results") passed, $(grep -c '^FAIL' "$results") failed, $(grep -c '^UNDECIDED' "$results") undecided"
exit "$(grep -c '^FAIL' "$results")"
