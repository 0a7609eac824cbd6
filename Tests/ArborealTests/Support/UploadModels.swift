import Arboreal

/// Where each row's upload waits: one gate per row id, opened by the test.
struct Uploads: Sendable {
  let gates: [Int: Gate]

  init(ids: [Int]) {
    gates = Dictionary(uniqueKeysWithValues: ids.map { ($0, Gate()) })
  }

  /// Waits for the row's gate; throws when the upload is cancelled first.
  func upload(_ id: Int) async throws {
    try await gates[id]?.waitCancellably()
  }
}

/// A reusable row: it uploads, and cancels its own upload by an identifier every row uses.
final class UploadRow: ArborealModel, Identifiable {
  enum Action: Sendable, Equatable {
    /// Starts an upload, replacing this row's upload in flight.
    case upload
    case cancelUpload
    case uploaded
  }

  /// The same identifier for every row: scoping keeps the rows apart.
  struct UploadID: Hashable, Sendable {}

  let registrar = TrackingRegistrar()
  let id: Int
  @Tracked private(set) var isUploaded = false

  init(id: Int) {
    self.id = id
  }

  func update(action: Action, environment: Uploads) -> Fx<Action> {
    switch action {
    case .upload:
      let id = self.id
      return Fx {
        try await environment.upload(id)
        return .uploaded
      } catch: { _ in
        .cancelUpload
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

/// A list of rows forwarded to by id, one featured row always held, and a log of the row
/// actions that reached the list.
final class UploadList: ArborealModel {
  enum Action: Sendable, Equatable {
    case row(id: Int, UploadRow.Action)
    case featured(UploadRow.Action)
    case add(id: Int)
    case remove(id: Int)
    /// The parent cancels one row's effects, all of them.
    case cancelRow(id: Int)
    case cancelFeatured
    /// The parent uses the rows' identifier for itself.
    case cancelParentUpload
  }

  let registrar = TrackingRegistrar()
  @Tracked private(set) var rows: [UploadRow] = []
  @Tracked private(set) var seen: [String] = []
  let featured = UploadRow(id: 0)

  static let rows = ChildRoute.children(\UploadList.rows, tag: Action.row)
  static let featured = ChildRoute.child(\UploadList.featured, tag: Action.featured)

  func row(id: Int) -> UploadRow? { rows.first { $0.id == id } }

  func update(action: Action, environment: Uploads) -> Fx<Action> {
    switch action {
    case .row(let id, let action):
      seen.append("row \(id) \(action)")
      return forward(action, to: Self.rows, id: id, environment: environment)
    case .featured(let action):
      return forward(action, to: Self.featured, environment: environment)
    case .add(let id):
      rows.append(UploadRow(id: id))
      return .none
    case .remove(let id):
      // `forward` ends the removed row's effects: nothing here asks for it.
      rows.removeAll { $0.id == id }
      return .none
    case .cancelRow(let id):
      return cancel(Self.rows, id: id)
    case .cancelFeatured:
      return cancel(Self.featured)
    case .cancelParentUpload:
      return .cancel(id: UploadRow.UploadID())
    }
  }
}
