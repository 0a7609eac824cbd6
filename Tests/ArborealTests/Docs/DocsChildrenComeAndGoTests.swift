import Arboreal
import Testing

// The code of the "Children that come and go" article
// (Arboreal.docc/ChildrenThatComeAndGo.md), verbatim between the `article begins` and
// `article ends` markers, so that it keeps compiling and doing what the article says.

enum DocsChildren {
  // article begins: models
  final class Photo: ArborealModel, Identifiable {
    enum Action: Sendable, Equatable {
      case upload
      case cancelUpload
      case uploaded
    }

    struct Environment: Sendable {
      var upload: @Sendable (Int) async -> Void
    }

    /// Every photo uses this identifier; each cancels only its own upload.
    struct UploadID: Hashable, Sendable {}

    let registrar = TrackingRegistrar()
    let id: Int
    @Tracked private(set) var isUploaded = false

    init(id: Int) {
      self.id = id
    }

    func update(action: Action, environment: Environment) -> Fx<Action> {
      switch action {
      case .upload:
        let id = self.id
        return Fx {
          await environment.upload(id)
          return .uploaded
        }
        .cancellable(id: UploadID(), cancelInFlight: true)
      case .cancelUpload:
        return .cancel(id: UploadID())
      case .uploaded:
        isUploaded = true
        return .none
      }
    }
  }

  final class Album: ArborealModel {
    enum Action: Sendable, Equatable {
      case photo(id: Int, Photo.Action)
      case remove(id: Int)
    }

    let registrar = TrackingRegistrar()
    @Tracked private(set) var photos: [Photo]

    init(ids: [Int]) {
      photos = ids.map(Photo.init)
    }

    func update(action: Action, environment: Photo.Environment) -> Fx<Action> {
      switch action {
      case .photo(let id, let action):
        // The one line for this kind of child.
        return forward(action, to: \.photos, id: id, environment: environment) {
          .photo(id: id, $0)
        }
      case .remove(let id):
        photos.removeAll { $0.id == id }  // its upload ends with it
        return .none
      }
    }
  }
  // article ends: models

  // article begins: presentation
  /// An editor presented as a sheet: it saves through its parent and dismisses itself.
  final class TitleEditor: ArborealModel {
    enum Action: Sendable, Equatable {
      case setTitle(String)
      case cancelTapped
      case saveTapped
      case delegate(Delegate)
      enum Delegate: Sendable, Equatable { case save(String) }
    }

    let registrar = TrackingRegistrar()
    @Tracked private(set) var title: String

    init(title: String) {
      self.title = title
    }

    func update(action: Action, environment: Void) -> Fx<Action> {
      switch action {
      case .setTitle(let title):
        self.title = title
        return .none
      case .cancelTapped:
        return .dismiss
      case .saveTapped:
        // Heard by the parent in this order, right after this action.
        return .merge(.send(.delegate(.save(title))), .dismiss)
      case .delegate:
        return .none
      }
    }
  }

  final class Meeting: ArborealModel {
    enum Action: Sendable, Equatable {
      case editTapped
      case editor(PresentationAction<TitleEditor.Action>)
      case deleteTapped
      case alert(PresentationAction<AlertAction>)
      enum AlertAction: Sendable, Equatable { case confirmDelete }
    }

    let registrar = TrackingRegistrar()
    @Tracked private(set) var title = "Standup"
    @Tracked private(set) var isDeleted = false
    @Tracked private(set) var editor: TitleEditor?
    @Tracked private(set) var alert: AlertState<Action.AlertAction>?

    func update(action: Action, environment: Void) -> Fx<Action> {
      switch action {
      case .editTapped:
        editor = TitleEditor(title: title)
        return .none
      case .editor(let action):
        // The delegate action goes to the editor too: every child action is forwarded.
        if case .presented(.delegate(.save(let title))) = action { self.title = title }
        return forward(action, to: \.editor, environment: (), tag: Action.editor)
      case .deleteTapped:
        alert = AlertState(
          title: "Delete “\(title)”?",
          buttons: [
            AlertButton("Delete", role: .destructive, action: .confirmDelete),
            AlertButton("Cancel", role: .cancel),
          ])
        return .none
      case .alert(.presented(.confirmDelete)):
        alert = nil
        isDeleted = true
        return .none
      case .alert(.dismiss):
        alert = nil
        return .none
      }
    }
  }
  // article ends: presentation
}

@MainActor
@Suite struct DocsChildrenComeAndGoTests {
  typealias Album = DocsChildren.Album
  typealias Meeting = DocsChildren.Meeting

  // article begins: usage
  @Test func eachPhotoCancelsOnlyItsOwnUpload() async {
    let store = Store(state: Album(ids: [1, 2]), environment: .init(upload: { _ in }))
    let first = store.send(.photo(id: 1, .upload))
    store.send(.photo(id: 2, .upload))
    store.send(.photo(id: 2, .cancelUpload))  // photo 1's upload runs on
    await first.value
    #expect(store.state.photos.map(\.isUploaded) == [true, false])
  }

  @Test func removingAPhotoStopsItsUpload() async {
    let store = Store(state: Album(ids: [1, 2]), environment: .init(upload: { _ in }))
    let upload = store.send(.photo(id: 2, .upload))
    store.send(.remove(id: 2))
    await upload.value  // ended with the photo: nothing arrives for it
    #expect(store.state.photos.map(\.id) == [1])
  }
  // article ends: usage

  // article begins: presentation-usage
  @Test func savingTheEditorUpdatesTheTitleAndDismissesIt() {
    let store = Store(state: Meeting(), environment: ())
    store.send(.editTapped)
    let editor = store.viewStore(get: \.editor, tag: { .editor(.presented($0)) })
    editor?.send(.setTitle("Retro"))
    editor?.send(.saveTapped)  // the save, then the dismissal, before `send` returns
    #expect(store.state.title == "Retro")
    #expect(store.state.editor == nil)
    #expect(editor?.isPresent == false)
  }

  @Test func theAlertAsksBeforeDeleting() {
    let store = Store(state: Meeting(), environment: ())
    store.send(.deleteTapped)
    let alert = store.state.alert!
    store.send(.alert(alert.actions(for: alert.buttons[1])))  // Cancel
    #expect(store.state.alert == nil && !store.state.isDeleted)
    store.send(.deleteTapped)
    store.send(.alert(.presented(.confirmDelete)))
    #expect(store.state.isDeleted)
  }
  // article ends: presentation-usage
}
