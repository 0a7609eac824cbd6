/// Groups changes so that each affected observer is notified once, at the end.
///
/// Inside `body`, changes made on the calling thread are collected; when `body` returns (or
/// throws), every observer they affect is notified once, with all the properties that changed
/// for it. Nested transactions join the outermost one. Changes made on other threads are not
/// part of the transaction.
///
/// ```swift
/// withTransaction {
///   person.firstName = "Ada"
///   person.lastName = "Lovelace"
/// }
/// // An observer of both names ran once, with changes "firstName, lastName".
/// ```
///
/// A transaction allocates nothing once its thread has run one.
///
/// - Parameters:
///   - isolation: The caller's isolation; leave the default. `body` runs synchronously in it.
///   - body: The changes to group.
/// - Returns: What `body` returns.
public func withTransaction<T, E: Error>(
  isolation: isolated (any Actor)? = #isolation,
  _ body: () throws(E) -> T
) throws(E) -> T {
  let context = ThreadContext.current
  if context.transaction != nil { return try body() }
  let transaction = context.spareTransaction ?? Transaction()
  context.spareTransaction = nil
  context.transaction = transaction
  defer {
    context.transaction = nil
    transaction.deliver()
    context.spareTransaction = transaction
  }
  return try body()
}
