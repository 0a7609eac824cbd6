#!/usr/bin/env bash
# Runs every TrackingBenchmarks scenario in one run, then prints ours against the anchors:
# the toolchain's Observation, a plain final class (the floor) and, for fan-out, ours with no
# other observers. Each number is the median over the run's iterations of (iteration time /
# operations per iteration), and likewise for allocations. ratio = ours / anchor.
#
# Usage: ./compare.sh [extra `swift package benchmark` options, e.g. --filter 'notify.*']
# The last line of the output is `ratios: key=value ...`; before it come
# `memory: key=value ...` (bytes, from Sources/MemoryProfile) and, when `node` is installed and
# the signals anchor is found (`$SIGNALS_ANCHOR`, default ../../shared/anchors/signals), the
# `signals-ratios:` and `signals-per-node-ns:` lines of its `ratios.sh --cpu` (ours against
# alien-signals on the derived shapes, run now on this machine).
# `sessions-scaling` (2 session actors against 1) comes from Sources/SessionScaling, a process
# of its own: package-benchmark's runner blocks a thread of the concurrency pool while an
# async benchmark runs, which on a 2-core machine would leave one thread to the sessions.
# `derived-read-2-threads` and `derived-write-read-2-threads` (the derived graph shared by two
# threads against one) come from Sources/DerivedContention, a process of its own likewise.
# With `ARBOREAL_NEW_DERIVED=1` in the environment, the library is built with the new derived
# engine (the root manifest adds `-DARBOREAL_NEW_DERIVED`; issue 51): switching it rebuilds
# the library, so keep a second copy of the tree to measure both engines one after the other.
set -euo pipefail
cd "$(dirname "$0")"

results=.build/compare-results
rm -rf "$results"
mkdir -p "$results"

echo "Running benchmarks (log: $results/run.log) ..." >&2
status=0
swift package --allow-writing-to-package-directory benchmark run \
  --target TrackingBenchmarks --format histogramSamples --path "$results" --no-progress "$@" \
  >"$results/run.log" 2>&1 || status=$?
if [ "$status" -ne 0 ]; then
  echo "benchmark run exited with status $status; the tail of its log:" >&2
  tail -n 30 "$results/run.log" >&2
fi

# Memory: bytes per model and per registration, in a separate process with no interposer.
echo "Measuring memory ..." >&2
if ! swift run -c release MemoryProfile >"$results/memory.txt" 2>"$results/memory.log"; then
  echo "MemoryProfile failed; the tail of its log:" >&2
  tail -n 20 "$results/memory.log" >&2
fi

# Sessions: wall time for the same actions split between 1 and 2 session actors, many
# repetitions alternating between the two, medians (Sources/SessionScaling).
echo "Measuring sessions scaling ..." >&2
if ! swift run -c release SessionScaling >"$results/sessions.txt" 2>"$results/sessions.log"; then
  echo "SessionScaling failed; the tail of its log:" >&2
  tail -n 20 "$results/sessions.log" >&2
fi

# Derived contention: the derived graph read from 2 threads against 1, and written on one thread
# while another reads, many repetitions alternating, medians (Sources/DerivedContention).
echo "Measuring derived contention ..." >&2
if ! swift run -c release DerivedContention >"$results/contention.txt" 2>"$results/contention.log"; then
  echo "DerivedContention failed; the tail of its log:" >&2
  tail -n 20 "$results/contention.log" >&2
fi

# The `--filter` patterns, if any, so that rows left out on purpose are not reported missing.
filters=()
previous=""
for argument in "$@"; do
  if [ "$previous" = "--filter" ]; then filters+=("$argument"); fi
  case "$argument" in --filter=*) filters+=("${argument#--filter=}") ;; esac
  previous="$argument"
done

python_status=0
report="$results/report.txt"
python3 - "$results" "${filters[@]}" >"$report" <<'PY' || python_status=$?
import glob, os, re, statistics, sys

results = sys.argv[1]
# `--filter` patterns given to compare.sh: a row whose benchmarks none of them selects was
# left out on purpose, so it is shown as missing but does not fail the run.
filters = [re.compile(pattern) for pattern in sys.argv[2:]]

