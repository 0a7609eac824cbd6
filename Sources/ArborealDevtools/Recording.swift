import Arboreal
import ArborealPersistence
import Foundation

/// A recorded session: the model's starting state and every action the store handled, in
/// order, read from a file a ``StoreRecorder`` wrote (or taken from a recorder in memory).
///
/// ```swift
/// let recording = try Recording<TodoList>(contentsOf: "session.jsonl")
/// let model = recording.replay(environment: .offline)
/// print(model.snapshot == expected)  // true: the same actions give the same state
/// ```
///
/// Replay applies each recorded action to a fresh model with `update`, in one transaction
/// per action, and drops the effects it returns: their actions were recorded as steps of
/// their own and are applied in their recorded order. So replay needs no network, clock or
/// disk, and gives the state the recorded session had after each step.
///
/// Reading checks every line: a cut-short last line, a line that is not a step, a step out
/// of sequence, and an action that no longer decodes (a renamed case) are each a
/// ``RecordingError`` naming the line, or, with `keepingValidPrefix`, the end of the
/// recording, kept in ``problem``.
public struct Recording<Model: ReplayableModel>: Sendable where Model.Action: Codable {
  /// The model's state when the recording started.
  public let start: Model.Snapshot
  /// The recorded actions, first to last; step *n* is `steps[n - 1]`.
  public let steps: [RecordedStep<Model.Action>]
  /// Why the recording ends early: the first bad line, when it was loaded with
  /// `keepingValidPrefix: true`; nil when every line was read.
  public let problem: RecordingError?

  /// Creates a recording from a starting state and steps.
  ///
  /// - Parameters:
  ///   - start: The model's state before the first step.
  ///   - steps: The steps, numbered from 1 in order.
  public init(start: Model.Snapshot, steps: [RecordedStep<Model.Action>]) {
    self.start = start
    self.steps = steps
    self.problem = nil
  }

  /// Reads a recording from a file.
  ///
  /// - Parameters:
  ///   - path: The file a ``StoreRecorder`` wrote.
  ///   - keepingValidPrefix: Whether to end the recording at the first bad line (and report
  ///     it in ``problem``) instead of throwing. A bad header always throws.
  /// - Throws: ``RecordingError`` naming the file and the line at fault.
  /// - Complexity: O(*n*) for *n* lines.
  public init(contentsOf path: String, keepingValidPrefix: Bool = false) throws(RecordingError) {
    let data: Data
    do throws(FileFailure) {
      data = try readFile(at: path)
    } catch {
      throw RecordingError(.file(error.reason), line: 0, path: path)
    }
    try self.init(data: data, path: path, keepingValidPrefix: keepingValidPrefix)
  }

  /// Reads a recording from the contents of a file.
  ///
  /// - Parameters:
  ///   - data: The JSON Lines a ``StoreRecorder`` wrote.
  ///   - path: The file's path, for error messages; nil if none.
  ///   - keepingValidPrefix: Whether to end the recording at the first bad line (and report
  ///     it in ``problem``) instead of throwing. A bad header always throws.
  /// - Throws: ``RecordingError`` naming the line at fault.
  /// - Complexity: O(*n*) for *n* lines.
  public init(data: Data, path: String? = nil, keepingValidPrefix: Bool = false)
    throws(RecordingError)
  {
    let bytes = [UInt8](data)
    var lines: [Range<Int>] = []
    var lineStart = 0
    for index in bytes.indices where bytes[index] == UInt8(ascii: "\n") {
      lines.append(lineStart..<index)
      lineStart = index + 1
    }
    // A last line without its newline was being written when the recording stopped.
    let unterminated = lineStart < bytes.count ? lineStart..<bytes.count : nil
    if let unterminated { lines.append(unterminated) }
    guard let first = lines.first else { throw RecordingError(.empty, line: 1, path: path) }

    let decoder = JSONDecoder()
    let headerData = Data(bytes[first])
    guard let fields = try? decoder.decode(RecordingHeaderFields.self, from: headerData),
      fields.format == RecordingFormat.name
    else {
      let kind: RecordingError.Kind = first == unterminated ? .truncatedLine : .notARecording
      throw RecordingError(kind, line: 1, path: path)
    }
    guard fields.version == RecordingFormat.version else {
      throw RecordingError(.unsupportedVersion(fields.version), line: 1, path: path)
    }
    do {
      start = try decoder.decode(RecordingHeader<Model.Snapshot>.self, from: headerData).snapshot
    } catch {
      throw RecordingError(.snapshotDoesNotDecode(describe(error)), line: 1, path: path)
    }

    var steps: [RecordedStep<Model.Action>] = []
    steps.reserveCapacity(lines.count - 1)
    var problem: RecordingError?
    for (offset, range) in lines.enumerated().dropFirst() {
      let number = offset + 1
      let line = Data(bytes[range])
      do throws(RecordingError) {
        steps.append(
          try Self.step(
            line, number: number, expected: steps.count + 1, isCut: range == unterminated,
            path: path, decoder: decoder))
      } catch {
        guard keepingValidPrefix else { throw error }
        problem = error
        break
      }
    }
    self.steps = steps
    self.problem = problem
  }

