import Arboreal
import ArborealDevtools
import ArborealPersistence
import Testing

/// The README's "Persisting models" example, verbatim, with the article's `Notes` model; the
/// checks after it hold what its comments claim.
@Suite actor ReadmePersistenceTests {
  typealias Notes = DocsPersistence.Notes

  @Test func theReadmeExampleDoesWhatItSays() async throws {
    let temporary = try TemporaryFile("notes.json")
    let path = temporary.path

    let file = PersistedFile<Notes>(path: path)
    let notes = try file.load().map(Notes.init(snapshot:)) ?? Notes()  // nil: no file yet
    let store = Store(state: notes, environment: Notes.Environment())
    let persister = try StorePersister(store, to: file)
    store.send(.add("milk"))  // saved half a second later, off the main actor, atomically
    await persister.finish()  // or now, before the program ends

    #expect(try file.load() == Notes.Snapshot(notes: ["milk"], pinned: nil))
    let reopened = try #require(try file.load().map(Notes.init(snapshot:)))
    #expect(reopened.notes == ["milk"])
  }
}
