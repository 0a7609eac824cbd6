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
public struct SendHandle: Sendable {
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
  public var value: Void {
    get async {
      guard group != nil else { return }
      await waitOnMainActor()
    }
  }

  @MainActor private func waitOnMainActor() async {
    guard let group else { return }
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      // The store is loaded here and released when this closure returns: a suspended waiter
      // never keeps it alive. Its release resumes every waiter.
      guard let host, host.addWaiter(continuation, for: group) else {
        continuation.resume()
        return
      }
    }
  }

  /// Cancels the effects the action started, and those started by the actions they
  /// delivered: they deliver nothing more, and ``value`` returns.
  ///
  /// Does nothing when they have already finished.
  ///
  /// - Complexity: O(*e* log *e*) for the *e* running effects of the store.
  @MainActor public func cancel() {
    guard let group else { return }
    host?.cancel(group: group)
  }

  /// Whether the effects the action started have all finished or been cancelled (always true
  /// for an action that started none).
  @MainActor public var isFinished: Bool {
    guard let group, let host else { return true }
    return !host.isOpen(group)
  }
}

/// A store's weak reference to itself, shared by all the send handles it returns: one
/// allocation per store (at its first effect), none per send.
///
/// Invariant (why `@unchecked Sendable` holds): `host` is written only by `init`; loading a
/// weak reference is thread-safe in the Swift runtime.
final class HostReference: @unchecked Sendable {
  private(set) weak var host: (any EffectHost)?

  init(_ host: any EffectHost) {
    self.host = host
  }
}

/// What a ``SendHandle`` needs from its store.
@MainActor
protocol EffectHost: AnyObject, Sendable {
  /// Registers a waiter to resume when `group` closes; false when it is closed already.
  func addWaiter(_ waiter: CheckedContinuation<Void, Never>, for group: GroupID) -> Bool
  /// Cancels the effects of `group`.
  func cancel(group: GroupID)
  /// Whether `group` still has work queued, running or being handled.
  func isOpen(_ group: GroupID) -> Bool
}