  /// Decodes one step line.
  private static func step(
    _ line: Data, number: Int, expected: Int, isCut: Bool, path: String?, decoder: JSONDecoder
  ) throws(RecordingError) -> RecordedStep<Model.Action> {
    let read: StepLineRead<Model.Action>
    do {
      read = try decoder.decode(StepLineRead<Model.Action>.self, from: line)
    } catch {
      throw RecordingError(
        isCut ? .truncatedLine : .corruptLine(describe(error)), line: number, path: path)
    }
    guard read.seq == expected else {
      throw RecordingError(
        .outOfSequence(expected: expected, found: read.seq), line: number, path: path)
    }
    let cause: StoreLogEntry<Model.Action>.Cause
    switch (read.cause, read.startedBy) {
    case ("sent", nil):
      cause = .sent
    case ("effect", let startedBy):
      if let startedBy, !(1..<read.seq).contains(startedBy) {
        throw RecordingError(
          .corruptLine("an effect started by step \(startedBy), which is not an earlier step"),
          line: number, path: path)
      }
      cause = .effect(startedBy: startedBy)
    default:
      throw RecordingError(
        .corruptLine(
          "\"cause\" is \"\(read.cause)\", not \"sent\" or \"effect\" with \"startedBy\""),
        line: number, path: path)
    }
    switch read.action {
    case .success(let action):
      return RecordedStep(
        sequence: read.seq, action: action, cause: cause,
        changes: read.changes.map { RecordedProperty(owner: $0.owner, name: $0.property) })
    case .failure(let failure):
      throw RecordingError(
        .undecodableAction(name: actionName(inLine: line), reason: failure.reason), line: number,
        path: path)
    }
  }

  // MARK: Replay

  /// Makes a fresh model in the starting state and applies the steps to it, up to and
  /// including step `step` (all of them by default), without running effects.
  ///
  /// ```swift
  /// let replayed = recording.replay(environment: .offline)
  /// let store = Store(state: replayed, environment: .live)  // carry on from there
  /// ```
  ///
  /// - Parameters:
  ///   - step: The last step to apply, from 0 (the starting state) to `steps.count`.
  ///   - environment: The environment `update` receives; effects are never started, so a
  ///     placeholder that does nothing serves.
  /// - Returns: The model after that step.
  /// - Complexity: O(*n*) updates for *n* steps.
  public func replay(upTo step: Int? = nil, environment: Model.Environment) -> Model {
    let model: Model = RecordingRestore.model(from: start)
    Self.apply(steps[0..<min(max(step ?? steps.count, 0), steps.count)], to: model, environment)
    return model
  }

  /// Applies steps to a model, one transaction each, dropping their effects.
  static func apply(
    _ steps: ArraySlice<RecordedStep<Model.Action>>, to model: Model,
    _ environment: Model.Environment
  ) {
    for step in steps {
      // Opened and closed around the call, as the store does: a closure per step would cost
      // a context and an isolation check.
      let opened = openTransaction()
      _ = model.update(action: step.action, environment: environment)
      if let opened { closeTransaction(opened) }
    }
  }

  /// Replays the steps up to and including step `step` but those in `skipped`: what the
  /// session would have come to without them (Redux DevTools' "skip").
  ///
  /// ```swift
  /// let without = recording.replay(skipping: [4], environment: .offline)
  /// ```
  ///
  /// Only the steps named are left out: an action an effect of a skipped step delivered is a
  /// step of its own, applied unless it is named too (``RecordedStep/cause`` says which step
  /// started it; ``skippingWithEffects(_:)`` names them all).
  ///
  /// - Parameters:
  ///   - skipped: The numbers of the steps to leave out.
  ///   - step: The last step to consider, from 0 to `steps.count`; all by default.
  ///   - environment: The environment `update` receives; effects are never started.
  /// - Returns: The model after those steps.
  /// - Complexity: O(*n*) updates for *n* steps.
  public func replay(
    skipping skipped: Set<Int>, upTo step: Int? = nil, environment: Model.Environment
  ) -> Model {
    let model: Model = RecordingRestore.model(from: start)
    let kept = steps[0..<min(max(step ?? steps.count, 0), steps.count)].filter {
      !skipped.contains($0.sequence)
    }
    Self.apply(kept[...], to: model, environment)
    return model
  }

  /// `steps` with every step an effect of theirs delivered, transitively (the effect's
  /// effects too): what to skip to leave out an action and all that followed from it.
  ///
  /// - Parameter steps: Step numbers.
  /// - Returns: Those numbers and the numbers of the steps their effects delivered.
  /// - Complexity: O(*n*) for *n* steps.
  public func skippingWithEffects(_ steps: Set<Int>) -> Set<Int> {
    var result = steps
    // A delivered action names an earlier step, so one pass in order sees each cause first.
    for step in self.steps {
      if case .effect(let startedBy?) = step.cause, result.contains(startedBy) {
        result.insert(step.sequence)
      }
    }
    return result
  }

  // MARK: Why

  /// Which step last changed a property, up to step `step`, and the chain of actions and
  /// effects that led to it.
  ///
  /// ```swift
  /// if let why = recording.explain(RecordedProperty(owner: "Todo#3", name: "isDone")) {
  ///   print(why)  // Todo#3.isDone was last changed by #7 todo(id: 3, .setDone(true))
  /// }
  /// ```
  ///
  /// - Parameters:
  ///   - property: The property and its owner, as the recording names them.
  ///   - step: The last step to consider; by default, all.
  /// - Returns: The explanation, or nil if no step up to `step` changed the property.
  /// - Complexity: O(*n*) for *n* steps.
  public func explain(
    _ property: RecordedProperty, upTo step: Int? = nil
  ) -> ChangeExplanation<Model.Action>? {
    ChangeExplanation(property, in: steps, upTo: step)
  }
}