def selected(name):
    return name is None or not filters or any(f.search(name) for f in filters)

# Operations per iteration of each scenario: the `scalingFactor` its benchmarks declare in
# Benchmarks/TrackingBenchmarks/*.swift (`.perOperation(...)`). Keep the two in step.
OPERATIONS = {
    "untracked-read": 1_000_000,
    "tracked-read-1": 1_000_000,
    "tracked-read-3": 1_000_000,
    "write-unobserved": 1_000_000,
    "write-sibling-observed": 1_000_000,
    "oneshot-register-fire": 1_000,
    "notify-1": 1_000,
    "notify-10": 1_000,
    "notify-100": 1_000,
    "fanout-100k": 1_000,
    "fanout-none": 1_000,
    "register-1000": 1,
    "send-vs-update": 1_000_000,
    "viewstore-vs-store": 1_000_000,
    "forward-vs-tag": 1_000_000,
    "destination-vs-presented": 1_000_000,
    "effect-roundtrip": 1_000,
    "actor-send-vs-main-send": 1_000_000,
    "bridged-read": 1_000_000,
    "bridged-write": 1_000_000,
    "bridged-tracked-read": 1_000_000,
    "inplace-edit-observed": 1_000,
    "untracked-read-local": 1_000_000,
    "write-unobserved-local": 1_000_000,
    "append-observed": 1_000,
    "record-vs-send": 1_000,
    "persist-vs-send": 1_000,
    "replay": 1_000_000,
    "recording-load": 1_000,
    "timeline-jump": 1_000,
    "derived-read": 1_000,
    "derived-read-rows": 1_000,
    "derived-diamond-1000": 1,
    "derived-deep": 1,
    "derived-broad": 1,
    "derived-triangle": 1,
    "derived-mux": 1,
    "derived-repeated-observers": 1,
    "derived-unstable": 1,
    "derived-avoidable": 1,
    "derived-cellx-1000": 1,
    "remove-child-with-effects": 10_000,
    "push-pop": 1_000,
    "viewer-generate": 1,
}

