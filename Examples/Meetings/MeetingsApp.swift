import Arboreal
import ExampleSupport

/// The command line around the store: runs one typed line at a time on the place the user is
/// (the list, or the screen on top of the stack), then prints that place from the store's
/// state.
///
/// Each screen is reached by its case, through the routes its parent declared once:
/// `viewStore(MeetingList.path, id:case:)` for the screens of the stack,
/// `viewStore(MeetingDetail.destination, case:)` for the detail's edit sheet. The recording
/// screen's ticks are printed by an observer of its `secondsElapsed`, as they arrive.
@MainActor
final class MeetingsApp {
  let store: Store<MeetingList>
  let console: Console
  private var observers: [TrackingToken] = []
  /// Whether the prompt is showing: a tick that arrives then prints above a fresh prompt.
  private var isAtPrompt = false

  init(store: Store<MeetingList>, console: Console) {
    self.store = store
    self.console = console
  }

  private var model: MeetingList { store.state }

  /// The identifier of the screen on top of the stack; nil on the list.
  private var topID: StackElementID? { model.path.elementIDs.last }

  private var detail: ViewStore<MeetingDetail>? {
    topID.flatMap {
      store.viewStore(MeetingList.path[case: MeetingList.Path.detail], id: $0)
    }
  }

  private var record: ViewStore<RecordMeeting>? {
    topID.flatMap {
      store.viewStore(MeetingList.path[case: MeetingList.Path.record], id: $0)
    }
  }

  private var editor: ViewStore<MeetingEditor>? {
    detail?.viewStore(MeetingDetail.destination[case: MeetingDetail.Destination.editor])
  }

  /// The alert the detail screen shows, if any.
  private var alert: AlertState<MeetingDetail.Destination.Alert>? {
    detail?.state.destination?[case: MeetingDetail.Destination.alert]
  }

  private var place: MeetingsPlace {
    switch model.path.last {
    case nil: .list
    case .record: .record
    case .detail:
      if editor != nil { .editor } else if alert != nil { .alert } else { .detail }
    }
  }

  /// Starts printing ticks, shows the list and the first prompt.
  func start() {
    let model = model
    observers.append(
      observe({ model.path.last?[case: MeetingList.Path.record]?.secondsElapsed }) {
        [weak self] _, seconds in
        guard let seconds, seconds > 0 else { return }
        self?.showTick(seconds)
      })
    if console.isInteractive { console.say("Meetings. Type 'help' for the commands.") }
    show(place)
    showPrompt()
  }

  /// Handles one line of input; returns false when the user asked to quit.
  func handle(_ line: String) async -> Bool {
    isAtPrompt = false
    do {
      let command = try MeetingCommand.parse(line)
      if command == .quit { return false }
      if let command { try await run(command) }
    } catch {
      console.error(error)
    }
    showPrompt()
    return true
  }

  /// Stops printing ticks.
  func stop() {
    for observer in observers { observer.cancel() }
    observers.removeAll()
  }

