import Arboreal
import ArborealTestSupport

/// Where each job's effect waits: one gate per job id, opened by the test, and a log of the
/// jobs whose effect was cancelled.
struct Jobs: Sendable {
  let gates: [Int: Gate]
  let cancelled = Log<Int>()

  init(ids: some Sequence<Int>) {
    gates = Dictionary(uniqueKeysWithValues: ids.map { ($0, Gate()) })
  }

  /// Waits for the job's gate; logs and rethrows when the effect is cancelled first.
  func run(_ id: Int) async throws {
    do {
      try await gates[id]?.waitCancellably()
    } catch {
      cancelled.append(id)
      throw error
    }
  }
}

/// A child with one long effect, cancellable by an identifier every job uses.
final class Job: ArborealModel, Identifiable {
  enum Action: Sendable, Equatable {
    /// Starts the job's effect, replacing its own effect in flight.
    case start
    case stop
    case done
    /// Asks the parent to dismiss this job.
    case close
  }

  /// The same identifier for every job: each job's effects are its own.
  struct JobID: Hashable, Sendable {}

  let registrar = TrackingRegistrar()
  let id: Int
  @Tracked private(set) var isDone = false

  init(id: Int) {
    self.id = id
  }

  func update(action: Action, environment: Jobs) -> Fx<Action> {
    switch action {
    case .start:
      let id = self.id
      return Fx {
        try await environment.run(id)
        return .done
      } catch: { _ in
        .stop
      }
      .cancellable(id: JobID(), cancelInFlight: true)
    case .stop:
      return .cancel(id: JobID())
    case .done:
      isDone = true
      return .none
    case .close:
      return .dismiss
    }
  }
}

/// A parent with jobs in every kind of place: a list, two fixed slots of the same type, an
/// optional (presented) job, and a stack.
final class Board: ArborealModel {
  enum Action: Sendable, Equatable {
    case job(id: Int, Job.Action)
    case left(Job.Action)
    case right(Job.Action)
    case sheet(PresentationAction<Job.Action>)
    case plain(Job.Action)
    case path(StackAction<Job.Action>)
    case add(ids: [Int])
    case remove(ids: [Int])
    case removeAll
    case replace(id: Int)
    case present(id: Int)
    case presentPlain(id: Int)
    case clearPlain
    case push(id: Int)
    case popLast
    /// Forwards `start` to a job and removes it in the same action.
    case startAndRemove(id: Int)
    case cancelJob(id: Int)
    case reverse
    case startAll
  }

  let registrar = TrackingRegistrar()
  @Tracked private(set) var jobs: [Job] = []
  @Tracked private(set) var left = Job(id: -1)
  static let left = ChildRoute.child(\Board.left, tag: Action.left)
  @Tracked private(set) var right = Job(id: -2)
  static let right = ChildRoute.child(\Board.right, tag: Action.right)
  @Tracked private(set) var sheet: Job?
  @Tracked private(set) var plain: Job?
  static let plain = ChildRoute.child(\Board.plain, tag: Action.plain)
  @Tracked private(set) var path = ModelStack<Job>()

  static let sheet = ChildRoute.child(\Board.sheet, tag: Action.sheet)
  static let path = ChildRoute.stack(\Board.path, tag: Action.path)
  static let jobs = ChildRoute.children(\Board.jobs, tag: Action.job)

  func update(action: Action, environment: Jobs) -> Fx<Action> {
    switch action {
    case .job(let id, let action):
      return forward(action, to: Self.jobs, id: id, environment: environment)
    case .left(let action):
      return forward(action, to: Self.left, environment: environment)
    case .right(let action):
      return forward(action, to: Self.right, environment: environment)
    case .sheet(let action):
      return forward(action, to: Self.sheet, environment: environment)
    case .plain(let action):
      return forward(action, to: Self.plain, environment: environment)
    case .path(let action):
      return forward(action, to: Self.path, environment: environment)
    case .add(let ids):
      jobs.append(contentsOf: ids.map(Job.init))
      return .none
    case .remove(let ids):
      let removed = Set(ids)
      jobs.removeAll { removed.contains($0.id) }
      return .none
    case .removeAll:
      jobs.removeAll()
      return .none
    case .replace(let id):
      guard let index = jobs.firstIndex(where: { $0.id == id }) else { return .none }
      jobs[index] = Job(id: id)
      return .none
    case .present(let id):
      sheet = Job(id: id)
      return .none
    case .presentPlain(let id):
      plain = Job(id: id)
      return .none
    case .clearPlain:
      plain = nil
      return .none
    case .push(let id):
      path.push(Job(id: id))
      return .none
    case .popLast:
      path.popLast()
      return .none
    case .startAndRemove(let id):
      let fx = forward(Job.Action.start, to: Self.jobs, id: id, environment: environment)
      jobs.removeAll { $0.id == id }
      return fx
    case .cancelJob(let id):
      return cancel(Self.jobs, id: id)
    case .reverse:
      jobs.reverse()
      return .none
    case .startAll:
      return .merge(
        jobs.map { forward(.start, to: Self.jobs, child: $0, environment: environment) })
    }
  }
}
