/// Whether the action a store handles, which came from an effect of a child model, reached
/// that child's update through a `forward`: a parent that handles a child's action without
/// forwarding it (`case .child: return .none`) is reported in debug builds, naming the child.
///
/// ## Data
/// - `awaited`: the child whose update the action in hand must reach, while a store applies an
///   action that one of its effects delivered; nil otherwise.
/// - `reached`: whether a `forward` ran that child's update since it was set.
///
/// ## Invariants
/// - Set and read on the main actor only, around one `update` call: a store saves the previous
///   state before it sets its own, and puts it back after, so that an update that sends to
///   another store synchronously leaves the outer probe as it was.
@MainActor
@usableFromInline
enum ForwardProbe {
  @usableFromInline static var awaited: ObjectIdentifier?
  @usableFromInline static var reached = false
  /// The last few reports, newest last, for this package's tests (the diagnostics handler is
  /// one global that tests running at the same time replace).
  private(set) static var recentReports: [String] = []
  /// How many reports were made, ever; for this package's tests.
  private(set) static var reportCount = 0

  /// Notes that a `forward` is running `child`'s update.
  @inlinable
  static func forwarding(to child: AnyObject) {
    if let awaited, awaited == ObjectIdentifier(child) { reached = true }
  }

  /// Runs `apply` (a store's update of an action an effect of `owner` delivered) and reports
  /// the action if no `forward` ran `owner`'s update meanwhile.
  ///
  /// - Parameters:
  ///   - action: The action, for the report.
  ///   - owner: The innermost child model whose effect delivered it.
  ///   - apply: Runs the update.
  /// - Returns: What `apply` returns.
  static func expecting<Result>(
    _ action: some Sendable, from owner: ChildLink, _ apply: () -> Result
  ) -> Result {
    let saved = (awaited, reached)
    awaited = ObjectIdentifier(owner.child)
    reached = false
    defer { (awaited, reached) = saved }
    let result = apply()
    if !reached {
      let message =
        "Arboreal: \(action) came from an effect of \(owner.name), and no update forwarded it "
        + "to that child. Forward every action of a child with `forward(…)`, a delegate "
        + "action too (the child's update may ignore it: `case .delegate: return .none`): "
        + "handled without it, the child never sees it."
      reportCount += 1
      recentReports.append(message)
      if recentReports.count > 16 { recentReports.removeFirst() }
      ArborealDiagnostics.reportDroppedAction(message)
    }
    return result
  }
}
