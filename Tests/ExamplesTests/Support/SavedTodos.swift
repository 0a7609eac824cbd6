import Foundation

/// A to-do as the `todos` example saves it, read back without using the example's code.
struct SavedTodo: Decodable, Equatable {
  var text: String
  var done: Bool
}

/// Reads a `todos` JSON file.
func savedTodos(at url: URL) throws -> [SavedTodo] {
  struct Contents: Decodable {
    struct Snapshot: Decodable { var items: [SavedTodo] }
    var format: String
    var snapshot: Snapshot
  }
  let contents = try JSONDecoder().decode(Contents.self, from: Data(contentsOf: url))
  guard contents.format == "arboreal-snapshot" else { throw CocoaError(.fileReadCorruptFile) }
  return contents.snapshot.items
}
