/// The identity of a screen in a ``ModelStack``: stable while the screen is on the stack,
/// never reused by that stack.
///
/// A stack numbers its screens 0, 1, 2… in the order they are pushed, so the same pushes give
/// the same identifiers on every run (a test can name them).
public struct StackElementID: Hashable, Comparable, Sendable, CustomStringConvertible,
  ExpressibleByIntegerLiteral
{
  /// The number: the count of screens pushed on the stack before this one.
  public let rawValue: Int

  /// An identifier by its number, to name a screen in a test.
  ///
  /// ```swift
  /// await store.send(.path(.popFrom(id: StackElementID(rawValue: 0))))
  /// ```
  ///
  /// - Parameter rawValue: The number.
  @inlinable public init(rawValue: Int) {
    self.rawValue = rawValue
  }

  /// An identifier from an integer literal, to name a screen in a test as TCA's tests do.
  ///
  /// ```swift
  /// await store.send(.path(.popFrom(id: 0)))
  /// ```
  ///
  /// - Parameter value: The number.
  public init(integerLiteral value: Int) {
    self.init(rawValue: value)
  }

  /// Orders identifiers by number: older screens first.
  public static func < (lhs: StackElementID, rhs: StackElementID) -> Bool {
    lhs.rawValue < rhs.rawValue
  }

  /// `#2`.
  public var description: String { "#\(rawValue)" }
}

/// Encoded as its number (`2`), as a recording writes it in a ``StackAction``.
extension StackElementID: Codable {
  /// Reads the number.
  ///
  /// - Parameter decoder: The decoder.
  public init(from decoder: any Decoder) throws {
    self.init(rawValue: try decoder.singleValueContainer().decode(Int.self))
  }

  /// Writes the number.
  ///
  /// - Parameter encoder: The encoder.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(rawValue)
  }
}

/// A navigation stack of child models, bottom first, each with a stable ``StackElementID``.
///
/// Hold it in a tracked property and forward its ``StackAction``s in one line; screens pushed
/// and popped come and go with their effects:
///
/// ```swift
/// @Tracked private(set) var path = ModelStack<Screen>()
/// static let path = ChildRoute.stack(\Parent.path, tag: Action.path)
///
/// case .openDetail(let id):
///   path.push(Screen.detail(Detail(id: id)))
///   return .none
/// case .path(let action):
///   return forward(action, to: Self.path, environment: environment)
/// ```
///
/// Popping a screen (``StackAction/popFrom(id:)``, ``popLast()``, ``pop(from:)``, the screen's
/// own ``Fx/dismiss``) ends the effects of every screen popped, within the action.
///
/// A stack of several kinds of screen holds an enumeration of them, a ``ModelCases`` whose
/// cases each hold a model; its actions forward in one line the same way, and
/// ``subscript(id:case:)`` reads a screen as its kind.
///
/// `Element` is an ``ArborealModel`` or a ``ModelCases`` enumeration of models (the
/// ``StackScreen`` kinds): the `forward`s and view stores take one or the other.
public struct ModelStack<Element: StackScreen>: RandomAccessCollection {
  /// The screens' identifiers, bottom first: strictly ascending, since `push` appends
  /// `nextID`, which only grows, and every removal takes a suffix or everything. Searched by
  /// halves.
  ///
  /// The stack's storage and its small operations are inlinable, so that they are specialised
  /// for the screen type where the parent is compiled: called unspecialised, each push or pop
  /// looked up its arrays' generic metadata at run time.
  @usableFromInline var ids: [StackElementID] = []
  @usableFromInline var elements: [Element] = []
  @usableFromInline var nextID = 0

  /// An empty stack.
  @inlinable public init() {}

  /// A stack holding `elements`, bottom first, numbered from 0.
  ///
  /// - Parameter elements: The screens.
  public init(_ elements: some Sequence<Element>) {
    for element in elements { push(element) }
  }

