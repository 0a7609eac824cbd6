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

    /// The route to the photos, declared once: `forward`, view stores and `cancel` take it.
    static let photos = ChildRoute.children(\Album.photos, tag: Action.photo)

    let registrar = TrackingRegistrar()
    @Tracked private(set) var photos: [Photo]

    init(ids: [Int]) {
      photos = ids.map(Photo.init)
    }

    func update(action: Action, environment: Photo.Environment) -> Fx<Action> {
      switch action {
      case .photo(let id, let action):
        // The one line for this route.
        return forward(action, to: Self.photos, id: id, environment: environment)
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

    static let editor = ChildRoute.child(\Meeting.editor, tag: Action.editor)
    static let alert = ChildRoute.alert(\Meeting.alert, tag: Action.alert)

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
        return forward(action, to: Self.editor, environment: ())
      case .deleteTapped:
        alert = AlertState(
          title: "Delete “\(title)”?",
          buttons: [
            AlertButton("Delete", role: .destructive, action: .confirmDelete),
            AlertButton("Cancel", role: .cancel),
          ])
        return .none
      case .alert(let action):
        // Closes the alert on any button; a button's action with no alert up is dropped.
        let fx = forward(action, to: Self.alert, environment: ())
        guard !fx.isDropped, case .presented(.confirmDelete) = action else { return fx }
        isDeleted = true
        return fx
      }
    }
  }
  // article ends: presentation

  // article begins: destinations
  /// A contact: it presents an editor or a question, one at a time.
  final class Contact: ArborealModel {
    enum Destination: ModelCases {
      case editor(TitleEditor)
      case alert(AlertState<AlertAction>)

      enum Action: Sendable, Equatable {
        case editor(TitleEditor.Action)
        case alert(AlertAction)
      }

      enum AlertAction: Sendable, Equatable { case confirmDelete }

      // What each case holds, and which case each action is for: one line per case, both
      // switches checked by the compiler.
      var child: CaseChild<Destination> {
        switch self {
        case .editor(let editor): .model(editor, action: Action.editor)
        case .alert(let alert): .alert(alert, action: Action.alert)
        }
      }

      static func child(of action: Action) -> CaseAction<Destination> {
        switch action {
        case .editor(let action): .model(action, in: Destination.editor)
        case .alert(let action): .alert(action, in: Destination.alert)
        }
      }
    }

    enum Action: Sendable, Equatable {
      case editTapped
      case deleteTapped
      case destination(PresentationAction<Destination.Action>)
    }

    static let destination = ChildRoute.destination(\Contact.destination, tag: Action.destination)

    let registrar = TrackingRegistrar()
    @Tracked private(set) var name = "Blob"
    @Tracked private(set) var isDeleted = false
    @Tracked private(set) var destination: Destination?

    func update(action: Action, environment: Void) -> Fx<Action> {
      switch action {
      case .editTapped:
        destination = .editor(TitleEditor(title: name))
      case .deleteTapped:
        destination = .alert(
          AlertState(
            title: "Delete \(name)?",
            buttons: [
              AlertButton("Delete", role: .destructive, action: .confirmDelete),
              AlertButton("Cancel", role: .cancel),
            ]))
      case .destination(let action):
        // One line for every case; the alert closes here, whichever button was chosen.
        let fx = forward(action, to: Self.destination, environment: ())
        // An action that reached no child (the alert's button when no alert is up) is not
        // acted on.
        guard !fx.isDropped else { return fx }
        switch action {
        case .presented(.editor(.delegate(.save(let name)))): self.name = name
        case .presented(.alert(.confirmDelete)): isDeleted = true
        default: break
        }
        return fx
      }
      return .none
    }
  }

  /// A stack of two kinds of screen, with no model wrapping them.
  final class Contacts: ArborealModel {
    enum Path: ModelCases {
      case contact(Contact)
      case editor(TitleEditor)

      enum Action: Sendable, Equatable {
        case contact(Contact.Action)
        case editor(TitleEditor.Action)
      }

      var child: CaseChild<Path> {
        switch self {
        case .contact(let contact): .model(contact, action: Action.contact)
        case .editor(let editor): .model(editor, action: Action.editor)
        }
      }

      static func child(of action: Action) -> CaseAction<Path> {
        switch action {
        case .contact(let action): .model(action, in: Path.contact)
        case .editor(let action): .model(action, in: Path.editor)
        }
      }
    }

    enum Action: Sendable, Equatable {
      case open
      case path(StackAction<Path.Action>)
    }

    static let path = ChildRoute.stack(\Contacts.path, tag: Action.path)

    let registrar = TrackingRegistrar()
    @Tracked private(set) var path = ModelStack<Path>()

    func update(action: Action, environment: Void) -> Fx<Action> {
      switch action {
      case .open:
        path.push(.contact(Contact()))
        return .none
      case .path(let action):
        return forward(action, to: Self.path, environment: ())
      }
    }
  }
  // article ends: destinations
}

