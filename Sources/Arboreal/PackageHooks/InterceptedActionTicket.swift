/// What ``Store/effectActionInterceptor`` receives with an effect's action: a hold on the
/// effect's group, given back when the action is handled with
/// ``Store/handleIntercepted(_:ticket:)``. Package hook for `ArborealTesting`; not API.
package struct InterceptedActionTicket: Sendable {
  let group: GroupID
  /// The log number of the action that started the effect (0 if unknown).
  let origin: Int
  /// The number of the effect that delivered the action (as in `effect #3`); nil for an
  /// action an update returned with `Fx.send(_:)` or `Fx.dismiss`.
  package let effect: UInt64?
  /// The child model whose effect delivered the action, in debug builds (see `ForwardProbe`).
  let owner: ChildLink?
}

/// What ``Store/effectDeliveryHold`` is: asked, on the main actor, before an effect's action is
/// delivered, whether the effect must wait first; the test store holds an effect that would
/// otherwise run ahead of the test. Package hook for `ArborealTesting`; not API.
package protocol EffectDeliveryHold: AnyObject {
  /// Whether effect number `effect` must wait before it delivers its next action.
  func mustHold(_ effect: UInt64) -> Bool

  /// Keeps `continuation`, to resume when effect `effect` may deliver. Before resuming it, the
  /// hold counts the delivery as under way again (`EffectTrace.deliveryBegan()`).
  func hold(_ effect: UInt64, until continuation: CheckedContinuation<Void, Never>)
}
