/// What the last save reported: which revision of the list it saved, and how big it was.
struct SaveReceipt: Codable, Equatable, Sendable {
  /// The list's ``TodoList/revision`` when the save started.
  var revision: Int
  /// The size of the saved list, in bytes.
  var bytes: Int
}
