#!/usr/bin/env bash
# Runs the whole test suite under a sanitizer RUNS times in a row while two CPU-bound
# processes compete for the cores, and prints "N passed, M failed". The proof that no test
# passes or fails by the scheduler's mood: a test store steps its effects on a test executor
# instead of waiting on the wall clock.
#
#   bash .ci/load-test.sh [RUNS] [thread|address]    # 10 runs under ThreadSanitizer by default
#
# HOGS=0 starts none, for a series run beside hogs started outside it (two series at once,
# each beside the same two hogs and the other series).
#
# The logs of failed runs stay in .build-load-<sanitizer>/run-<n>.log.
set -uo pipefail
cd "$(dirname "$0")/.."

runs=${1:-10}
sanitizer=${2:-thread}
case "$sanitizer" in thread | address) ;; *)
  echo "usage: $0 [RUNS] [thread|address]" >&2
  exit 2
  ;;
esac
scratch=".build-load-$sanitizer"
flags=(--sanitize="$sanitizer" --scratch-path "$scratch" -Xswiftc -DARBOREAL_INTERNAL_CHECKS)
# Under AddressSanitizer, LeakSanitizer checks the test processes and the example programs
# they start, as in `.ci/run`; `.ci/lsan.supp` names the toolchain's leaks.
export ASAN_OPTIONS=detect_leaks=1
export LSAN_OPTIONS="suppressions=$PWD/.ci/lsan.supp:print_suppressions=0"

swift build --build-tests "${flags[@]}" || exit 1

# CPU-bound processes, two by default (one per core), for the whole series.
hogs=${HOGS:-2}
pids=()
for _ in $(seq 1 "$hogs"); do
  yes >/dev/null &
  pids+=($!)
done
trap '[ ${#pids[@]} -eq 0 ] || kill "${pids[@]}" 2>/dev/null' EXIT

passed=0
failed=0
for run in $(seq 1 "$runs"); do
  log="$scratch/run-$run.log"
  start=$(date +%s)
  if swift test "${flags[@]}" --skip-build >"$log" 2>&1; then
    passed=$((passed + 1))
    result=passed
    rm -f "$log"
  else
    failed=$((failed + 1))
    result="FAILED (log: $log)"
    grep -E "✘|error:|WARNING: ThreadSanitizer|ERROR: (Address|Leak)Sanitizer" "$log" | head -n 20
  fi
  if [ "$hogs" -eq 0 ]; then beside="CPU hogs started outside"; else beside="$hogs CPU hogs"; fi
  echo "run $run of $runs under the $sanitizer sanitizer beside $beside: $result in $(($(date +%s) - start)) s"
done
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
