/// One to-do as plain data: what the list holds, what a snapshot and a response carry.
///
/// A value, not a child model: a to-do has no actions of its own here, the list changes it
/// (`toggle(id:)`, `rename(id:title:)`), so the list's one `items` property is the only thing
/// an action changes and the only thing a recording names.
struct TodoItem: Codable, Equatable, Sendable {
  /// The key that `toggle`, `rename` and `remove` name; never reused within a list.
  var id: Int
  var title: String
  var done: Bool
}
