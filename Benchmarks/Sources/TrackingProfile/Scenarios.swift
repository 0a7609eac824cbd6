import ArborealTracking
import Observation

/// The scenarios, by name; each runs its operation `count` times.
let scenarios: [String: @Sendable (Int) -> Void] = [
  "untracked-read/ours": { count in
    let model = opaque(TrackedModel())
    var sum = 0
    for _ in 0..<count {
      sum &+= model.count
      keep(model)
    }
    keep(sum)
  },
  "untracked-read/observation": { count in
    let model = opaque(ObservedModel())
    var sum = 0
    for _ in 0..<count {
      sum &+= model.count
      keep(model)
    }
    keep(sum)
  },
  "write-unobserved/ours": { count in
    let model = opaque(TrackedModel())
    for index in 0..<count {
      model.count = index
      keep(model)
    }
  },
  "write-unobserved/observation": { count in
    let model = opaque(ObservedModel())
    for index in 0..<count {
      model.count = index
      keep(model)
    }
  },
  "tracked-read/ours": { count in
    let model = opaque(TrackedModel())
    let sink = Sink()
    withTracking {
      for _ in 0..<count { sink.value &+= model.count }
    } onChange: { _ in
      sink.runs &+= 1
    }
    model.count &+= 1
  },
  "tracked-read/observation": { count in
    let model = opaque(ObservedModel())
    let sink = Sink()
    withObservationTracking {
      for _ in 0..<count { sink.value &+= model.count }
    } onChange: {
      sink.runs &+= 1
    }
    model.count &+= 1
  },
  "oneshot/ours": { count in
    let model = opaque(TrackedModel())
    let sink = Sink()
    for index in 0..<count {
      withTracking {
        sink.value &+= model.count
      } onChange: { _ in
        sink.runs &+= 1
      }
      model.count = index &+ 1
    }
    precondition(sink.runs == count)
  },
  "oneshot/observation": { count in
    let model = opaque(ObservedModel())
    let sink = Sink()
    for index in 0..<count {
      withObservationTracking {
        sink.value &+= model.count
      } onChange: {
        sink.runs &+= 1
      }
      model.count = index &+ 1
    }
    precondition(sink.runs == count)
  },
  "register-1000/ours": { count in
    let models = opaque((0..<1_000).map { _ in TrackedModel() })
    let sink = Sink()
    for _ in 0..<count {
      withTracking {
        for model in models { sink.value &+= model.count }
      } onChange: { _ in
        sink.runs &+= 1
      }
      models[0].count &+= 1
    }
    precondition(sink.runs == count)
  },
  "register-1000/observation": { count in
    let models = opaque((0..<1_000).map { _ in ObservedModel() })
    let sink = Sink()
    for _ in 0..<count {
      withObservationTracking {
        for model in models { sink.value &+= model.count }
      } onChange: {
        sink.runs &+= 1
      }
      models[0].count &+= 1
    }
    precondition(sink.runs == count)
  },
  "notify-1/ours": { count in
    let model = opaque(TrackedModel())
    let sink = Sink()
    let token = observe { _ in
      sink.value &+= model.count
      sink.runs &+= 1
    }
    for index in 0..<count { model.count = index &+ 1 }
    precondition(sink.runs == count + 1)
    token.cancel()
  },
  "notify-1/observation": { count in
    let model = opaque(ObservedModel())
    let sink = Sink()
    let loop = ProfileObservationLoop(model: model, sink: sink)
    for index in 0..<count { model.count = index &+ 1 }
    precondition(sink.runs == count)
    loop.stop()
  },
]

/// The benchmarks' `ObservationLoop`: re-registers `withObservationTracking` in `onChange`.
/// `@unchecked Sendable`: used on one thread only.
final class ProfileObservationLoop: @unchecked Sendable {
  private let model: ObservedModel
  private let sink: Sink
  private var isStopped = false

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

  func stop() { isStopped = true }
}
