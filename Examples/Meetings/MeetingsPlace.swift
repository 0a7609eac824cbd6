/// Where the user is, which decides the commands that apply: the list, or the screen (and
/// what it presents) on top of the stack.
enum MeetingsPlace: Equatable {
  case list
  case detail
  case editor
  case alert
  case record

  /// The commands that apply here, with what each does, for `help` and for hints.
  var commands: [(usage: String, summary: String)] {
    let here: [(String, String)] =
      switch self {
      case .list:
        [
          ("list", "show the meetings"), ("add TITLE", "add a meeting"),
          ("open N", "open meeting N"),
        ]
      case .detail:
        [
          ("edit", "edit this meeting"), ("record", "record it, with a timer"),
          ("delete", "delete it (asks first)"), ("back", "back to the list"),
        ]
      case .editor:
        [
          ("title TEXT", "change the title"), ("attendees A, B", "set who attends"),
          ("minutes N", "set how long it lasts"), ("save", "keep the changes"),
          ("cancel", "drop them"),
        ]
      case .alert:
        [("yes", "delete the meeting"), ("no", "keep it")]
      case .record:
        [("back", "stop recording, back to the meeting")]
      }
    return here + [("help", "show the commands that apply here"), ("quit", "leave")]
  }

  /// `the list`, `a meeting`: what the place is called in an error.
  var name: String {
    switch self {
    case .list: "the list"
    case .detail: "a meeting"
    case .editor: "the edit sheet"
    case .alert: "the delete question"
    case .record: "the recording"
    }
  }
}
