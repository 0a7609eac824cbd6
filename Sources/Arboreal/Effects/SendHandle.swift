/// What ``Store/send(_:)`` returns: a handle on the effects that one action started.
///
/// Await ``value`` to wait until those effects have finished and every action they delivered
/// has been handled by the store, including the effects *those* actions started: when it
/// returns, the consequences of the action have settled. Call ``cancel()`` to cancel them.
/// Discarding the handle changes nothing: the effects run on.
///
/// ```swift
/// await store.send(.refresh).value
/// print(store.state.results)  // the results the refresh effect delivered
/// ```
///
/// The handle is a small value: a send that starts no effect returns one that refers to
/// nothing and is already finished, so a plain `send` allocates no task and no handle storage.
/// The handle does not keep the store alive; once the store is released (which cancels its
/// effects), `value` returns at once.
///
/// Like its store, a handle belongs to the isolation that made it: it is not `Sendable`.
public struct SendHandle {
  /// The store's weak reference to itself; nil when the action started no effect.
  ///
  /// Not a `weak var` in the handle itself: that would cost three calls into the runtime for
  /// every plain `send` (initialise, copy, destroy), where a nil reference costs nothing.
  private let reference: HostReference?
  /// The group of effects the action started; nil when it started none.
  let group: GroupID?

  /// A handle on no effect: already finished.
  ///
  /// What a custom ``ArborealStore`` returns for an action that starts no effect (or that it
  /// drops); ``value`` returns at once and ``cancel()`` does nothing.
  public init() {
    self.reference = nil
    self.group = nil
  }

  init(reference: HostReference, group: GroupID) {
    self.reference = reference
    self.group = group
  }

  /// The store, while it exists.
  private var host: (any EffectHost)? { reference?.host }

  /// Waits until the effects the action started have finished (or were cancelled) and every
  /// action they delivered has been handled, transitively.
  ///
  /// Returns at once when the action started no effect, or when the store has been released.
  /// Waiting does not keep the store alive. An effect that never ends (a timer nobody cancels)
  /// makes `value` wait until it is cancelled.
  ///
  /// Runs in the caller's isolation, which is the store's.
  nonisolated(nonsending) public var value: Void {
    get async {
      guard let group, let reference else { return }
      await reference.wait(for: group)
    }
  }

  /// Cancels the effects the action started, and those started by the actions they
  /// delivered: they deliver nothing more, and ``value`` returns.
  ///
  /// Does nothing when they have already finished.
  ///
  /// - Complexity: O(*e* log *e*) for the *e* running effects of the store.
  public func cancel() {
    guard let group else { return }
    host?.cancel(group: group)
  }

  /// Whether the effects the action started have all finished or been cancelled (always true
  /// for an action that started none).
  public var isFinished: Bool {
    guard let group, let host else { return true }
    return !host.isOpen(group)
  }
}

/// A store's weak reference to itself, shared by all the send handles it returns: one
/// allocation per store (at its first effect), none per send.
final class HostReference {
  private(set) weak var host: (any EffectHost)?

  init(_ host: any EffectHost) {
    self.host = host
  }

  /// Waits until `group` closes or the store is released, in the store's isolation (the
  /// caller's). The store is loaded only between suspensions, so that a suspended wait never
  /// keeps it alive; its release resumes every waiter.
  nonisolated(nonsending) func wait(for group: GroupID) async {
    host?.bind(to: callerIsolation())
    if host?.nextMail != nil {
      // A store made outside any actor: its effects' deliveries are handled here, by its owner.
      while true {
        let next: @Sendable () async -> Void
        do {
          guard let host, let nextMail = host.nextMail else { return }
          host.handleMail()
          guard host.isOpen(group) else { return }
          next = nextMail
        }
        await next()
      }
    }
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      // The store is loaded here and released when this closure returns.
      guard let host, host.addWaiter(continuation, for: group) else {
        continuation.resume()
        return
      }
    }
  }
}

/// What a ``SendHandle`` needs from its store.
protocol EffectHost: AnyObject {
  /// Registers a waiter to resume when `group` closes; false when it is closed already.
  func addWaiter(_ waiter: CheckedContinuation<Void, Never>, for group: GroupID) -> Bool
  /// For a store made outside any actor, whose effects' deliveries wait in a mailbox for its
  /// owner (see `StoreHome`): returns once an effect posted something there (or the store is
  /// gone), without holding the store. nil for a store on an actor.
  var nextMail: (@Sendable () async -> Void)? { get }
  /// Handles what the store's effects posted in its mailbox.
  func handleMail()
  /// Binds a store made outside any actor to `isolation`, its owner's (see `StoreHome`).
  func bind(to isolation: (any Actor)?)
  /// Cancels the effects of `group`.
  func cancel(group: GroupID)
  /// Whether `group` still has work queued, running or being handled.
  func isOpen(_ group: GroupID) -> Bool
}
