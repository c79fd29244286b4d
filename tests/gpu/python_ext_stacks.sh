#!/usr/bin/env bash
# Python frames in order (issue #32) on this machine's python3 (3.12 and later: named through
# CPython's perf map; 3.11: read from the interpreter), through a C extension built without
# frame pointers: tests/unit/collector/python_stacks/check_python_stacks.py builds it with the
# interpreter's headers, profiles alpha_beta.py and checks that <module> and main are on >= 95%
# of the main thread's stacks, alpha on 70 +- 5% and beta on 30 +- 5%, in order.
#   tests/gpu/python_ext_stacks.sh [PYTHON]     (default python3; SIGHTLINE_BUILD, OUT as run.sh)
# Prints the figures and PASS, MISS or FAIL lines; exits with the checker's status (77: perf refused).
set -u
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
build=${SIGHTLINE_BUILD:-$root/build}
out=${OUT:-$root/gpu-results}
python=$(command -v "${1:-python3}") || { echo "FAIL python-stacks: ${1:-python3} not found"; exit 2; }
mkdir -p "$out/python-stacks"
python3 "$root/tests/unit/collector/python_stacks/check_python_stacks.py" "$build/bin/sightline" "$python" \
    "$out/python-stacks"
