import Arboreal

/// A recording you can move through: the model as it was after any step, forward and back.
///
/// ```swift
/// let timeline = Timeline(recording, environment: .offline)
/// timeline.jump(to: 40)  // the state after step 40
/// print(timeline.state.items.count)
/// timeline.jump(to: 12)  // back
/// ```
///
/// A jump starts from the nearest checkpoint at or before the target, a snapshot the timeline
/// took as it first passed that step (one every `checkpointInterval` steps, and the start),
/// when that checkpoint is later than the current step or the target is earlier; otherwise it
/// applies the steps in between to the current model. Either way the steps are applied as
/// replay applies them (effects are not run), and no jump applies more than
/// `checkpointInterval - 1` steps plus those ahead of the furthest step reached. A jump that
/// starts from a checkpoint makes a new model from it: ``state`` is then another object
/// (observe the timeline's model through ``state`` each time, not a reference kept from
/// before).
///
/// A timeline is not `Sendable`: it and its model live where it was made (the main actor, an
/// actor's method, a nonisolated test), as a store does.
///
/// Invariants: ``state`` is always the model after step ``step``; `checkpoints[k]`, when
/// present, is the snapshot after step `k × checkpointInterval`, and `checkpoints[0]` is the
/// recording's start.
public final class Timeline<Model: ReplayableModel> where Model.Action: Codable {
  /// The recording moved through.
  public let recording: Recording<Model>
  /// The environment `update` receives (effects are never started).
  public let environment: Model.Environment
  /// The number of steps between two checkpoints.
  public let checkpointInterval: Int
  /// The model after step ``step``.
  public private(set) var state: Model
  /// The current step: 0 for the starting state, up to the number of steps.
  public private(set) var step = 0
  /// Snapshots after steps 0, `checkpointInterval`, 2 × `checkpointInterval`, … as far as the
  /// timeline has gone.
  private var checkpoints: [Model.Snapshot]

  /// Creates a timeline at step 0, the recording's starting state.
  ///
  /// - Parameters:
  ///   - recording: The recording to move through.
  ///   - environment: The environment `update` receives; effects are never started.
  ///   - checkpointInterval: Steps between snapshots: smaller makes jumps back faster and
  ///     takes more memory (one snapshot per interval). At least 1.
  public init(
    _ recording: Recording<Model>, environment: Model.Environment, checkpointInterval: Int = 1_000
  ) {
    self.recording = recording
    self.environment = environment
    self.checkpointInterval = max(1, checkpointInterval)
    self.state = RecordingRestore.model(from: recording.start)
    self.checkpoints = [recording.start]
  }

  /// The number of steps: the last step ``jump(to:)`` can reach.
  public var count: Int { recording.steps.count }

  /// Moves to the state after step `target` (clamped to 0…``count``).
  ///
  /// - Parameter target: The step, 0 for the starting state.
  /// - Complexity: One snapshot restored and at most `checkpointInterval - 1` updates to a
  ///   step the timeline has passed before; O(*d*) updates to a step *d* beyond the furthest
  ///   one reached.
  public func jump(to target: Int) {
    let target = min(max(target, 0), count)
    // The nearest checkpoint at or before the target; used when it saves steps forward, or
    // when going back.
    let checkpoint = min(target / checkpointInterval, checkpoints.count - 1)
    if target < step || checkpoint * checkpointInterval > step {
      state = RecordingRestore.model(from: checkpoints[checkpoint])
      step = checkpoint * checkpointInterval
    }
    while step < target {
      // Up to the next checkpoint, or the target if it comes first.
      let next = min(target, (step / checkpointInterval + 1) * checkpointInterval)
      Recording.apply(recording.steps[step..<next], to: state, environment)
      step = next
      if step % checkpointInterval == 0, step / checkpointInterval == checkpoints.count {
        checkpoints.append(state.snapshot)
      }
    }
  }

  /// Which step up to the current one last changed a property, and the chain of actions
  /// and effects that led to it.
  ///
  /// - Parameter property: The property and its owner, as the recording names them.
  /// - Returns: nil if no step up to the current one changed it.
  /// - Complexity: O(*n*) for *n* steps.
  public func explain(_ property: RecordedProperty) -> ChangeExplanation<Model.Action>? {
    recording.explain(property, upTo: step)
  }
}
