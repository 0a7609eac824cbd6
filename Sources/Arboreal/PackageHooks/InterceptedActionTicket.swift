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
}
