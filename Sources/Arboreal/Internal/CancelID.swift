/// The identity an effect is cancelled by: any `Hashable & Sendable` value, type-erased.
///
/// Two identifiers are equal when their values have the same type and are equal
/// (`AnyHashable` semantics), so `"search"` and `SearchID()` never collide, while two uses of
/// `"search"` anywhere in one store do.
///
/// Invariant (why `@unchecked Sendable` holds): `base` is only ever made from a value that is
/// itself `Sendable` (the only initialiser takes `some Hashable & Sendable`), and
/// `AnyHashable` adds no shared mutable state of its own.
struct CancelID: Hashable, @unchecked Sendable {
  let base: AnyHashable

  init(_ value: some Hashable & Sendable) {
    base = AnyHashable(value)
  }
}
