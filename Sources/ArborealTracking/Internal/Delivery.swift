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

  /// Whether a callback may run right now, on the calling thread: always for a nonisolated
  /// observer; on the main actor for a main-actor one; for another actor's, only inside a job
  /// of this library's running on that actor (see ``Outbox``), where the thread is known to
  /// be in its isolation.
  var isImmediate: Bool {
    switch self {
    case .synchronous: return true
    case .mainActor: return Platform.isOnMainActor
    case .actor(let actor):
      guard let context = ThreadContext.currentIfPresent else { return false }
      return context.runningOnActor == ObjectIdentifier(actor)
    }
  }

  /// Runs `work` in the delivery's isolation: at once when already there, otherwise later.
  /// While this thread delivers (``ThreadContext/delivering(_:)``), the
  /// work waits in its outbox, to run in one job per actor with the others.
  func perform(_ work: @escaping @Sendable () -> Void) {
    if isImmediate { return work() }
    if let context = ThreadContext.currentIfPresent, context.outbox.isOpen {
      context.outbox.add(work, for: self)
      return
    }
    Delivery.start([work], on: self)
  }

  /// Starts one job that runs `works`, in order, in the delivery's isolation (not
  /// `.synchronous`, whose work runs at once).
  static func start(_ works: [@Sendable () -> Void], on delivery: Delivery) {
    switch delivery {
    case .synchronous:
      for work in works { work() }
    case .mainActor:
      Task { @MainActor in for work in works { work() } }
    case .actor(let actor):
      Task { await Delivery.run(on: actor, works) }
    }
  }

  /// Runs `works` on `actor`, marking the thread as being in its isolation meanwhile, so that
  /// deliveries to the same actor that the works cause run at once, in this job.
  private static func run(on actor: isolated any Actor, _ works: [@Sendable () -> Void]) {
    let context = ThreadContext.current
    let outer = context.runningOnActor
    context.runningOnActor = ObjectIdentifier(actor)
    defer { context.runningOnActor = outer }
    for work in works { work() }
  }
}

extension Delivery {
  /// Whether both deliveries run in the same isolation.
  func isSameIsolation(as other: Delivery) -> Bool {
    switch (self, other) {
    case (.synchronous, .synchronous), (.mainActor, .mainActor): return true
    case (.actor(let one), .actor(let two)): return one === two
    default: return false
    }
  }
}

extension Delivery {
  /// Stops the program when the caller is not in this isolation: a derived value whose
  /// computation is isolated to an actor is read only there.
  func preconditionIsolated(_ name: @autoclosure () -> String) {
    switch self {
    case .synchronous:
      return
    case .mainActor:
      if !Platform.isOnMainActor {
        fatalError(
          "ArborealTracking: the derived value \(name()) was made on the main actor and read "
            + "off it; read it on the main actor")
      }
    case .actor(let actor):
      actor.preconditionIsolated(
        "ArborealTracking: the derived value \(name()) was made on an actor and read off it; "
          + "read it on that actor")
    }
  }
}
