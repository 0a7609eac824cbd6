// Derived contention: what sharing the derived graph between two threads costs (issue 51,
// "A new derived engine", Decision 2), in a process of its own, as Sources/SessionScaling is.
// Prints `derived-contention: key=value ...`, then the two rows compare.sh reports:
//
// - `derived-read-2-threads=<ratio>`: `reads` clean reads of the nonisolated derived values of
//   1,000 models (each pass reads all of them in order), all on one thread, against the same
//   total split evenly between two threads; the median time with one thread over the median
//   with two, which is throughput(2) / throughput(1). Reads that take no lock scale to about 2.
// - `derived-write-read-2-threads=<ratio>`: one thread writes a source `writes` times, reading
//   the derived value that depends on it after each write (a recomputation), while another
//   reads the 1,000 clean values (which the writes do not reach) `reads / 5` times in all; the
//   median time of the same work on one thread (an equal share of the writes with their
//   reads before each pass over the values) over the median with two threads. At most 2, and
//   2 only when each side takes as long as the other and neither slows the other down.
//
//   swift run -c release DerivedContention [reads] [writes] [repetitions]
//
// Repetitions alternate between one thread and two, so that a change in the machine's load
// falls on both; the first `warmUp` of each are discarded. It also prints the process's CPU
// time over the wall time of the two-thread repetitions (median): near 2, both cores ran them;
// well under 2, something else held a core, and the ratios say little.

import ArborealTracking
import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

let arguments = CommandLine.arguments
let reads = arguments.count > 1 ? Int(arguments[1]) ?? 20_000_000 : 20_000_000
let writes = arguments.count > 2 ? Int(arguments[2]) ?? 20_000 : 20_000
let repetitions = arguments.count > 3 ? Int(arguments[3]) ?? 9 : 9
let warmUp = 2
let valueCount = 1_000
precondition(reads > 0 && reads % (2 * valueCount) == 0, "reads must be a multiple of 2,000")
/// The write-and-read row reads a fifth as many values as the read row: about as long as the
/// writes with their recomputations take on this machine, so that two threads could halve it.
let writeReadPasses = reads / valueCount / 5
precondition(
  writes > 0 && writeReadPasses > 0 && writes % writeReadPasses == 0,
  "reads / 5,000 must divide writes")
precondition(repetitions > 0, "repetitions must be positive")

/// The sources: tracked integers safe to read and write from any thread.
final class Inputs: Trackable, Sendable {
  let registrar = TrackingRegistrar()
  private let readKey = TrackingKey("read")
  private let writtenKey = TrackingKey("written")
  private let readStorage = Atomic<Int>(1)
  private let writtenStorage = Atomic<Int>(0)

  /// What the 1,000 values read; never written while measuring.
  var read: Int {
    registrar.access(readKey)
    return readStorage.load(ordering: .relaxed)
  }

  /// What the writing thread writes.
  var written: Int {
    get {
      registrar.access(writtenKey)
      return writtenStorage.load(ordering: .relaxed)
    }
    set {
      registrar.withMutation(of: writtenKey) { writtenStorage.store(newValue, ordering: .relaxed) }
    }
  }
}

/// A model with one derived value of the shared input, `read` plus its index.
final class Row: Trackable, @unchecked Sendable {
  // Invariant (why `@unchecked Sendable` holds): `index` and `inputs` are set in `init` and
  // never change; `value` is a nonisolated derived value, safe from any thread.
  let registrar = TrackingRegistrar()
  let index: Int
  let inputs: Inputs
  @Derived({ (row: Row) in row.inputs.read &+ row.index }) var value: Int

  init(_ index: Int, inputs: Inputs) {
    self.index = index
    self.inputs = inputs
  }
}

/// The graph: the values of 1,000 rows, all of `read`, and one value of `written`. Made in a
/// nonisolated function, so that the values are nonisolated and readable from any thread.
struct Graph: @unchecked Sendable {
  // Invariant (why `@unchecked Sendable` holds): `rows` is never changed after `init`, and
  // each of them stays alive (held by `owners`) as long as the graph.
  let inputs = Inputs()
  /// The rows, each read as its reader holds it, without a reference count: a read of a row
  /// taken out of an array retains it, and two threads retaining the same objects would
  /// measure their reference counts (a cache line moving between the cores at each read).
  let rows: [Unmanaged<Row>]
  let owners: [Row]
  let doubled: Derived<Int>

  nonisolated init() {
    let inputs = inputs
    owners = (0..<valueCount).map { Row($0, inputs: inputs) }
    rows = owners.map { Unmanaged.passUnretained($0) }
    doubled = Derived("doubled") { inputs.written &* 2 }
    for row in owners { _ = row.value }  // clean from here on
    _ = doubled.value
  }

  /// Reads the values `passes` times; returns their sum (kept, so that nothing is skipped).
  func readPasses(_ passes: Int) -> Int {
    var total = 0
    for _ in 0..<passes {
      for row in rows { total &+= row._withUnsafeGuaranteedRef { $0.value } }
    }
    return total
  }

  /// Writes `written` `count` times, reading `doubled` after each write.
  func writeAndRead(_ count: Int) -> Int {
    var total = 0
    for _ in 0..<count {
      inputs.written &+= 1
      total &+= doubled.value
    }
    return total
  }
}

