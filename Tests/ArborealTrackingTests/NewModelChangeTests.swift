import Testing

@testable import ArborealTracking

/// New models are not changed models: a change recording leaves out the writes made to a
/// model created while it ran, whatever its `init` writes; the property that now holds the
/// model is a change.
@Suite struct NewModelChangeTests {
  @Test func writesOfAModelCreatedDuringTheRecordingAreLeftOut() {
    let screen = Screen()
    let existing = Detail(title: "Retro", destination: nil)
    let (_, changes) = withChangeRecording {
      let detail = Detail(title: "Standup", destination: nil)
      // Later writes in the same recording are not changes either.
      detail.title = "Daily standup"
      detail.destination = Destination(name: "edit")
      screen.detail = detail
      // A model that existed before the recording began still changes.
      existing.destination = Destination(name: "edit")
    }
    #expect(changes.map(\.key.name) == ["detail", "destination"])
    #expect(
      changes.map(\.registrar) == [screen.registrar.identity, existing.registrar.identity])
  }

  @Test func handWrittenAccessorsOfANewModelAreLeftOut() {
    let screen = Screen()
    let (_, changes) = withChangeRecording {
      let thermometer = Thermometer()
      thermometer.celsius = 30
      screen.thermometer = thermometer
    }
    #expect(changes.map(\.key.name) == ["thermometer"])
  }

  @Test func aModelIsNewOnlyToTheRecordingsRunningWhenItWasCreated() {
    let screen = Screen()
    var detail: Detail?
    let (inner, outer) = withChangeRecording {
      detail = Detail(title: "Standup", destination: nil)
      return withChangeRecording {
        // Created before this recording began: its writes are changes here.
        detail?.title = "Retro"
        screen.detail = detail
      }.1
    }
    #expect(inner.map(\.key.name) == ["title", "detail"])
    #expect(outer.map(\.key.name) == ["detail"])
  }

  @Test func aModelCreatedInAnEarlierRecordingReportsItsWrites() throws {
    let screen = Screen()
    let (_, first) = withChangeRecording {
      screen.detail = Detail(title: "Standup", destination: nil)
    }
    #expect(first.map(\.key.name) == ["detail"])
    let detail = try #require(screen.detail)
    let (_, changes) = withChangeRecording {
      detail.destination = Destination(name: "edit")
    }
    #expect(changes.map(\.key.name) == ["destination"])
    #expect(changes.allSatisfy { $0.registrar == detail.registrar.identity })
  }
}

/// A value that is not `Equatable`: every write of it is a change.
private struct Destination {
  var name: String
}

/// A screen whose `init` writes its properties through their tracked setters: `destination`
/// is assigned once every stored property has a value (so `self.destination = …` is a write
/// of the property, not its initialisation) and `title` has a default value.
private final class Detail: Trackable {
  let registrar = TrackingRegistrar()
  @Tracked var title = ""
  @Tracked private(set) var attendees = 0
  @Tracked var destination: Destination?

  init(title: String, destination: Destination?) {
    self.title = title
    attendees = 3
    self.destination = destination
  }
}

private final class Screen: Trackable {
  let registrar = TrackingRegistrar()
  @Tracked var detail: Detail?
  @Tracked var thermometer: Thermometer?
}
