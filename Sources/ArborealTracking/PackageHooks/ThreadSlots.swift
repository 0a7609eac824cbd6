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

  /// Whether the calling code runs on the main actor.
  package static var isOnMainActor: Bool { Platform.isOnMainActor }
}