# (row label, ours, anchor, ratios key or None, target or None)
ROWS = [
    ("untracked-read", "untracked-read/ours", "untracked-read/observation", "untracked-read", 0.05),
    ("tracked-read (1 property)", "tracked-read-1/ours", "tracked-read-1/observation", "tracked-read", 0.1),
    ("tracked-read (3 properties)", "tracked-read-3/ours", "tracked-read-3/observation", None, 0.1),
    ("write-unobserved", "write-unobserved/ours", "write-unobserved/observation", "write-unobserved", 0.05),
    ("write-sibling-observed", "write-sibling-observed/ours", "write-sibling-observed/observation", "write-sibling-observed", 0.05),
    ("oneshot-register-fire", "oneshot-register-fire/ours", "oneshot-register-fire/observation", "oneshot-register-fire", 0.2),
    ("notify-1", "notify-1/ours", "notify-1/observation", "notify-1", 0.12),
    ("notify-10", "notify-10/ours", "notify-10/observation", "notify-10", 0.15),
    ("notify-100", "notify-100/ours", "notify-100/observation", "notify-100", 0.15),
    ("register-1000 (one observer reads 1,000 models)", "register-1000/ours", "register-1000/observation", "register-1000", 0.15),
    ("fanout-100k [anchor: ours, no other observers]", "fanout-100k/ours", "fanout-none/ours", "fanout-100k", 1.1),
    ("fanout-100k, Observation [anchor: Observation, none]", "fanout-100k/observation", "fanout-none/observation", None, None),
    ("untracked-read-vs-floor [anchor: plain class]", "untracked-read/ours", "untracked-read/plain", "untracked-read-vs-floor", 1.5),
    ("untracked-read-vs-hook [anchor: plain getter that may call out]", "untracked-read/ours", "untracked-read/plain-hook", None, None),
    ("write-unobserved-vs-floor [anchor: plain class]", "write-unobserved/ours", "write-unobserved/plain", None, None),
    ("send-vs-update [anchor: calling update directly]", "send-vs-update/send", "send-vs-update/update", "send-vs-update", 10),
    ("viewstore-vs-store [anchor: Store.send of the tagged action]", "viewstore-vs-store/viewstore", "viewstore-vs-store/store", "viewstore-vs-store", 1.3),
    ("forward-vs-tag [anchor: the child's update called directly, its Fx.none returned]", "forward-vs-tag/forward", "forward-vs-tag/tag", "forward-vs-tag", None),
    ("destination-vs-presented [anchor: the same child forwarded as a presented sheet]", "destination-vs-presented/destination", "destination-vs-presented/presented", "destination-vs-presented", 3),
    ("effect-roundtrip (send + effect + its action, awaited)", "effect-roundtrip/send", None, None, None),
    ("actor-send-vs-main-send (a store made and sent to in an actor's method) [anchor: the same on the main actor]", "actor-send-vs-main-send/actor", "actor-send-vs-main-send/main", "actor-send-vs-main-send", 1.2),
    ("sessions-scaling (throughput of 2 session actors over 1; ours: 1 actor, per action) [anchor: 2 actors]", "sessions-scaling/1", "sessions-scaling/2", "sessions-scaling", 1.6),
    ("derived-read-2-threads (clean reads of 1,000 values, throughput of 2 threads over 1; ours: 1 thread, per read) [anchor: 2 threads]", "derived-read-2-threads/1", "derived-read-2-threads/2", "derived-read-2-threads", 1.6),
    ("derived-write-read-2-threads (writes, each with its recomputation, and clean reads: one thread over a thread each; ours: 1 thread, all of it) [anchor: 2 threads]", "derived-write-read-2-threads/1", "derived-write-read-2-threads/2", "derived-write-read-2-threads", None),
    ("bridged-read [anchor: ours, not bridged]", "bridged-read/bridged", "untracked-read/ours", None, None),
    ("bridged-read, vs Observation", "bridged-read/bridged", "untracked-read/observation", "bridged-read", 1.5),
    ("bridged-write [anchor: ours, not bridged]", "bridged-write/bridged", "write-unobserved/ours", None, None),
    ("bridged-write, vs Observation", "bridged-write/bridged", "write-unobserved/observation", "bridged-write", 1.5),
    ("bridged-tracked-read (in withObservationTracking), vs Observation", "bridged-tracked-read/bridged", "tracked-read-1/observation", "bridged-tracked-read", 1.5),
    ("untracked-read-local (one model in a local)", "untracked-read-local/ours", "untracked-read-local/observation", "untracked-read-local", 0.1),
    ("untracked-read-local-vs-floor [anchor: plain class]", "untracked-read-local/ours", "untracked-read-local/plain", "untracked-read-local-vs-floor", 1.5),
    ("write-unobserved-local (one model in a local)", "write-unobserved-local/ours", "write-unobserved-local/observation", "write-unobserved-local", 0.05),
    ("write-unobserved-local-vs-floor [anchor: plain class]", "write-unobserved-local/ours", "write-unobserved-local/plain", None, None),
    ("inplace-edit-observed (100,000 items)", "inplace-edit-observed/ours", "inplace-edit-observed/observation", "inplace-edit-observed", 0.5),
    ("append-observed (100,000 items)", "append-observed/ours", "append-observed/observation", "append-observed", 0.5),
    ("record-vs-send [anchor: Store.send, not recording]", "record-vs-send/record", "record-vs-send/send", "record-vs-send", 1.5),
    ("loghandler-vs-send (an empty log handler) [anchor: Store.send]", "record-vs-send/loghandler", "record-vs-send/send", "loghandler-vs-send", 3),
    ("persist-vs-send (a StorePersister, the save debounced) [anchor: Store.send, not persisted]", "persist-vs-send/persist", "persist-vs-send/send", "persist-vs-send", 1.5),
    ("replay (per recorded action; target in ns: 1M actions/s)", "replay/ours", None, "replay-actions-per-second", 1000),
    ("recording-load (per JSON line read, before replay)", "recording-load/ours", None, "recording-load-lines-per-second", None),
    ("timeline-jump (100,000 steps, back and forth; target: well under 1 s)", "timeline-jump/ours", None, "timeline-jumps-per-second", 100_000_000),
    ("derived-read (cached sum of 1,000 items) [anchor: computed property, ours]", "derived-read/ours", "derived-read/computed", "derived-read", 0.1),
    ("derived-read, vs Observation's computed property", "derived-read/ours", "derived-read/observation", None, None),
    ("derived-read-rows (cached total of 1,000 row models) [anchor: computed property, ours]", "derived-read-rows/ours", "derived-read-rows/computed", "derived-read-rows", 0.1),
    ("derived-read-rows, vs Observation's computed property", "derived-read-rows/ours", "derived-read-rows/observation", None, None),
    ("derived-diamond-1000 (write, 1 observer at the bottom), vs computed under Observation", "derived-diamond-1000/ours", "derived-diamond-1000/observation", "derived-diamond-1000", None),
    ("derived-deep (a chain of 1,000, observed at the end), vs computed under Observation", "derived-deep/ours", "derived-deep/observation", "derived-deep", 0.5),
    ("derived-deep, vs plain recomputation", "derived-deep/ours", "derived-deep/computed", None, None),
    ("derived-broad (1,000 values on one source, each observed), vs computed under Observation", "derived-broad/ours", "derived-broad/observation", "derived-broad", 0.5),
    ("derived-broad, vs plain recomputation", "derived-broad/ours", "derived-broad/computed", None, None),
    ("derived-triangle (a chain of 10 and their sum, observed), vs computed under Observation", "derived-triangle/ours", "derived-triangle/observation", "derived-triangle", 0.5),
    ("derived-triangle, vs plain recomputation", "derived-triangle/ours", "derived-triangle/computed", None, None),
    ("derived-mux (100 sources gathered and split into 100 observed values), vs computed under Observation", "derived-mux/ours", "derived-mux/observation", "derived-mux", 0.5),
    ("derived-mux, vs plain recomputation", "derived-mux/ours", "derived-mux/computed", None, None),
    ("derived-repeated-observers (one value reading its source 30 times), vs computed under Observation", "derived-repeated-observers/ours", "derived-repeated-observers/observation", "derived-repeated-observers", 0.5),
    ("derived-repeated-observers, vs plain recomputation", "derived-repeated-observers/ours", "derived-repeated-observers/computed", None, None),
    ("derived-unstable (dependencies that change at every write), vs computed under Observation", "derived-unstable/ours", "derived-unstable/observation", "derived-unstable", 0.5),
    ("derived-unstable, vs plain recomputation", "derived-unstable/ours", "derived-unstable/computed", None, None),
    ("derived-avoidable (an equal intermediate result stops propagation), vs computed under Observation", "derived-avoidable/ours", "derived-avoidable/observation", "derived-avoidable", 0.5),
    ("derived-avoidable, vs plain recomputation", "derived-avoidable/ours", "derived-avoidable/computed", None, None),
    ("derived-cellx-1000 (1,000 layers of 4 values), vs computed under Observation", "derived-cellx-1000/ours", "derived-cellx-1000/observation", "derived-cellx-1000", 0.5),
    ("derived-cellx-1000, vs plain recomputation", "derived-cellx-1000/ours", "derived-cellx-1000/computed", None, None),
    ("remove-child-with-effects (per row of 10,000, one action) [anchor: the parent runs and cancels each row's effect by hand]", "remove-child-with-effects/forward", "remove-child-with-effects/tagged", "remove-child-with-effects", None),
    ("push-pop (push, start an effect, pop) [anchor: the parent runs and cancels the effect by hand]", "push-pop/forward", "push-pop/tagged", "push-pop", None),
]
# Rows without an anchor whose ratios key is a throughput: the key's value is operations per
# second (1e9 / ns per operation), and the target, if any, is a most ns per operation.
THROUGHPUT = {"replay-actions-per-second", "recording-load-lines-per-second",
              "timeline-jumps-per-second"}
