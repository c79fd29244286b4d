# Sourced by the overhead benchmarks: runs configurations in interleaved rounds (every
# configuration once per round, in order, so drift on the host hits all alike) and keeps each
# run's whole output.
#   run_rounds ROUNDS RUNS_FILE LOG_DIR RUNNER FIGURE CONFIG...
# RUNNER CONFIG runs one configuration; FIGURE is the word before the figure in its output
# ("us_per_iteration"). RUNS_FILE gets one "CONFIG VALUE" line per run (VALUE empty when the run
# printed none), as overhead_stats.py reads it; LOG_DIR/CONFIG-ROUND.txt the run's output and
# its wall time, start-up and the profiler's work after the program included ("run_seconds").
# ROUNDS_BUDGET_S, when set, bounds the whole: a round starts only while the longest round so far
# still fits in what is left, so a machine that limits a call's time returns every finished round.
run_rounds() {
    local rounds=$1 runs_file=$2 logs=$3 runner=$4 figure=$5
    shift 5
    local round config log started round_started longest=0 begun=$SECONDS
    local budget=${ROUNDS_BUDGET_S:-0}
    mkdir -p "$logs"
    : > "$runs_file"
    for round in $(seq "$rounds"); do
        if [ "$budget" -gt 0 ] && [ $((SECONDS - begun + longest)) -gt "$budget" ]; then
            echo "rounds: stopped after $((round - 1)) of $rounds rounds, the next would pass ROUNDS_BUDGET_S=$budget s (longest round ${longest} s)"
            break
        fi
        round_started=$SECONDS
        for config in "$@"; do
            log="$logs/$config-$round.txt"
            started=$SECONDS
            "$runner" "$config" > "$log" 2>&1
            echo "run_seconds $((SECONDS - started))" >> "$log"
            echo "$config $(awk -v word="$figure" '$1 == word {print $2}' "$log" | tail -1)" >> "$runs_file"
        done
        [ $((SECONDS - round_started)) -gt "$longest" ] && longest=$((SECONDS - round_started))
    done
}
