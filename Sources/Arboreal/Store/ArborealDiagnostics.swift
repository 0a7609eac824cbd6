import ArborealTracking

/// Mistakes the store reports instead of failing: in debug builds, a message for each.
///
/// ```swift
/// ArborealDiagnostics.droppedActionHandler = { message in logger.warning("\(message)") }
/// ```
public enum ArborealDiagnostics: Sendable {
  // The shape of every diagnostics handler of the library (`TrackingDiagnostics`,
  // `PersistenceDiagnostics`): a public property over a `DiagnosticChannel`, which holds the
  // logic.
  private static let droppedAction = DiagnosticChannel()

  /// Receives the message for an action dropped because its child is no longer in its parent:
  /// one sent to a keyed or presented ``ViewStore`` whose child is gone (a removed row), or
  /// forwarded with ``ArborealModel/forward(_:to:id:environment:)`` (or another `forward`)
  /// to a child that is not there; for an ``Fx/dismiss`` that no presentation or stack
  /// handles; for an action that came back from an effect of a child model and that no
  /// update forwarded to that child; and, once per route, for a ``ModelRoute`` a `forward`
  /// takes that its model's ``ArborealModel/routes`` does not list, when the route's children
  /// subscribe or have routes of their own; once per type, for a ``SubscribingModel``
  /// whose ``ArborealModel/subscriptionReader`` is declared to answer nil, whose subscriptions
  /// would never start; and, once per screen type, for a screen pushed on a ``ModelStack``
  /// while a replay or a timeline rebuilds a model from a recording's snapshot (its screens
  /// numbered afresh, not as recorded); and for the actions that the effects of a store made
  /// outside any actor delivered and that nothing handled before the store was released.
  /// Each message names the action or the type, and the child's place. When nil (the
  /// default), the message is written to standard error.
  ///
  /// Reported in debug builds only; release builds drop such actions silently, as documented
  /// in ``ViewStore``. A report made during an update of a test store's store fails that
  /// test's step as well (`TestStore`, "Mistakes the app would only log").
  public static var droppedActionHandler: (@Sendable (String) -> Void)? {
    get { droppedAction.handler }
    set { droppedAction.handler = newValue }
  }

  static func reportDroppedAction(_ message: String) {
    #if DEBUG
      recentDropped.withLock { recent in
        recent.append(message)
        if recent.count > 32 { recent.removeFirst() }
      }
      reportToUpdatingStore(message)
    #endif
    droppedAction.report(message)
  }

  /// Hands `message` to the store whose update runs on this thread, when a test store listens
  /// to it (`Store.debugReportSink`); debug builds set that store around each update.
  static func reportToUpdatingStore(_ message: String) {
    (ThreadSlots.updatingStore as? any DebugReportReceiving)?.receiveDebugReport(message)
  }

  #if DEBUG
    /// The last few dropped-action reports, newest last, for this package's tests: the
    /// handler is one global, which tests running at the same time on other actors replace.
    private static let recentDropped = Locked.make([String]())

    /// The last few dropped-action reports, newest last; for this package's tests.
    static var recentDroppedActions: [String] { recentDropped.withLock { $0 } }
  #endif

  #if DEBUG
    /// A check that reports once per type, and a type it asked about.
    private struct Asked: Hashable {
      let check: String
      let type: ObjectIdentifier
    }

    /// What the once-per-type checks have asked about already.
    private static let asked = Locked<Set<Asked>>.make([])

    /// Whether this is the first time the check named `check` asks about `type`: the checks
    /// that report a mistake once per type (`SubscriptionCheck`, `RecordingRestore`) skip
    /// every later ask.
    static func isFirstAsk(_ check: String, about type: Any.Type) -> Bool {
      asked.withLock { $0.insert(Asked(check: check, type: ObjectIdentifier(type))).inserted }
    }
  #endif
}

/// A store, seen by the debug reports: it hands a report made during its update to the test
/// store that listens to it.
protocol DebugReportReceiving: AnyObject {
  /// Hands `message` to the listening test store, if any.
  func receiveDebugReport(_ message: String)
}