  private func run(_ command: MeetingCommand) async throws(InputError) {
    let place = place
    guard command.applies(in: place) else {
      let here = place.commands.map { $0.usage.prefix { $0 != " " } }.joined(separator: ", ")
      throw InputError(
        message: "'\(command.name)' does nothing in \(place.name)", hint: "here: \(here)")
    }
    switch command {
    case .help:
      for (usage, summary) in place.commands {
        console.say("  \(usage.padding(16))\(summary)")
      }
      return
    case .list:
      break
    case .add(let title):
      store.send(.add(title: title))
    case .open(let number):
      store.send(.open(try meeting(number: number).id))
    case .edit:
      detail?.send(.editTapped)
    case .title(let title):
      editor?.send(.setTitle(title))
    case .attendees(let attendees):
      editor?.send(.setAttendees(attendees))
    case .minutes(let minutes):
      editor?.send(.setMinutes(minutes))
    case .save, .cancel:
      // Saving comes back through delegate actions, which the handle waits for.
      await editor?.send(command == .save ? .save : .cancel).value
      console.say(command == .save ? "Saved." : "Not saved.")
    case .delete:
      detail?.send(.deleteTapped)
    case .yes, .no:
      guard let detail, let alert else { return }
      let title = detail.state.meeting.title
      let button = alert.buttons.first { ($0.role == .cancel) == (command == .no) }
      let choice = button.map(alert.actions(for:)) ?? .dismiss
      await detail.send(.destination(choice.map(MeetingDetail.Destination.Action.alert))).value
      console.say(command == .yes ? "Deleted \(title)." : "Kept \(title).")
    case .record:
      guard let meeting = detail?.state.meeting else { return }
      store.send(.record(meeting.id))
    case .back:
      guard let id = model.path.elementIDs.last else { return }
      let seconds = record?.state.secondsElapsed
      store.send(.path(.popFrom(id: id)))
      if let seconds { console.say("Left the recording after \(seconds)s.") }
    case .quit:
      return
    }
    show(self.place)
  }

  /// Meeting `number` of the list, counted from 1.
  private func meeting(number: Int) throws(InputError) -> Meeting {
    let meetings = model.meetings
    guard meetings.indices.contains(number - 1) else {
      throw InputError(
        message: meetings.isEmpty
          ? "there is no meeting \(number): the list is empty"
          : "there is no meeting \(number): the numbers go from 1 to \(meetings.count)",
        hint: meetings.isEmpty ? "add one with 'add TITLE'" : "type 'list' to see the numbers")
    }
    return meetings[number - 1]
  }

  /// Prints what the user sees in `place`, from the state.
  private func show(_ place: MeetingsPlace) {
    switch place {
    case .list:
      if model.meetings.isEmpty { console.say("(no meetings yet: add one with 'add TITLE')") }
      for (index, meeting) in model.meetings.enumerated() {
        console.say("\(index < 9 ? " " : "")\(index + 1). \(meeting.summary)")
      }
    case .detail:
      guard let meeting = detail?.state.meeting else { return }
      let attendees = meeting.attendees.joined(separator: ", ")
      console.say("\(meeting.title)\n  attendees: \(attendees.isEmpty ? "none" : attendees)")
      console.say("  duration: \(meeting.minutes) min")
    case .editor:
      guard let draft = editor?.state.draft else { return }
      console.say("Editing: \(draft.summary)")
    case .alert:
      guard let alert else { return }
      console.say(alert.title + (alert.message.map { " " + $0 } ?? ""))
      let choices = alert.buttons.map { "\($0.role == .cancel ? "no" : "yes"): \($0.title)" }
      console.say("  " + choices.joined(separator: " · "))
    case .record:
      guard let meeting = record?.state.meeting else { return }
      console.say("Recording \(meeting.title) (\(meeting.minutes) min). Type 'back' to stop.")
    }
  }

  private func showTick(_ seconds: Int) {
    if isAtPrompt { console.overwriteLine("") }
    console.say("⏱ \(seconds)s")
    if isAtPrompt { console.prompt(prompt) }
  }

  /// `meetings/Standup/record> `: the titles of the screens on the stack.
  private var prompt: String {
    var parts = ["meetings"]
    for screen in model.path {
      switch screen {
      case .detail(let detail): parts.append(detail.meeting.title)
      case .record: parts.append("record")
      }
    }
    if place == .editor { parts.append("edit") }
    if place == .alert { parts.append("delete") }
    return parts.joined(separator: "/") + "> "
  }

  private func showPrompt() {
    isAtPrompt = true
    console.prompt(prompt)
  }
}

extension String {
  /// The string, followed by spaces up to `width` characters.
  fileprivate func padding(_ width: Int) -> String {
    self + String(repeating: " ", count: max(1, width - count))
  }
}
