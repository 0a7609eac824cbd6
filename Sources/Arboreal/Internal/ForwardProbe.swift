import ArborealTracking

/// Whether the action a store handles, which came from an effect of a child model or was sent
/// to a child's view store, reached that child's update through a `forward`: a parent that
/// handles a child's action without forwarding it (`case .child: return .none`) is reported in
/// debug builds, naming the child.
///
/// ## Data
/// - `awaited`: the child whose update the action in hand must reach, while a store applies an
///   action that one of its effects delivered, or while a view store's send runs; nil
///   otherwise.
/// - `reached`: whether a `forward` ran that child's update since it was set.
/// - `deferred`: whether the store queued the action instead of handling it now (a view
///   store's send while the store is busy); then nothing is judged.
///
/// ## Invariants
/// - The thread's (`ThreadSlots.forwardProbe`): set and read around one `update` call or one
///   view store's send, which run synchronously on one thread in the store's isolation:
///   the opener saves the previous state before it sets its own, and puts it back after, so
///   that an update that sends to another store synchronously leaves the outer probe as it
///   was.
/// - A view store opens a probe only when none is open: a view store's send goes through its
///   parents' view stores, and the innermost child (the first opener) is the one to reach.
@usableFromInline
enum ForwardProbe {
  /// The reports made, for this package's tests (the diagnostics handler is one global that
  /// tests running at the same time replace): the last few, newest last, and how many ever.
  private static let reports = Locked.make((recent: [String](), count: 0))

  /// The last few reports, newest last, for this package's tests.
  static var recentReports: [String] { reports.withLock { $0.recent } }
  /// How many reports were made, ever; for this package's tests.
  static var reportCount: Int { reports.withLock { $0.count } }

  /// Notes that a `forward` is running `child`'s update.
  @usableFromInline
  static func forwarding(to child: AnyObject) {
    let probe = ThreadSlots.forwardProbe
    if let awaited = probe.awaited, awaited == ObjectIdentifier(child) {
      ThreadSlots.forwardProbe.reached = true
    }
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
    expecting(action, reaching: owner.child, "came from an effect of \(owner.name)", apply)
  }

  /// Runs `send` (a view store's send of `action` to its parent) and reports the action if
  /// the store handled it now and no `forward` ran `child`'s update meanwhile. Runs `send`
  /// alone when a probe is open already (the send of an inner view store, or an update in
  /// progress).
  ///
  /// - Parameters:
  ///   - action: The child action, for the report.
  ///   - child: The view store's child.
  ///   - name: The child's name in the report.
  ///   - send: Sends the tagged action to the parent.
  /// - Returns: What `send` returns.
  static func expecting<Result>(
    _ action: some Sendable, sentTo child: AnyObject, named name: String,
    _ send: () -> Result
  ) -> Result {
    guard ThreadSlots.forwardProbe.awaited == nil else { return send() }
    return expecting(action, reaching: child, "was sent to the view store of \(name)", send)
  }

  /// Notes that the store queued the action in hand instead of handling it now.
  static func noteQueued() {
    if ThreadSlots.forwardProbe.awaited != nil { ThreadSlots.forwardProbe.deferred = true }
  }

  /// Runs `apply` and reports `action` (described by `source`) if no `forward` ran `child`'s
  /// update meanwhile and the action was not queued.
  private static func expecting<Result>(
    _ action: some Sendable, reaching child: AnyObject, _ source: @autoclosure () -> String,
    _ apply: () -> Result
  ) -> Result {
    let saved = ThreadSlots.forwardProbe
    var probe = ForwardProbeState()
    probe.awaited = ObjectIdentifier(child)
    ThreadSlots.forwardProbe = probe
    defer { ThreadSlots.forwardProbe = saved }
    let result = apply()
    let after = ThreadSlots.forwardProbe
    if !after.reached, !after.deferred {
      let message =
        "Arboreal: \(action) \(source()), and no update forwarded it to that child. Forward "
        + "every action of a child with `forward(…)`, a delegate action too (the child's "
        + "update may ignore it: `case .delegate: return .none`): handled without it, the "
        + "child never sees it."
      reports.withLock { reports in
        reports.count += 1
        reports.recent.append(message)
        if reports.recent.count > 16 { reports.recent.removeFirst() }
      }
      ArborealDiagnostics.reportDroppedAction(message)
    }
    return result
  }
}
