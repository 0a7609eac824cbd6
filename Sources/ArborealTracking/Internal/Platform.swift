import Synchronization

#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// Platform helpers that do not need Foundation.
enum Platform {
  /// Whether the calling code runs on the main actor.
  ///
  /// On Apple platforms the main actor is the main thread. On Linux it is not tied to one
  /// thread (under `swift test` its jobs run on whichever thread drains the main queue), so
  /// the concurrency runtime is asked whether the main actor's executor is the current one,
  /// with the same entry point and "must not crash" flags the standard library's
  /// `Task.immediate` uses.
  static var isOnMainActor: Bool {
    #if canImport(Darwin)
      return pthread_main_np() != 0
    #else
      return isCurrentExecutor(MainActor.sharedUnownedExecutor, 0)
    #endif
  }

  /// A monotonic clock reading, in nanoseconds.
  static func monotonicNanoseconds() -> UInt64 {
    var time = timespec()
    clock_gettime(CLOCK_MONOTONIC, &time)
    return UInt64(time.tv_sec) &* 1_000_000_000 &+ UInt64(time.tv_nsec)
  }

  /// Writes a line to standard error, unbuffered.
  static func printError(_ message: String) {
    var line = message
    line.append("\n")
    line.withUTF8 { bytes in
      guard let base = bytes.baseAddress else { return }
      _ = write(2, base, bytes.count)
    }
  }
}

#if !canImport(Darwin)
  /// The concurrency runtime's `swift_task_isCurrentExecutorWithFlags`, looked up once.
  ///
  /// It cannot be declared with `@_silgen_name`: the standard library declares the same
  /// symbol with a builtin type, and the two clash. It takes the executor's two words and the
  /// flags; with the flags 0 it returns false instead of crashing. The Swift calling
  /// convention passes these integer-sized arguments in the same registers as C.
  private typealias CurrentExecutorCheck =
    @convention(c) (UnsafeRawPointer?, UInt, UInt64) -> Bool

  private let currentExecutorCheck: CurrentExecutorCheck? = {
    guard let symbol = dlsym(nil, "swift_task_isCurrentExecutorWithFlags") else {
      // Not silent: without it, main-actor observers of main-actor changes are enqueued
      // instead of running synchronously, which changes when they run.
      Platform.printError(
        "ArborealTracking: the concurrency runtime has no swift_task_isCurrentExecutorWithFlags; "
          + "main-actor observers will run asynchronously, after the change's task yields.")
      return nil
    }
    return unsafeBitCast(symbol, to: CurrentExecutorCheck.self)
  }()

  extension Platform {
    /// Whether the runtime offers the check ``Platform/isOnMainActor`` relies on.
    static var canCheckTheCurrentExecutor: Bool { currentExecutorCheck != nil }
  }

  /// Whether `executor` is the current executor, without crashing when it is not. False when
  /// the runtime lacks the check.
  private func isCurrentExecutor(_ executor: UnownedSerialExecutor, _ flags: UInt64) -> Bool {
    guard let check = currentExecutorCheck else { return false }
    let words = unsafeBitCast(executor, to: (UnsafeRawPointer?, UInt).self)
    return check(words.0, words.1, flags)
  }
#endif
