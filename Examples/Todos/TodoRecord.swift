/// A to-do as plain data: what is saved in the JSON file and kept in the undo history.
struct TodoRecord: Codable, Equatable, Sendable {
  /// A key that identifies the to-do while the program runs; not the number the user types.
  var id: Int
  var text: String
  var done: Bool
}

/// The shape of the JSON file: `{"todos": [{"id": 1, "text": "milk", "done": false}]}`.
struct TodoFileContents: Codable, Sendable {
  var todos: [TodoRecord]
}
