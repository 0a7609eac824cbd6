import Synchronization

#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// The package's one lock: the Synchronization module's `Mutex`, the same code on every
/// platform, made visible to ThreadSanitizer.
///
/// - `Mutex` donates priority to its holder where the platform can (`os_unfair_lock` on
///   Apple platforms, a priority-inheritance futex on Linux), allocates nothing and lives
///   inline in its owner.
/// - ThreadSanitizer intercepts `pthread_mutex_*` but not a futex, so on Linux it does not see
///   `Mutex`'s hand-off and reports a race on every contended lock. The lock therefore tells
///   it: after acquiring, `__tsan_acquire(owner)`; before releasing, `__tsan_release(owner)`,
///   on the address of the object that owns the lock. Those functions exist only in a
///   ThreadSanitizer build; they are looked up once, and without them the lock costs one
///   predictable branch more than `Mutex`.
///
/// Held only around short bookkeeping: never around user code, and never while taking
/// another lock, except an observer's lock while taking a registrar's (see `ObserverCore`).
/// One exception, documented where it is taken: the new derived engine's graph lock compares
/// a new result with the stored one (`==`) and relinks a value's input link, which takes an
/// observer's and registrars' locks (see `DerivedGraph`, "Locking"); its computations run
/// outside it.
struct Lock: ~Copyable {
  private let mutex = Mutex(())

  init() {}

  /// Runs `body` while holding the lock.
  ///
  /// - Parameter owner: The object that owns the lock (any stable address unique to it),
  ///   which ThreadSanitizer uses as the synchronisation point.
  @inline(__always)
  func withLock<R, E: Error>(
    owner: UnsafeRawPointer, _ body: () throws(E) -> R
  ) throws(E) -> R {
    try mutex.withLock { (_: inout ()) throws(E) -> R in
      // One load of a statically initialised atomic per lock when the process runs without
      // ThreadSanitizer (a lazy global would cost a `swift_once` call on every lock).
      let annotates = ThreadSanitizerAnnotations.areActive
      if _slowPath(annotates) { ThreadSanitizerAnnotations.acquire(owner) }
      defer { if _slowPath(annotates) { ThreadSanitizerAnnotations.release(owner) } }
      return try body()
    }
  }
}

/// ThreadSanitizer's interface for synchronisation it cannot see, when the process runs
/// with it.
///
/// Looked up with `dlsym` the first time a lock is taken. The state lives in atomics with
/// constant initial values, which the compiler initialises statically: reading them costs a
/// load, where a lazily initialised global would cost a `swift_once` call on every lock.
/// `functions` holds the two functions' addresses once found; `lookedUp` is stored after them
/// (releasing) and read before them (acquiring), so a thread that sees 2 sees the addresses.
/// Two threads that look up at once store the same values.
enum ThreadSanitizerAnnotations {
  typealias Annotation = @convention(c) (UnsafeRawPointer?) -> Void

  /// 0 until looked up; then 1 without ThreadSanitizer, 2 with it.
  private static let lookedUp = Atomic<UInt8>(0)
  private static let acquireAddress = Atomic<UInt>(0)
  private static let releaseAddress = Atomic<UInt>(0)

  /// Whether the process runs with ThreadSanitizer (looked up the first time).
  @inline(__always)
  static var areActive: Bool {
    switch lookedUp.load(ordering: .acquiring) {
    case 1: false
    case 2: true
    default: lookUp()
    }
  }

  /// Tells ThreadSanitizer that the lock owned by `owner` was acquired.
  static func acquire(_ owner: UnsafeRawPointer) {
    call(acquireAddress.load(ordering: .relaxed), owner)
  }

  /// Tells ThreadSanitizer that the lock owned by `owner` is about to be released.
  static func release(_ owner: UnsafeRawPointer) {
    call(releaseAddress.load(ordering: .relaxed), owner)
  }

  private static func call(_ address: UInt, _ owner: UnsafeRawPointer) {
    guard let function = UnsafeRawPointer(bitPattern: address) else { return }
    unsafeBitCast(function, to: Annotation.self)(owner)
  }

  @inline(never)
  private static func lookUp() -> Bool {
    guard let acquire = dlsym(nil, "__tsan_acquire"), let release = dlsym(nil, "__tsan_release")
    else {
      lookedUp.store(1, ordering: .releasing)
      return false
    }
    acquireAddress.store(UInt(bitPattern: acquire), ordering: .relaxed)
    releaseAddress.store(UInt(bitPattern: release), ordering: .relaxed)
    lookedUp.store(2, ordering: .releasing)
    return true
  }
}

/// A value protected by a ``Lock``; the lock the package's other modules use too (`package`),
/// so that every lock in the package is the same, ThreadSanitizer-visible one.
///
/// Invariant (why `@unchecked Sendable` holds): `state` is only read or written inside
/// `withLock`, while `lock` is held.
package final class Locked<State>: @unchecked Sendable {
  private let lock = Lock()
  private var state: State

  private init(_ state: State) {
    self.state = state
  }

  /// Creates a lock around `state`.
  package static func make(_ state: State) -> Locked<State> { Locked(state) }

  /// Runs `body` with exclusive access to the state.
  package func withLock<R, E: Error>(_ body: (inout State) throws(E) -> R) throws(E) -> R {
    try lock.withLock(owner: UnsafeRawPointer(Unmanaged.passUnretained(self).toOpaque())) {
      () throws(E) -> R in try body(&state)
    }
  }
}