/// Runs `body` on a new thread; `join` waits for it.
final class Worker: @unchecked Sendable {
  // Invariant (why `@unchecked Sendable` holds): `body` and `result` are touched by the new
  // thread until it ends, and by the creating thread only after `join` (which orders them).
  private let body: () -> Int
  private var result = 0
  #if canImport(Darwin)
    private var thread: pthread_t?
  #else
    private var thread = pthread_t()
  #endif

  init(_ body: @escaping () -> Int) {
    self.body = body
    let context = Unmanaged.passRetained(self).toOpaque()
    let created = pthread_create(
      &thread, nil,
      { context in
        let worker = Unmanaged<Worker>.fromOpaque(context!).takeRetainedValue()
        worker.result = worker.body()
        return nil
      }, context)
    precondition(created == 0, "DerivedContention: no thread")
  }

  /// Waits for the thread; returns what `body` returned.
  func join() -> Int {
    #if canImport(Darwin)
      pthread_join(thread!, nil)
    #else
      pthread_join(thread, nil)
    #endif
    return result
  }
}

/// A start line both threads wait at, so that they begin together.
final class StartLine: Sendable {
  private let waiting = Atomic<Int>(0)

  /// Spins until `count` threads arrived.
  func arrive(_ count: Int) {
    waiting.add(1, ordering: .acquiringAndReleasing)
    while waiting.load(ordering: .acquiring) < count {}
  }
}

/// CPU time this process has used so far, every thread's, in nanoseconds.
func processCPUTime() -> Double {
  var time = timespec()
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &time)
  return Double(time.tv_sec) * 1e9 + Double(time.tv_nsec)
}

func nanoseconds(_ duration: Duration) -> Double {
  let (seconds, attoseconds) = duration.components
  return Double(seconds) * 1e9 + Double(attoseconds) / 1e9
}

/// Wall time and CPU time of `jobs`, each on a thread of its own, started together.
func measure(_ jobs: [@Sendable () -> Int]) -> (wall: Double, cpu: Double, sum: Int) {
  let line = StartLine()
  let clock = ContinuousClock()
  let workers = jobs.map { job in
    Worker {
      line.arrive(jobs.count + 1)
      return job()
    }
  }
  let cpuStart = processCPUTime()
  let began = clock.now
  line.arrive(jobs.count + 1)
  let sum = workers.reduce(0) { $0 &+ $1.join() }
  let wall = nanoseconds(clock.now - began)
  return (wall, processCPUTime() - cpuStart, sum)
}

func median(_ values: [Double]) -> Double {
  let sorted = values.sorted()
  let middle = sorted.count / 2
  return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
}

/// Three decimals.
func format(_ value: Double) -> String { "\((value * 1000).rounded() / 1000)" }

let graph = Graph()
let passes = reads / valueCount
let writesPerPass = writes / writeReadPasses

/// The read row: all passes on one thread, or half on each of two.
func readRow(
  _ read: @escaping @Sendable (Int) -> Int
) -> (one: [Double], two: [Double], cpuOverWall: [Double]) {
  var one: [Double] = []
  var two: [Double] = []
  var utilisation: [Double] = []
  for repetition in 0..<(warmUp + repetitions) {
    let single = measure([{ read(passes) }])
    let split = measure([{ read(passes / 2) }, { read(passes / 2) }])
    precondition(single.sum == split.sum, "DerivedContention: the reads disagree")
    if repetition >= warmUp {
      one.append(single.wall)
      two.append(split.wall)
      utilisation.append(split.cpu / split.wall)
    }
  }
  return (one, two, utilisation)
}

/// The write-and-read row: the writes (each with its read) and the reads on one thread,
/// interleaved, or each on a thread of its own.
func writeReadRow() -> (one: [Double], two: [Double]) {
  var one: [Double] = []
  var two: [Double] = []
  for repetition in 0..<(warmUp + repetitions) {
    let single = measure([
      {
        var total = 0
        for _ in 0..<writeReadPasses {
          total &+= graph.writeAndRead(writesPerPass)
          total &+= graph.readPasses(1)
        }
        return total
      }
    ])
    let split = measure([
      { graph.writeAndRead(writes) }, { graph.readPasses(writeReadPasses) },
    ])
    _ = (single.sum, split.sum)
    if repetition >= warmUp {
      one.append(single.wall)
      two.append(split.wall)
    }
  }
  return (one, two)
}

let readTimes = readRow { graph.readPasses($0) }
let writeReadTimes = writeReadRow()
let totalReads = Double(passes * valueCount)
print(
  "derived-contention: reads=\(passes * valueCount) writes=\(writes)"
    + " repetitions=\(repetitions)"
    + " one-thread-ns-per-read=\(format(median(readTimes.one) / totalReads))"
    + " two-threads-ns-per-read=\(format(median(readTimes.two) / totalReads))"
    + " two-threads-cpu-over-wall=\(format(median(readTimes.cpuOverWall)))"
    + " write-read-one-thread-ns=\(format(median(writeReadTimes.one)))"
    + " write-read-two-threads-ns=\(format(median(writeReadTimes.two)))")
print("derived-read-2-threads=\(format(median(readTimes.one) / median(readTimes.two)))")
print(
  "derived-write-read-2-threads=\(format(median(writeReadTimes.one) / median(writeReadTimes.two)))"
)
