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
  /// The test store, which runs the effects until `handle` is finished, failing at the send's
  /// location when it cannot be. Held weakly: a handle does not keep its store alive.
  private weak var waiter: (any SendHandleWaiter)?
  /// What the failure names: `send(load)`, and where the send was made.
  private let label: String
  private let location: CallerLocation

  init(
    handle: SendHandle, waiter: any SendHandleWaiter, label: String, location: CallerLocation
  ) {
    self.handle = handle
    self.waiter = waiter
    self.label = label
    self.location = location
  }

  /// Waits until the effects the action started have finished (or were cancelled) and every
  /// action they delivered has been received, running the effects meanwhile; fails the test (at
  /// the line of the `send`) when no effect can go on first (or, for work outside the test,
  /// after the test store's ``TestStore/timeout`` when it has one).
  ///
  /// The failure lists the actions waiting to be received: receive them first, or end the test
  /// with ``TestStore/finish(timeout:fileID:filePath:line:column:)``.
  nonisolated(nonsending) public var value: Void {
    get async { await waiter?.wait(for: handle, label: label, at: location) }
  }

  /// Cancels the effects the action started: they deliver nothing more.
  public func cancel() {
    handle.cancel()
  }

  /// Whether the effects the action started have all finished or been cancelled.
  public var isFinished: Bool {
    handle.isFinished
  }
}

/// What a ``TestSendHandle`` waits through: its test store. A protocol method rather than a
/// closure, so that the wait runs in the caller's isolation (the test store's) for certain.
protocol SendHandleWaiter: AnyObject {
  /// Runs the effects until `handle` is finished, failing at `location` when it cannot be.
  nonisolated(nonsending) func wait(
    for handle: SendHandle, label: String, at location: CallerLocation) async
}
