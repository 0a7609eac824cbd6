/// Where an observer's callbacks run: in the isolation that registered it.
///
/// - `synchronous`: registered from nonisolated code; callbacks run on the mutating thread.
/// - `mainActor`: registered on the main actor; callbacks run synchronously when the change
///   happens on the main actor (always the case for a `Store`), otherwise they are enqueued
///   on it.
/// - `actor`: registered on another actor; callbacks are enqueued on that actor.
enum Delivery: Sendable {
  case synchronous
  case mainActor
  case actor(any Actor)

  init(_ isolation: (any Actor)?) {
    guard let isolation else {
      self = .synchronous
      return
    }
    if isolation === MainActor.shared {
      self = .mainActor
    } else {
      self = .actor(isolation)
    }
  }

  /// Whether a callback may run right now, on the calling thread.
  var isImmediate: Bool {
    switch self {
    case .synchronous: return true
    case .mainActor: return Platform.isOnMainActor
    case .actor: return false
    }
  }

  /// Runs `work` in the delivery's isolation: at once when already there, otherwise later.
  func perform(_ work: @escaping @Sendable () -> Void) {
    switch self {
    case .synchronous:
      work()
    case .mainActor:
      if Platform.isOnMainActor {
        work()
      } else {
        Task { @MainActor in work() }
      }
    case .actor(let actor):
      Task { await Delivery.run(on: actor, work) }
    }
  }

  private static func run(on actor: isolated any Actor, _ work: @Sendable () -> Void) {
    work()
  }
}

/// An observer's callback, which is not `Sendable` in its own type, carried across threads.
///
/// Invariant (why `@unchecked Sendable` holds): the callback is only invoked through
/// ``Delivery`` by the observer that owns it, that is, in the isolation it was created in (or,
/// for nonisolated registrations, on the mutating thread as documented), and never
/// concurrently with itself: an observer admits one runner at a time.
struct UncheckedCallback: @unchecked Sendable {
  private enum Function {
    case plain(() -> Void)
    case withChanges((TrackingChanges) -> Void)
  }

  private let function: Function

  /// A callback that ignores what changed (no wrapping closure to allocate).
  init(_ function: @escaping () -> Void) { self.function = .plain(function) }

  /// A callback that receives what changed.
  init(_ function: @escaping (TrackingChanges) -> Void) { self.function = .withChanges(function) }

  func callAsFunction(_ changes: TrackingChanges) {
    switch function {
    case .plain(let function): function()
    case .withChanges(let function): function(changes)
    }
  }
}
