import Synchronization

#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// Thread identity helpers that do not need Foundation.
enum Platform {
  /// The main thread's identity, recorded the first time code that is known to run on the main
  /// actor registers an observer. Zero until then.
  private static let mainThread = Atomic<UInt>(0)

  /// An integer naming the calling thread, stable for the thread's lifetime.
  static var currentThread: UInt {
    #if canImport(Darwin)
      return UInt(bitPattern: pthread_self())
    #else
      return UInt(pthread_self())
    #endif
  }

  /// Records the calling thread as the main thread. Call only from main-actor code.
  static func noteMainThread() {
    #if !canImport(Darwin)
      mainThread.store(currentThread, ordering: .relaxed)
    #endif
  }

  /// Whether the calling thread is the main thread, that is, where the main actor runs.
  static var isMainThread: Bool {
    #if canImport(Darwin)
      return pthread_main_np() != 0
    #else
      return mainThread.load(ordering: .relaxed) == currentThread
    #endif
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
