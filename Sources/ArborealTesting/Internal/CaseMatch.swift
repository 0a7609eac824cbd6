/// Matches an enum value against a case given as its constructor (`Action.loaded`), by
/// reflection, without comparing payloads.
enum CaseMatch {
  /// Whether `value` is of the case `casePattern` makes: its payload has the constructor's
  /// parameter type, and rebuilding a value from that payload gives the same case name.
  static func action<Value, Payload>(
    _ value: Value, isCaseOf casePattern: (Payload) -> Value
  ) -> Bool {
    guard let (name, payload) = caseOf(value), let payload = cast(payload, to: Payload.self)
    else { return false }
    return caseOf(casePattern(payload))?.name == name
  }

  /// `payload` as a `Payload`; a single labelled associated value (`case loaded(count: Int)`)
  /// reflects as a one-element tuple, which is unwrapped.
  private static func cast<Payload>(_ payload: Any, to: Payload.Type) -> Payload? {
    if let payload = payload as? Payload { return payload }
    let mirror = Mirror(reflecting: payload)
    guard mirror.displayStyle == .tuple, mirror.children.count == 1 else { return nil }
    return mirror.children.first?.value as? Payload
  }

  /// The case name and payload of an enum value with a payload; nil for anything else.
  private static func caseOf(_ value: Any) -> (name: String, payload: Any)? {
    let mirror = Mirror(reflecting: value)
    guard mirror.displayStyle == .enum, let child = mirror.children.first,
      let name = child.label
    else { return nil }
    return (name, child.value)
  }
}