enum DocsRoutes {
  // article begins: routes
  final class Profile: SubscribingModel {
    enum Action: Sendable, Equatable { case loaded(String) }

    let registrar = TrackingRegistrar()
    let id: Int
    @Tracked private(set) var name: String?

    init(id: Int) { self.id = id }

    func update(action: Action, environment: Void) -> Fx<Action> {
      switch action {
      case .loaded(let name): self.name = name
      }
      return .none
    }

    // Once per appearance: the effect ends by itself and is not started again while the
    // profile stays; had it kept running, popping the profile would end it.
    func subscriptions(environment: Void) -> [Subscription<Action>] {
      let id = self.id
      return [Subscription(id: "load", Fx { .loaded("User \(id)") })]
    }
  }

  final class People: ArborealModel {
    enum Action: Sendable, Equatable {
      case path(StackAction<Profile.Action>)
      case open(Int)
    }

    let registrar = TrackingRegistrar()
    @Tracked private(set) var path = ModelStack<Profile>()

    /// Declared once, and listed in `routes` so that the store follows it.
    static let path = ChildRoute.stack(\People.path, tag: Action.path)
    static let routes: [ChildRoute<People>] = [path]

    func update(action: Action, environment: Void) -> Fx<Action> {
      switch action {
      case .path(let action):
        return forward(action, to: Self.path, environment: ())
      case .open(let id):
        path.push(Profile(id: id))  // a plain push: the route starts its work
        return .none
      }
    }
  }
  // article ends: routes
}

@Suite actor DocsChildrenComeAndGoTests {
  typealias Album = DocsChildren.Album
  typealias Meeting = DocsChildren.Meeting
  typealias Contact = DocsChildren.Contact
  typealias Contacts = DocsChildren.Contacts
  typealias People = DocsRoutes.People

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
    let editor = store.viewStore(Meeting.editor)
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
    #expect(store.state.isDeleted && store.state.alert == nil)
  }

  @Test func aButtonWithNoAlertUpDeletesNothing() {
    let store = Store(state: Meeting(), environment: ())
    store.send(.alert(.presented(.confirmDelete)))  // dropped, and reported in debug builds
    #expect(!store.state.isDeleted)
  }
  // article ends: presentation-usage

  // article begins: destinations-usage
  @Test func theAlertClosesWhicheverButtonIsChosen() {
    let store = Store(state: Contact(), environment: ())
    store.send(.deleteTapped)
    let alert = store.state.destination?[case: Contact.Destination.alert]
    let cancel = alert!.actions(for: alert!.buttons[1])
    store.send(.destination(cancel.map(Contact.Destination.Action.alert)))
    #expect(store.state.destination == nil && !store.state.isDeleted)
    store.send(.deleteTapped)
    store.send(.destination(.presented(.alert(.confirmDelete))))
    #expect(store.state.destination == nil && store.state.isDeleted)
  }

  @Test func aScreenOnTheStackIsReachedByItsKind() {
    let store = Store(state: Contacts(), environment: ())
    store.send(.open)
    let contact = store.viewStore(Contacts.path[case: Contacts.Path.contact], id: 0)
    contact?.send(.editTapped)
    let editor = contact?.viewStore(Contact.destination[case: Contact.Destination.editor])
    editor?.send(.setTitle("Blobby"))
    editor?.send(.saveTapped)
    #expect(store.state.path[id: 0, case: Contacts.Path.contact]?.name == "Blobby")
    #expect(editor?.isPresent == false)
  }
  // article ends: destinations-usage

  // article begins: routes-usage
  @Test func aPushedProfileLoadsWithNoActionSentToIt() async {
    let store = Store(state: People(), environment: ())
    store.send(.open(7))
    await store.finish()
    #expect(store.state.path[0].name == "User 7")
    #expect(store.children.map(\.place) == ["People.path[id: 0]"])
  }
  // article ends: routes-usage
}
