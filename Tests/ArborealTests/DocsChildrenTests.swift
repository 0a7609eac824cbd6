import Arboreal
import Testing

// The code of the "Collections of children" article (Arboreal.docc/CollectionsOfChildren.md),
// verbatim between the `article begins` and `article ends` markers, so that it keeps compiling
// and doing what the article says.

enum DocsChildren {
  // article begins: models
  final class Photo: ArborealModel {
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

    func photo(id: Int) -> Photo? { photos.first { $0.id == id } }

    func update(action: Action, environment: Photo.Environment) -> Fx<Action> {
      switch action {
      case .photo(let id, let action):
        // An action queued before the photo was removed finds no photo: ignore it.
        guard let photo = photo(id: id) else { return .none }
        return photo.update(action: action, environment: environment)
          .tag(key: id) { .photo(id: id, $0) }  // the photo's effects, keyed by its id
      case .remove(let id):
        photos.removeAll { $0.id == id }
        return .cancel(child: Photo.self, key: id)  // its upload stops with it
      }
    }
  }
  // article ends: models
}

@MainActor @Suite struct DocsChildrenTests {
  typealias Album = DocsChildren.Album

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
    await upload.value  // cancelled: nothing arrives for the missing photo
    #expect(store.state.photos.map(\.id) == [1])
  }
  // article ends: usage
}
