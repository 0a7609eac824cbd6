/// What ``Store/effectActionInterceptor`` receives with an effect's action: a hold on the
/// effect's group, given back when the action is handled with
/// ``Store/handleIntercepted(_:ticket:)``. Package hook for `ArborealTesting`; not API.
package struct InterceptedActionTicket: Sendable {
  let group: GroupID
  /// The log number of the action that started the effect (0 if unknown).
  let origin: Int
}
