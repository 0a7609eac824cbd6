/// The status line: the counts and the filter, redrawn only when one of them changes.
struct TodoStatus: Equatable {
  var total: Int
  var done: Int
  var filter: TodoFilter

  /// For example `[3 to-dos: 2 active, 1 done · showing all]`.
  var line: String {
    let noun = total == 1 ? "to-do" : "to-dos"
    return "[\(total) \(noun): \(total - done) active, \(done) done · showing \(filter.rawValue)]"
  }
}

/// A to-do the filter shows, with the number the user types for it.
struct VisibleTodo {
  var number: Int
  var todo: Todo
}