  /// The position of the bottom screen: 0.
  @inlinable public var startIndex: Int { 0 }

  /// The position after the top screen: the number of screens.
  @inlinable public var endIndex: Int { elements.count }

  /// The screen at `position`, counted from the bottom.
  ///
  /// - Parameter position: A valid position.
  @inlinable public subscript(position: Int) -> Element { elements[position] }

  /// The identifier of each screen, bottom first.
  @inlinable public var elementIDs: [StackElementID] { ids }

  /// The screen with `id`, or nil when it is not on the stack.
  ///
  /// - Parameter id: The screen's identifier.
  /// - Complexity: O(log *n*) for *n* screens.
  @inlinable
  public subscript(id id: StackElementID) -> Element? {
    guard let index = index(of: id) else { return nil }
    return elements[index]
  }

  /// The identifier the next screen pushed gets.
  @inlinable public var nextElementID: StackElementID { StackElementID(rawValue: nextID) }

  /// A stack as it was: its screens with their identifiers, bottom first, and the identifier
  /// the next push gets. What a ``ReplayableModel`` restores its stack with, so that the
  /// actions of a recording (which name screens by identifier) reach the same screens, and a
  /// later push gets the identifier it got when recorded.
  ///
  /// ```swift
  /// path = ModelStack(
  ///   restoring: snapshot.path.map { ($0.id, Screen(snapshot: $0.screen)) },
  ///   nextElementID: snapshot.nextPathID)
  /// ```
  ///
  /// - Parameters:
  ///   - screens: The screens and their identifiers, bottom first, in ascending order.
  ///   - nextElementID: The identifier of the next push: above every screen's.
  /// - Precondition: The identifiers ascend, and `nextElementID` is above the last (a stack
  ///   never has them otherwise; a snapshot edited by hand may).
  public init(
    restoring screens: some Sequence<(StackElementID, Element)>, nextElementID: StackElementID
  ) {
    for (id, element) in screens {
      precondition(
        ids.last.map { $0 < id } ?? true,
        "ModelStack(restoring:): the identifiers must ascend (\(ids.last!) then \(id))")
      ids.append(id)
      elements.append(element)
    }
    precondition(
      ids.last.map { $0 < nextElementID } ?? true,
      "ModelStack(restoring:): the next identifier (\(nextElementID)) must be above the last "
        + "screen's (\(ids.last!))")
    nextID = nextElementID.rawValue
  }

  /// The identifier of the screen at `position`.
  ///
  /// - Parameter position: A valid position.
  /// - Returns: The identifier.
  @inlinable public func id(at position: Int) -> StackElementID { ids[position] }

  /// Pushes a screen on top.
  ///
  /// - Parameter element: The screen.
  /// - Returns: Its identifier.
  @inlinable @discardableResult
  public mutating func push(_ element: Element) -> StackElementID {
    let id = StackElementID(rawValue: nextID)
    #if DEBUG
      Self.notePush(id)
    #endif
    nextID += 1
    ids.append(id)
    elements.append(element)
    return id
  }

  /// Pops the top screen.
  ///
  /// - Returns: The popped screen, or nil when the stack is empty.
  @inlinable @discardableResult
  public mutating func popLast() -> Element? {
    guard !elements.isEmpty else { return nil }
    ids.removeLast()
    return elements.removeLast()
  }

  /// Pops the screen with `id` and every screen above it.
  ///
  /// - Parameter id: The lowest screen to pop.
  /// - Returns: Whether the screen was on the stack.
  /// - Complexity: O(*n*) for *n* screens.
  @inlinable @discardableResult
  public mutating func pop(from id: StackElementID) -> Bool {
    guard let index = index(of: id) else { return false }
    ids.removeSubrange(index...)
    elements.removeSubrange(index...)
    return true
  }

