import Arboreal
import ArborealTracking

/// The models a step put into the state, and their tracked properties that its assertion did
/// not read: what makes an exhaustive test store check a presented sheet, a pushed screen or
/// an added row as a whole, not only the property that now holds it.
///
/// Children count whether the new model holds them in a tracked property or in a `let`.
///
/// A model is *new to a step* when it was made while the step ran: its registrar was made
/// after the step's change recording began. (Actions are `Sendable` and models are not, so no
/// model arrives in an action's payload.) The step put it into the state when it is found in
/// the value of a property the step changed. Its own children count when they are new too: a new model
/// that refers to an older one (a parent, a shared service) does not make the older one's
/// properties the step's business.
///
/// Models are found by reflection through values (optionals, collections, structs, enums,
/// tuples), never through a class that is not a model; a collection whose first element holds
/// no model is not searched further.
enum NewModels {
  /// A new model and the properties the assertion did not read, each with its value.
  struct Unchecked {
    /// `SyncUpDetail#3`.
    let model: String
    /// Where it was put: the changed property that holds it, `SyncUpsList#1.detail`.
    let place: String
    /// `SyncUpDetail#3.title = "Standup"`, one per unread property.
    let properties: [String]
    /// The model's identity, to find its place among the store's children.
    let id: ObjectIdentifier
    /// How to read the model from the changed property when it is the payload of an
    /// enumeration's case there: `?[case: Destination.editor]`; empty otherwise.
    var caseAccessor = ""

    /// The model's type: `SyncUpDetail`.
    var typeName: String {
      model.firstIndex(of: "#").map { String(model[..<$0]) } ?? model
    }

    /// The changed property that holds it, without its owner: `detail`.
    var property: String {
      place.lastIndex(of: ".").map { String(place[place.index(after: $0)...]) } ?? place
    }
  }

  /// The new models among the values of `changes` and their unread properties, one entry per
  /// model with at least one, in the order the changes came.
  ///
  /// - Parameters:
  ///   - changes: The step's changes.
  ///   - start: The start of the step's change recording.
  ///   - accesses: The assertion's reads.
  /// - Complexity: O(1) when no model was made during the step; otherwise O(*v*) for the size
  ///   *v* of the changed values, plus O(*p*) for the *p* properties of the new models.
  static func unchecked(
    in changes: [RecordedChange], start: UInt64, accesses: Set<RecordedAccess>
  ) -> [Unchecked] {
    made(in: changes, start: start).compactMap { found in
      let properties = trackedProperties(of: found.model)
      let unread = properties.filter { !$0.isRead(in: accesses) }.map {
        "\($0.key.qualifiedName) = \(describeForTest($0.value))"
      }
      guard !unread.isEmpty else { return nil }
      return Unchecked(
        model: properties[0].key.owner.map { "\($0)" } ?? "\(type(of: found.model))",
        place: found.change.key.qualifiedName,
        properties: unread, id: ObjectIdentifier(found.model),
        caseAccessor: caseAccessor(of: found.model, in: found.value))
    }
  }

  /// A model the step made and put into the state, found in the value of one of its
  /// changes.
  struct Made {
    /// The model.
    let model: any Trackable
    /// The change whose value holds it (through a new model's properties, for that model's
    /// new children).
    let change: RecordedChange
    /// The changed property's value.
    let value: Any
  }

  /// Every model the step made and put into the state, in the order the changes came, each
  /// once: those found in the values of `changes` and, through their properties (tracked or
  /// `let`), their own new children.
  ///
  /// - Complexity: O(1) when no model was made during the step; otherwise O(*v*) for the size
  ///   *v* of the changed values, plus O(*p*) for the *p* properties of the new models.
  static func made(in changes: [RecordedChange], start: UInt64) -> [Made] {
    // No model made since the step began (a removal, a reorder, a plain edit): nothing to
    // search, however large the changed collections are.
    guard anyRegistrarMade(since: start) else { return [] }
    func isNew(_ model: any Trackable) -> Bool { model.registrar.wasMade(after: start) }
    var search = Search(start: start)
    var visited = Set<ObjectIdentifier>()
    var result: [Made] = []
    for change in changes {
      // Every model made during the step found already: the rest of the values hold none.
      if search.foundEveryNewModel { break }
      guard let value = change.values?.after ?? change.currentValue else { continue }
      var found: [any Trackable] = []
      collect(in: value, into: &found, depth: 0, search: &search, stopsEarly: true)
      for model in found where isNew(model) {
        var pending = [model]
        while let next = pending.popLast() {
          guard visited.insert(ObjectIdentifier(next)).inserted else { continue }
          result.append(Made(model: next, change: change, value: value))
          for property in trackedProperties(of: next) {
            var children: [any Trackable] = []
            collect(in: property.value, into: &children, depth: 0, search: &search)
            pending.append(contentsOf: children.filter(isNew).reversed())
          }
          // A child held in a `let` (a wrapper model of several kinds of screen) is the new
          // model's too; the `let` itself never changes, so it needs no read.
          for stored in untrackedStoredValues(of: next) {
            var children: [any Trackable] = []
            collect(in: stored.value, into: &children, depth: 0, search: &search)
            pending.append(contentsOf: children.filter(isNew).reversed())
          }
        }
      }
    }
    return result
  }

