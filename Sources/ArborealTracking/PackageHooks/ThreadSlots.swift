// Package hooks, not API: per-thread state of the store's own, kept in the thread's tracking
// context. An update runs synchronously on one thread, so state that lives around one update
// call is the thread's, whichever isolation the store lives in.

/// The state of the store's debug-build probe that checks a child's action reached the child
/// (the store's `ForwardProbe`): the child awaited, whether a `forward` reached it, and whether
/// the action was queued instead.
package struct ForwardProbeState {
  /// The child whose update the action in hand must reach; nil when none is awaited.
  package var awaited: ObjectIdentifier?
  /// Whether a `forward` ran the awaited child's update.
  package var reached = false
  /// Whether the store queued the action instead of handling it now.
  package var deferred = false

  /// No child awaited.
  package init() {}
}

/// Per-thread slots for the store's own state (see the file's comment).
package enum ThreadSlots {
  /// This thread's forward probe.
  package static var forwardProbe: ForwardProbeState {
    get { ThreadContext.current.forwardProbe }
    set { ThreadContext.current.forwardProbe = newValue }
  }

  /// The store whose update runs on this thread now (innermost first), in debug builds: a
  /// report made inside the update names a model by its place in that store. Set and put
  /// back around each update call, which runs synchronously on one thread in the store's
  /// isolation, so reading the store from here is reading it in its isolation.
  package static var updatingStore: AnyObject? {
    get { ThreadContext.current.updatingStore }
    set { ThreadContext.current.updatingStore = newValue }
  }

  /// Whether the calling code runs on the main actor.
  package static var isOnMainActor: Bool { Platform.isOnMainActor }
}