  /// Pops every screen above the one with `id`.
  ///
  /// - Parameter id: The screen to show.
  /// - Returns: Whether the screen was on the stack.
  /// - Complexity: O(*n*) for *n* screens.
  @inlinable @discardableResult
  public mutating func pop(to id: StackElementID) -> Bool {
    guard let index = index(of: id) else { return false }
    ids.removeSubrange((index + 1)...)
    elements.removeSubrange((index + 1)...)
    return true
  }

  /// Pops every screen.
  @inlinable
  public mutating func removeAll() {
    ids.removeAll()
    elements.removeAll()
  }

  /// The position of `id`, found by halves in the ascending `ids`.
  @inlinable
  func index(of id: StackElementID) -> Int? {
    var (low, high) = (0, ids.count)
    while low < high {
      let middle = low + (high - low) / 2
      if ids[middle].rawValue < id.rawValue { low = middle + 1 } else { high = middle }
    }
    return low < ids.count && ids[low] == id ? low : nil
  }
}

#if DEBUG
  extension ModelStack {
    /// Reports a push while a model is rebuilt from a recording's snapshot (debug builds).
    @usableFromInline
    static func notePush(_ id: StackElementID) {
      if RecordingRestore.isRebuilding { RecordingRestore.reportPush(of: Element.self, id: id) }
    }
  }
#endif

@available(*, unavailable)
extension ModelStack: Sendable {}

/// What a ``ModelStack`` can hold: an ``ArborealModel`` (one kind of screen) or a
/// ``ModelCases`` enumeration (several kinds). Both conform; nothing else needs to.
public protocol StackScreen: SendableMetatype {}

extension ModelStack: Equatable {
  /// Whether two stacks hold the same screens (the same instances) under the same identifiers,
  /// and would number the next screen alike: a write of an equal stack, such as a pop of an
  /// identifier that is gone, is no change.
  ///
  /// - Parameters:
  ///   - lhs: A stack.
  ///   - rhs: Another stack.
  /// - Returns: True when they hold the same screens in the same order.
  /// - Complexity: O(*n*) for *n* screens.
  public static func == (lhs: ModelStack, rhs: ModelStack) -> Bool {
    lhs.nextID == rhs.nextID && lhs.ids == rhs.ids
      && lhs.elements.elementsEqual(rhs.elements, by: isSameScreen)
  }

  /// Whether two screens are the same model: the same instance, or the same case holding the
  /// same instance. Screens that are neither (values) are never the same, so that writing
  /// them is always a change.
  private static func isSameScreen(_ lhs: Element, _ rhs: Element) -> Bool {
    if Element.self is AnyObject.Type { return (lhs as AnyObject) === (rhs as AnyObject) }
    return (lhs as? any ModelCases)?.isSameCase(as: rhs) ?? false
  }
}

extension ModelStack {
  /// Each screen with its identifier, bottom first: what a route over the stack lists.
  ///
  /// - Complexity: O(*n*) for *n* screens.
  var screensWithIDs: [(StackElementID, Element)] {
    // A loop, not `zip(…).map`: the store's watch of a stack calls this from code that is not
    // specialised, where the standard library's generic `zip` looked up its metadata on every
    // element (most of a push and pop).
    var screens: [(StackElementID, Element)] = []
    screens.reserveCapacity(elements.count)
    for position in elements.indices { screens.append((ids[position], elements[position])) }
    return screens
  }
}

extension ModelStack where Element: ModelCases {
  /// The screen with `id` as the model of its case, or nil when it is not on the stack or is
  /// another kind of screen.
  ///
  /// ```swift
  /// let detail = model.path[id: 0, case: Path.detail]
  /// ```
  ///
  /// - Parameters:
  ///   - id: The screen's identifier.
  ///   - embed: Its case: `Path.detail`.
  /// - Complexity: O(*n*) for *n* screens.
  public subscript<Child>(id id: StackElementID, case embed: (Child) -> Element) -> Child? {
    self[id: id].flatMap { $0[case: embed] }
  }
}