# Ratios whose target is a least value (more is better): a speed-up.
AT_LEAST = {"sessions-scaling", "derived-read-2-threads"}
KEYS = ["untracked-read", "tracked-read", "write-unobserved", "write-sibling-observed",
        "oneshot-register-fire", "notify-1", "notify-10", "notify-100", "register-1000",
        "fanout-100k",
        "untracked-read-vs-floor", "send-vs-update", "viewstore-vs-store",
        "inplace-edit-observed", "append-observed", "untracked-read-local",
        "untracked-read-local-vs-floor", "write-unobserved-local", "record-vs-send",
        "loghandler-vs-send", "persist-vs-send", "bridged-read", "bridged-write", "bridged-tracked-read",
        "replay-actions-per-second", "recording-load-lines-per-second",
        "timeline-jumps-per-second", "derived-read",
        "derived-read-rows", "derived-diamond-1000", "derived-deep", "derived-broad", "derived-triangle", "derived-mux", "derived-repeated-observers", "derived-unstable", "derived-avoidable", "derived-cellx-1000",
        "remove-child-with-effects", "push-pop", "forward-vs-tag", "destination-vs-presented", "actor-send-vs-main-send",
        "sessions-scaling", "derived-read-2-threads", "derived-write-read-2-threads"]

# histogramSamples writes <baseline>.<target>.<name>.<metric>.histogram.samples.tsv, with
# `/` and spaces in the name replaced by `_`; the first line is a header, then one raw value
# per measured iteration (time in ns, since the benchmarks set `timeUnits: .nanoseconds`).
pattern = re.compile(r"\.TrackingBenchmarks\.(.+)\.(wallClock|mallocCountTotal)\.histogram\.samples\.tsv$")
samples = {}
for path in glob.glob(os.path.join(results, "*.tsv")):
    match = pattern.search(os.path.basename(path))
    if not match:
        continue
    with open(path) as file:
        values = [float(line) for line in file.read().split("\n")[1:] if line.strip()]
    if values:
        samples[(match.group(1), match.group(2))] = values

