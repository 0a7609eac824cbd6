import Foundation

/// A to-do as the `todos` example saves it, read back without using the example's code.
struct SavedTodo: Decodable, Equatable {
  var text: String
  var done: Bool
}

/// Reads a `todos` JSON file.
func savedTodos(at url: URL) throws -> [SavedTodo] {
  struct Contents: Decodable { var todos: [SavedTodo] }
  return try JSONDecoder().decode(Contents.self, from: Data(contentsOf: url)).todos
}
