import Observation

/// A continuous observer built from the toolchain's one-shot `withObservationTracking`.
///
/// Observation has no public synchronous continuous form (`Observations` is an
/// `AsyncSequence` that delivers on a later turn of a task), so this does what UI frameworks
/// do: re-register inside `onChange`. `onChange` runs in `willSet`, before the new value is
/// stored; re-arming there reads the old value, which costs the same as reading the new one
/// and keeps the observer registered for the next write. Each notification therefore costs
/// one `onChange` call plus one fresh `withObservationTracking` registration, the same work
/// ours does when an `observe` body re-runs (one run plus re-recording its reads).
///
/// `@unchecked Sendable` because `onChange` must be `@Sendable` and captures the loop.
/// Invariant: used on one thread only (see ``Sink``); `isStopped` is only set by that thread.
final class ObservationLoop: @unchecked Sendable {
  private let model: ObservedModel
  private let sink: Sink
  private var isStopped = false

  /// Registers the first time; the loop stays armed until ``stop()``.
  init(model: ObservedModel, sink: Sink) {
    self.model = model
    self.sink = sink
    arm()
  }

  private func arm() {
    withObservationTracking {
      sink.value &+= model.count
    } onChange: { [self] in
      sink.runs &+= 1
      if !isStopped { arm() }
    }
  }

  /// Lets the next change end the loop. The pending registration keeps the loop (and the
  /// model) alive until that change; call ``ObservationLoop/flush(_:)`` to make it now.
  func stop() { isStopped = true }

  /// Stops every loop and writes each model once, so that no registration (and no
  /// model → registrar → closure → loop → model cycle) outlives the benchmark.
  static func flush(_ loops: [ObservationLoop]) {
    for loop in loops { loop.stop() }
    for loop in loops { loop.model.count &+= 1 }
  }
}