# Sources/SessionScaling's line `sessions: ... one-session-ns-per-action=… two-sessions-…`:
# the median wall time per action with 1 and with 2 session actors, from its own process.
external = {}
sessions_path = os.path.join(results, "sessions.txt")
if os.path.exists(sessions_path):
    sessions = dict(re.findall(r"([a-z-]+)=([0-9.]+)", open(sessions_path).read()))
    for name, key in (("sessions-scaling/1", "one-session-ns-per-action"),
                      ("sessions-scaling/2", "two-sessions-ns-per-action")):
        if key in sessions:
            external[(name, "wallClock")] = float(sessions[key])

# Sources/DerivedContention's line `derived-contention: ...`: the median wall time per read
# with 1 and 2 threads, and of the whole write-and-read work with 1 and 2.
contention_path = os.path.join(results, "contention.txt")
if os.path.exists(contention_path):
    contention = dict(re.findall(r"([a-z0-9-]+)=([0-9.]+)", open(contention_path).read()))
    for name, key in (("derived-read-2-threads/1", "one-thread-ns-per-read"),
                      ("derived-read-2-threads/2", "two-threads-ns-per-read"),
                      ("derived-write-read-2-threads/1", "write-read-one-thread-ns"),
                      ("derived-write-read-2-threads/2", "write-read-two-threads-ns")):
        if key in contention:
            external[(name, "wallClock")] = float(contention[key])

def per_op(name, metric):
    """Median over iterations, divided by the scenario's operations per iteration."""
    if name is None:
        return None
    if (name, metric) in external:
        return external[(name, metric)]
    values = samples.get((name.replace("/", "_"), metric))
    if not values:
        return None
    return statistics.median(values) / OPERATIONS[name.split("/")[0]]

def fmt_time(ns):
    if ns is None:
        return "missing"
    if ns >= 10_000:
        return f"{ns / 1000:.1f} µs"
    if ns >= 100:
        return f"{ns:.0f} ns"
    if ns >= 10:
        return f"{ns:.1f} ns"
    return f"{ns:.2f} ns"

def fmt_count(count):
    if count is None:
        return "-"
    return f"{count:.0f}" if count >= 100 or count == int(count) else f"{count:.2f}"

def fmt_ratio(ratio):
    if isinstance(ratio, int):
        return str(ratio)  # a throughput, per second
    return "n/a" if ratio is None else f"{ratio:.3g}"

table = [("scenario", "ours", "Observation", "ratio", "target", "holds?",
          "mallocs/op ours", "mallocs/op anchor")]
