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

/// Opens a transaction on the calling thread (nil when one is already open: the changes then
/// join it) and begins a change recording in it: ``openTransaction()`` then
/// ``beginChangeRecording(keepingValues:)``, with one look-up of the thread's context. For the
/// store's logged send; the recording ends before the transaction closes.
@usableFromInline
package func openTransactionRecording(
  keepingValues: Bool
) -> (transaction: OpenTransaction?, recording: ChangeRecordingMark) {
  let unmanaged = ThreadContext.unmanagedCurrentOrNew
  let opened = unmanaged._withUnsafeGuaranteedRef { open(in: $0) }
  return (opened, beginChangeRecording(in: unmanaged, keepingValues: keepingValues))
}

/// Closes the transaction `opened` together with the change recording that shares its span
/// and ends now, when closing notifies nobody: the recording's end and the transaction's close
/// in one step (see `WriteLog.endRecordingClosingTransaction()`). Returns false, having done
/// nothing, when the span is not shared or an observer waits; the caller then ends the
/// recording and closes the transaction apart.
func closeTransaction(_ opened: OpenTransaction, endingRecordingIn context: ThreadContext) -> Bool {
  #if ARBOREAL_NEW_DERIVED
    // The new engine settles and refreshes its marks as the transaction closes (see
    // `Transaction.deliver(_:)`): not taken apart here.
    return false
  #else
    guard opened.context.toOpaque() == Unmanaged.passUnretained(context).toOpaque(),
      context.transaction.isIdle, let span = context.writes.spans.last, span.isTransaction,
      span.isRecording
    else { return false }
    context.isInTransaction = false
    context.writes.endRecordingClosingTransaction()
    return true
  #endif
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
