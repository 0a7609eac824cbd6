/// A list that stores its first element inline and allocates only for a second one.
///
/// `rest` is nil, not an empty array, while the list holds at most one element: copying or
/// dropping a nil costs no call into the runtime's reference counting, while an empty array
/// is a shared object whose every copy is retained and released (on the registration path,
/// where each registration copies its list of ids, that was a third of the work).
///
/// Most observers read one registrar and most reads touch one property, so the lists that
/// registration builds (property ids, registrations) usually hold one element; keeping it
/// inline saves an allocation per registration.
///
/// The collection requirements that the standard library would otherwise supply (iteration,
/// index arithmetic, `count`) are written out: its defaults for an `Int`-indexed collection go
/// through unspecialised generic code, which cost more than the lists' whole work on the
/// notification path.
struct SmallList<Element>: RandomAccessCollection {
  typealias Indices = Range<Int>

  private var first: Element?
  private var rest: [Element]?

  init() {}

  init(_ element: Element) { first = element }

  var startIndex: Int { 0 }
  var endIndex: Int { first == nil ? 0 : (rest?.count ?? 0) &+ 1 }
  var count: Int { endIndex }
  var isEmpty: Bool { first == nil }
  var indices: Range<Int> { 0..<endIndex }

  @inline(__always) func index(after index: Int) -> Int { index &+ 1 }
  @inline(__always) func index(before index: Int) -> Int { index &- 1 }
  @inline(__always) func index(_ index: Int, offsetBy distance: Int) -> Int { index &+ distance }
  @inline(__always) func distance(from start: Int, to end: Int) -> Int { end &- start }

  subscript(position: Int) -> Element {
    position == 0 ? first! : rest![position &- 1]
  }

  /// Iterates without going through the generic index machinery.
  struct Iterator: IteratorProtocol {
    private let list: SmallList
    private var position = 0

    init(_ list: SmallList) { self.list = list }

    mutating func next() -> Element? {
      defer { position &+= 1 }
      if position == 0 { return list.first }
      let restIndex = position &- 1
      guard let rest = list.rest, restIndex < rest.count else { return nil }
      return rest[restIndex]
    }
  }

  func makeIterator() -> Iterator { Iterator(self) }

  /// The first element satisfying `predicate`.
  func first(where predicate: (Element) throws -> Bool) rethrows -> Element? {
    guard let first else { return nil }
    if try predicate(first) { return first }
    guard let rest else { return nil }
    for element in rest where try predicate(element) { return element }
    return nil
  }

  /// Whether an element satisfies `predicate`.
  func contains(where predicate: (Element) throws -> Bool) rethrows -> Bool {
    try first(where: predicate) != nil
  }

  mutating func append(_ element: __owned Element) {
    if first == nil {
      first = element
    } else if rest == nil {
      rest = [element]
    } else {
      rest!.append(element)
    }
  }

  /// Makes room for `count` elements in all.
  mutating func reserveCapacity(_ count: Int) {
    guard count > 1 else { return }
    if rest == nil { rest = [] }
    rest!.reserveCapacity(count &- 1)
  }

  mutating func removeAll() {
    first = nil
    rest = nil
  }

  /// Removes the elements that satisfy `predicate`, keeping the others in order.
  mutating func removeAll(where predicate: (Element) -> Bool) {
    var kept = SmallList()
    for element in self where !predicate(element) { kept.append(element) }
    self = kept
  }
}

extension SmallList where Element: Equatable {
  /// Whether the list holds `element`.
  func contains(_ element: Element) -> Bool {
    contains { $0 == element }
  }
}

extension SmallList: Equatable where Element: Equatable {
  static func == (lhs: SmallList, rhs: SmallList) -> Bool {
    guard lhs.count == rhs.count else { return false }
    var left = lhs.makeIterator()
    var right = rhs.makeIterator()
    while let element = left.next() {
      guard element == right.next() else { return false }
    }
    return true
  }
}

extension SmallList: Sendable where Element: Sendable {}

extension Array {
  /// Removes every element and keeps the storage. A short array (a scope's runs, a frame's
  /// record) is emptied one element at a time: `removeAll(keepingCapacity:)` goes through a
  /// generic range replacement that costs more than the rest of a short list's work.
  @inline(__always)
  mutating func removeAllKeepingStorage() {
    if count > 8 {
      removeAll(keepingCapacity: true)
    } else {
      while !isEmpty { removeLast() }
    }
  }
}
