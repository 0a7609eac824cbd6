/// Which to-dos `list` shows.
enum TodoFilter: String, CaseIterable, Codable, Sendable {
  case all
  case active
  case done

  /// Whether a to-do with this done-state is shown.
  func includes(isDone: Bool) -> Bool {
    switch self {
    case .all: true
    case .active: !isDone
    case .done: isDone
    }
  }
}