ratios = {}
missing = False
for label, ours_name, anchor_name, key, target in ROWS:
    ours, anchor = per_op(ours_name, "wallClock"), per_op(anchor_name, "wallClock")
    ratio = ours / anchor if ours is not None and anchor else None
    if selected(ours_name) and selected(anchor_name):
        missing = missing or ours is None or (anchor_name is not None and ratio is None)
    target_text = "-" if target is None else f"<= {target:g}"
    if key in THROUGHPUT:
        ratios[key] = round(1e9 / ours) if ours else None
        holds = "-" if target is None or ours is None else ("yes" if ours <= target else "NO")
        if target is None:
            target_text = "-"
        elif target >= 1_000_000:
            target_text = f"<= {target / 1_000_000:g} ms"
        else:
            target_text = f"<= {target:g} ns"
    else:
        if key:
            ratios[key] = ratio
        if key in AT_LEAST:
            target_text = "-" if target is None else f">= {target:g}"
            holds = "-" if target is None or ratio is None else ("yes" if ratio >= target else "NO")
        else:
            holds = "-" if target is None or ratio is None else ("yes" if ratio <= target else "NO")
    table.append((label, fmt_time(ours), fmt_time(anchor), fmt_ratio(ratio),
                  target_text, holds,
                  fmt_count(per_op(ours_name, "mallocCountTotal")),
                  fmt_count(per_op(anchor_name, "mallocCountTotal"))))

widths = [max(len(row[i]) for row in table) for i in range(len(table[0]))]
def line(row):
    cells = [row[0].ljust(widths[0])] + [cell.rjust(width) for cell, width in zip(row[1:], widths[1:])]
    return "| " + " | ".join(cells) + " |"
print(line(table[0]))
print("|" + "|".join("-" * (width + 2) for width in widths) + "|")
for row in table[1:]:
    print(line(row))
print()
print("Times are medians per operation; 'Observation' is the anchor, which the rows in [brackets] replace.")
# The recording viewer's page for 100,000 steps (ViewerBenchmarks.swift), in milliseconds.
viewer = per_op("viewer-generate/ours", "wallClock")
print("viewer: generate-100k " + ("missing" if viewer is None else f"{viewer / 1e6:.0f} ms"))
if viewer is None and selected("viewer-generate/ours"):
    missing = True
# Sources/SessionScaling's details: medians per action, and whether both cores ran the sessions.
if os.path.exists(sessions_path):
    print(next((l for l in open(sessions_path).read().splitlines() if l.startswith("sessions:")),
               "sessions: missing"))
# Sources/DerivedContention's details, with whether both cores ran the two threads.
if os.path.exists(contention_path):
    print(next((l for l in open(contention_path).read().splitlines()
                if l.startswith("derived-contention:")), "derived-contention: missing"))
memory_path = os.path.join(results, "memory.txt")
memory = open(memory_path).read().strip() if os.path.exists(memory_path) else ""
if memory:
    print()
    print(memory)  # its table, then its `memory: key=value ...` line, right before `ratios:`
else:
    print("memory: missing")
    missing = True
print("ratios: " + " ".join(f"{key}={fmt_ratio(ratios.get(key))}" for key in KEYS))
sys.exit(1 if missing else 0)
PY
# Everything but the last line (`ratios:`), then the signals lines, then `ratios:`.
sed '$d' "$report"
anchor="${SIGNALS_ANCHOR:-../../shared/anchors/signals}"
if command -v node >/dev/null 2>&1 && [ -x "$anchor/ratios.sh" ] \
  && grep -q '^| derived-' "$report"; then
  echo "Running alien-signals on the derived shapes (log: $results/signals.txt) ..." >&2
  if "$anchor/run.sh" >"$results/signals.txt" 2>&1; then
    "$anchor/ratios.sh" --cpu "$report" "$results/signals.txt" \
      | grep -E '^signals-(ratios|per-node-ns):' || echo "signals-ratios: failed (see ratios.sh)"
  else
    echo "signals-ratios: alien-signals failed (see $results/signals.txt)"
  fi
else
  echo "signals-ratios: skipped (needs node, the anchor in $anchor and derived rows)"
fi
tail -n 1 "$report"
exit $(( status != 0 ? status : python_status ))