  /// `?[case: Destination.editor]` when `value` (a property's value, optional or not) is an
  /// enumeration whose case holds `model` itself; empty otherwise.
  private static func caseAccessor(of model: any Trackable, in value: Any) -> String {
    var mirror = Mirror(reflecting: value)
    var unwrapped = value
    var optional = ""
    if mirror.displayStyle == .optional {
      guard let wrapped = mirror.children.first?.value else { return "" }
      unwrapped = wrapped
      mirror = Mirror(reflecting: wrapped)
      optional = "?"
    }
    guard mirror.displayStyle == .enum, let payload = mirror.children.first,
      let label = payload.label, (payload.value as AnyObject) === model
    else { return "" }
    return "\(optional)[case: \(type(of: unwrapped)).\(label)]"
  }

  /// How far the search for new models has got: how many models were made since the step
  /// began (an upper bound on the new ones: some may be gone, or made on another thread),
  /// and how many new ones were found.
  private struct Search {
    let start: UInt64
    let made: Int
    /// The new models found, each counted once however often it is found.
    private var found = Set<ObjectIdentifier>()

    init(start: UInt64) {
      self.start = start
      made = Int(clamping: registrarsMade(since: start))
    }

    var foundEveryNewModel: Bool { found.count >= made }

    /// Counts `model` if it is new and not counted yet; whether it was.
    mutating func note(_ model: any Trackable) -> Bool {
      guard model.registrar.wasMade(after: start) else { return false }
      return found.insert(ObjectIdentifier(model)).inserted
    }
  }

  /// Appends the models found in `value`, a collection's from its newest end; with
  /// `stopsEarly`, stops once every model made during the step was found (the search of the
  /// changed values; a new model's own children are collected whole, since they were counted
  /// when it was found).
  private static func collect(
    in value: Any, into models: inout [any Trackable], depth: Int, search: inout Search,
    stopsEarly: Bool = false
  ) {
    // Only an object can be a model. Asking first keeps a long array from the cast, which
    // the runtime answers for an array by looking at its elements.
    if type(of: value) is AnyClass {
      if let model = value as? any Trackable {
        // A new model's own new children count as found too, so that a search of a list
        // stops at the row that holds them.
        if search.note(model) { countChildren(of: model, search: &search) }
        models.append(model)
      }
      return
    }
    guard depth < 8 else { return }
    let mirror = Mirror(reflecting: value)
    switch mirror.displayStyle {
    case .class, nil: return  // another kind of object, or a leaf
    case .collection:
      // Newest end first (rows are usually appended), each element reached by its offset
      // (constant time for an array), stopping once every model made during the step was
      // found: adding a row to a long list looks at a few rows, not all of them.
      let children = mirror.children
      let count = children.count
      guard count > 0 else { return }
      let first = children[children.startIndex].value
      let before = models.count
      collect(in: first, into: &models, depth: depth + 1, search: &search, stopsEarly: stopsEarly)
      if models.count == before, !holdsValues(first) { return }
      let backward = models.count
      for offset in stride(from: count - 1, to: 0, by: -1) {
        if stopsEarly, search.foundEveryNewModel { break }
        let child = children[children.index(children.startIndex, offsetBy: offset)]
        collect(
          in: child.value, into: &models, depth: depth + 1, search: &search,
          stopsEarly: stopsEarly)
      }
      // In the collection's order, for the failure message.
      models[backward...].reverse()
    case .set, .dictionary:
      var first = true
      for child in mirror.children {
        if stopsEarly, search.foundEveryNewModel { return }
        let before = models.count
        collect(
          in: child.value, into: &models, depth: depth + 1, search: &search,
          stopsEarly: stopsEarly)
        if first, models.count == before, !holdsValues(child.value) { return }
        first = false
      }
    default:
      for child in mirror.children {
        collect(
          in: child.value, into: &models, depth: depth + 1, search: &search,
          stopsEarly: stopsEarly)
      }
    }
  }

  /// Counts the new models that `model` holds, in its tracked properties and its `let`s.
  private static func countChildren(of model: any Trackable, search: inout Search) {
    var ignored: [any Trackable] = []
    for property in trackedProperties(of: model) {
      collect(in: property.value, into: &ignored, depth: 0, search: &search)
    }
    for stored in untrackedStoredValues(of: model) {
      collect(in: stored.value, into: &ignored, depth: 0, search: &search)
    }
  }

  /// Whether reflection shows anything inside `value` (a leaf such as a number shows nothing).
  private static func holdsValues(_ value: Any) -> Bool {
    !Mirror(reflecting: value).children.isEmpty
  }
}
