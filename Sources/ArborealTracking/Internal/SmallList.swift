/// A list that stores its first element inline and allocates only for a second one.
///
/// Most observers read one registrar and most reads touch one property, so the lists that
/// registration builds (property ids, registrations) usually hold one element; keeping it
/// inline saves an allocation per registration.
struct SmallList<Element>: RandomAccessCollection {
  private var first: Element?
  private var rest: [Element] = []

  init() {}

  init(_ element: Element) { first = element }

  var startIndex: Int { 0 }
  var endIndex: Int { first == nil ? 0 : rest.count + 1 }

  subscript(position: Int) -> Element {
    position == 0 ? first! : rest[position - 1]
  }

  mutating func append(_ element: Element) {
    if first == nil { first = element } else { rest.append(element) }
  }

  mutating func removeAll() {
    first = nil
    rest = []
  }

  /// Removes the elements that satisfy `predicate`, keeping the others in order.
  mutating func removeAll(where predicate: (Element) -> Bool) {
    var kept = SmallList()
    for element in self where !predicate(element) { kept.append(element) }
    self = kept
  }
}

extension SmallList: Equatable where Element: Equatable {
  static func == (lhs: SmallList, rhs: SmallList) -> Bool { lhs.elementsEqual(rhs) }
}

extension SmallList: Sendable where Element: Sendable {}
