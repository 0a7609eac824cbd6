import Arboreal

/// What ``TestStore/send(_:assert:fileID:filePath:line:column:)`` returns: the `SendHandle`
/// of the action, whose ``value`` fails the test instead of waiting forever.
///
/// In an exhaustive test store, the actions effects deliver wait for
/// ``TestStore/receive(_:timeout:assert:fileID:filePath:line:column:)-(Model.Action,_,_,_,_,_,_)`` before they are handled,
/// so the effects of a send are not finished until the test has received them. Awaiting
/// ``value`` before receiving them would wait forever; instead, once no effect can go on, it
/// fails the test with the actions still waiting and returns.
///
/// ```swift
/// let load = await store.send(.load)
/// await store.receive(.loaded(42)) { #expect($0.count == 42) }
/// await load.value  // the load effect has ended
/// ```
public struct TestSendHandle {
  /// The store's handle on the effects the action started.
  public let handle: SendHandle
  /// Runs the effects until `handle` is finished, failing at the send's location when it cannot
  /// be.
  private let wait: @MainActor @Sendable (SendHandle) async -> Void

  init(handle: SendHandle, wait: @escaping @MainActor @Sendable (SendHandle) async -> Void) {
    self.handle = handle
    self.wait = wait
  }

  /// Waits until the effects the action started have finished (or were cancelled) and every
  /// action they delivered has been received, running the effects meanwhile; fails the test (at
  /// the line of the `send`) when no effect can go on first (or, for work outside the test,
  /// after the test store's ``TestStore/timeout`` when it has one).
  ///
  /// The failure lists the actions waiting to be received: receive them first, or end the test
  /// with ``TestStore/finish(timeout:fileID:filePath:line:column:)``.
  @MainActor public var value: Void {
    get async { await wait(handle) }
  }

  /// Cancels the effects the action started: they deliver nothing more.
  @MainActor public func cancel() {
    handle.cancel()
  }

  /// Whether the effects the action started have all finished or been cancelled.
  @MainActor public var isFinished: Bool {
    handle.isFinished
  }
}
