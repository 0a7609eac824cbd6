import Testing

@testable import TodoServer

/// The list's actions, sent to a session host directly: no HTTP, the store in its actor.
@Suite struct TodoListTests {
  /// A session of its own actor with no recording, and what `actions` made of its list.
  func list(after actions: [TodoList.Action]) async throws -> TodoList.Snapshot {
    let session = try await SessionActor(environment: TodoList.Environment(), recordingPath: nil)
    for action in actions { _ = await session.handle(action) }
    let state = try #require(await session.state())
    await session.end()
    return state
  }

  @Test func blankTitlesAreIgnored() async throws {
    let list = try await list(after: [
      .add(title: " \n"), .add(title: "milk"), .rename(id: 1, title: "  "),
    ])
    #expect(list.items == [TodoItem(id: 1, title: "milk", done: false)])
    #expect(list.revision == 1)
  }

  @Test func unknownIDsAndNoOpsChangeNothing() async throws {
    let list = try await list(after: [
      .add(title: "milk"), .toggle(id: 7), .rename(id: 7, title: "x"), .remove(id: 7),
      .rename(id: 1, title: "milk"), .clearCompleted,
    ])
    #expect(list.items == [TodoItem(id: 1, title: "milk", done: false)])
    #expect(list.revision == 1)
  }

  @Test func clearCompletedRemovesTheDoneOnesAndIDsAreNeverReused() async throws {
    let list = try await list(after: [
      .add(title: "a"), .add(title: "b"), .add(title: "c"), .toggle(id: 1), .toggle(id: 3),
      .clearCompleted, .add(title: "d"),
    ])
    #expect(
      list.items == [
        TodoItem(id: 2, title: "b", done: false), TodoItem(id: 4, title: "d", done: false),
      ])
    #expect(list.nextID == 5)
  }

  @Test func saveDeliversTheReceiptOfTheRevisionItSaved() async throws {
    let list = try await list(after: [.add(title: "milk"), .save, .add(title: "eggs")])
    let receipt = try #require(list.lastSave)
    #expect(receipt.revision == 1)
    #expect(receipt.bytes > 0)
    #expect(list.revision == 2)
  }

  @Test func theMainActorHostGivesTheSameList() async throws {
    let actions: [TodoList.Action] = [
      .add(title: "a"), .add(title: "b"), .toggle(id: 2), .save, .rename(id: 1, title: "A"),
    ]
    let session = try await MainActorSession(
      environment: TodoList.Environment(), recordingPath: nil)
    for action in actions { _ = await session.handle(action) }
    #expect(await session.state() == (try await list(after: actions)))
    await session.end()
  }
}
