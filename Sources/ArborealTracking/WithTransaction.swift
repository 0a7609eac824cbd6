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
/// - Complexity: O(*c* + *k*) beyond `body`, for *c* changes and *k* observers notified.
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
/// An unmanaged reference: the thread owns its context, so copying this value retains nothing.
@usableFromInline
package struct OpenTransaction {
  fileprivate let context: Unmanaged<ThreadContext>
}

/// Opens a transaction on the calling thread, or returns nil when one is already open (the
/// changes then join it). For callers that cannot pass a closure cheaply (the store's send);
/// every non-nil result must be closed, on the same thread, with ``closeTransaction(_:)``.
@usableFromInline
package func openTransaction() -> OpenTransaction? {
  guard let unmanaged = ThreadContext.unmanagedCurrent else {
    return open(in: ThreadContext.current)
  }
  return unmanaged._withUnsafeGuaranteedRef { open(in: $0) }
}

private func open(in context: ThreadContext) -> OpenTransaction? {
  if context.isInTransaction { return nil }
  context.isInTransaction = true
  context.transaction.open(context)
  return OpenTransaction(context: Unmanaged.passUnretained(context))
}

/// Closes a transaction opened by ``openTransaction()`` and notifies its observers.
///
/// The transaction is closed before its observers run, so their own changes notify on their
/// own (or in a transaction they open, which reuses the same object: delivery works on a copy).
@usableFromInline
package func closeTransaction(_ opened: OpenTransaction) {
  opened.context._withUnsafeGuaranteedRef { context in
    context.isInTransaction = false
    context.transaction.deliver(context)
  }
}
