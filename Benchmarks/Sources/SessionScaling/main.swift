// Sessions scaling: actions per second with 2 session actors against 1, for the same total
// work. Each session is an actor owning a `Store` (Sessions.swift); one repetition makes the
// sessions and their stores (not timed), then sends `actions` actions in all, split evenly
// between them, each session's share from one child task of a task group, and takes the wall
// time until the group is done. Repetitions alternate between 1 and 2 sessions, so that a
// change in the machine's load falls on both; the first `warmUp` of each are discarded.
// Prints `sessions: key=value ...`, then `sessions-scaling=<ratio>`: the median time with
// 1 session over the median time with 2, which is throughput(2) / throughput(1).
//
//   swift run -c release SessionScaling [actions] [repetitions]
//
// It also prints `two-sessions-cpu-over-wall`: the process's CPU time over the wall time of
// the 2-session repetitions (median). Near 2, both cores ran the sessions; well under 2,
// something else on the machine held a core, and the ratio says little.
//
// A process of its own rather than a package-benchmark benchmark: package-benchmark's runner
// waits for an async benchmark by blocking one thread of the concurrency pool, which on a
// 2-core machine leaves one thread for the sessions.

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

let arguments = CommandLine.arguments
let actions = arguments.count > 1 ? Int(arguments[1]) ?? 20_000 : 20_000
let repetitions = arguments.count > 2 ? Int(arguments[2]) ?? 21 : 21
let warmUp = 2
precondition(actions > 0 && actions % 2 == 0, "actions must be even and positive")
precondition(repetitions > 0, "repetitions must be positive")

/// CPU time this process has used so far, every thread's, in nanoseconds.
func processCPUTime() -> Double {
  var time = timespec()
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &time)
  return Double(time.tv_sec) * 1e9 + Double(time.tv_nsec)
}

/// Wall time and the process's CPU time, in nanoseconds, for `actions` actions split between
/// `sessionCount` new sessions.
func measure(sessions sessionCount: Int) async -> (wall: Double, cpu: Double) {
  var sessions: [Session] = []
  for _ in 0..<sessionCount {
    let session = Session()
    await session.start()
    sessions.append(session)
  }
  let share = actions / sessionCount
  let clock = ContinuousClock()
  let cpuStart = processCPUTime()
  let start = clock.now
  let handled = await withTaskGroup(of: Int.self) { group in
    for session in sessions {
      group.addTask { await session.run(share) }
    }
    return await group.reduce(0, +)
  }
  let elapsed = clock.now - start
  let cpu = processCPUTime() - cpuStart
  precondition(handled == actions, "expected \(actions) actions handled, found \(handled)")
  return (nanoseconds(elapsed), cpu)
}

func nanoseconds(_ duration: Duration) -> Double {
  let (seconds, attoseconds) = duration.components
  return Double(seconds) * 1e9 + Double(attoseconds) / 1e9
}

func median(_ values: [Double]) -> Double {
  let sorted = values.sorted()
  let middle = sorted.count / 2
  return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
}

var one: [Double] = []
var two: [Double] = []
var twoUtilisation: [Double] = []
for repetition in 0..<(warmUp + repetitions) {
  let timeOne = await measure(sessions: 1)
  let timeTwo = await measure(sessions: 2)
  if repetition >= warmUp {
    one.append(timeOne.wall)
    two.append(timeTwo.wall)
    twoUtilisation.append(timeTwo.cpu / timeTwo.wall)
  }
}

let scaling = median(one) / median(two)
let scalingOfMinimums = one.min()! / two.min()!
/// Three decimals.
func format(_ value: Double) -> String { "\((value * 1000).rounded() / 1000)" }
print(
  "sessions: actions=\(actions) repetitions=\(repetitions)"
    + " one-session-ns-per-action=\(format(median(one) / Double(actions)))"
    + " two-sessions-ns-per-action=\(format(median(two) / Double(actions)))"
    + " scaling-of-minimums=\(format(scalingOfMinimums))"
    + " two-sessions-cpu-over-wall=\(format(median(twoUtilisation)))")
print("sessions-scaling=\(format(scaling))")
