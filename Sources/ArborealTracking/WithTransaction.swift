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
  guard let opened = openTransaction() else { return try body() }
  defer { closeTransaction(opened) }
  return try body()
}

/// A transaction opened by ``openTransaction()``; pass it to ``closeTransaction(_:)``.
///
/// Unowned references: the thread owns its context, and the context holds the transaction
/// until `closeTransaction(_:)` takes it back, so copying this value retains nothing.
package struct OpenTransaction {
  fileprivate unowned(unsafe) let context: ThreadContext
  fileprivate unowned(unsafe) let transaction: Transaction
}

/// Opens a transaction on the calling thread, or returns nil when one is already open (the
/// changes then join it). For callers that cannot pass a closure cheaply (the store's send);
/// every non-nil result must be closed, on the same thread, with ``closeTransaction(_:)``.
package func openTransaction() -> OpenTransaction? {
  guard let unmanaged = ThreadContext.unmanagedCurrent else {
    return open(in: ThreadContext.current)
  }
  return unmanaged._withUnsafeGuaranteedRef { open(in: $0) }
}

private func open(in context: ThreadContext) -> OpenTransaction? {
  if context.transaction != nil { return nil }
  let transaction = context.spareTransaction ?? Transaction()
  context.spareTransaction = nil
  context.transaction = transaction
  return OpenTransaction(context: context, transaction: transaction)
}

/// Closes a transaction opened by ``openTransaction()`` and notifies its observers.
package func closeTransaction(_ opened: OpenTransaction) {
  // Take a strong reference before the context lets go of the transaction.
  let transaction = opened.transaction
  opened.context.transaction = nil
  transaction.deliver()
  opened.context.spareTransaction = transaction
}
