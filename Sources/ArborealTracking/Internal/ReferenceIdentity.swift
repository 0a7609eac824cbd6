/// How a tracked property whose value is not `Equatable` still tells "no change": a reference
/// (a child model) or an optional reference (an optional child) is the same when it is the
/// same instance, or nil both times. Writing nil over nil, or the same child again, then
/// notifies nobody.
///
/// Other values that are not `Equatable` (an enumeration holding models, say) have no
/// comparison, and every write of them is a change.
@usableFromInline
enum ReferenceIdentity {
  /// The identity comparison for values of `type`, or nil when they are not references.
  ///
  /// - Parameter type: The value's type.
  /// - Returns: A comparison of two values by identity; nil for other types.
  @usableFromInline
  static func comparison<Value>(for type: Value.Type) -> (@Sendable (Value, Value) -> Bool)? {
    if type is AnyObject.Type {
      return { ($0 as AnyObject) === ($1 as AnyObject) }
    }
    if type is any OptionalReference.Type {
      return { lhs, rhs in
        (lhs as? any OptionalReference)?.reference === (rhs as? any OptionalReference)?.reference
      }
    }
    return nil
  }
}

/// An optional whose wrapped value is a reference.
protocol OptionalReference {
  /// The reference, or nil.
  var reference: AnyObject? { get }
}

extension Optional: OptionalReference where Wrapped: AnyObject {
  var reference: AnyObject? { self }
}
