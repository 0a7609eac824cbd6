import Testing

@testable import ArborealTracking

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The platform facts the registrar relies on, checked where they can fail.
@Suite struct PlatformTests {
  #if !canImport(Darwin)
    /// Main-actor detection on Linux asks the concurrency runtime through a symbol that is not
    /// public API; if a toolchain drops it, this fails instead of main-actor observers
    /// silently becoming asynchronous.
    @Test func theRuntimesExecutorCheckResolves() {
      #expect(Platform.canCheckTheCurrentExecutor)
    }
  #endif

  @MainActor @Test func theMainActorIsRecognised() {
    #expect(Platform.isOnMainActor)
  }

  @Test func aDetachedTaskIsNotOnTheMainActor() async {
    #expect(await Task.detached { Platform.isOnMainActor }.value == false)
  }

  /// The lock annotates its hand-offs for ThreadSanitizer exactly when the process runs with
  /// it (the annotations are what keep its stress suite free of false reports).
  @Test func theLockTalksToThreadSanitizerExactlyWhenItRuns() {
    let sanitizerRuns = dlsym(nil, "__tsan_init") != nil
    #expect(ThreadSanitizerAnnotations.areActive == sanitizerRuns)
  }

  @Test func theLockExcludesConcurrentWriters() async {
    let counter = Locked.make(0)
    await withTaskGroup(of: Void.self) { group in
      for _ in 0..<4 {
        group.addTask {
          for _ in 0..<10_000 { counter.withLock { $0 += 1 } }
        }
      }
    }
    #expect(counter.withLock { $0 } == 40_000)
  }
}
