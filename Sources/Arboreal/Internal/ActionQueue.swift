/// A first-in, first-out queue of the actions a store received while it was busy.
///
/// An array and the index of its head: `append` and `popFirst` are O(1) (amortised), and the
/// array's storage is kept and reused once the queue drains, so a store that keeps receiving
/// re-entrant actions stops allocating after the first burst. It allocates nothing until the
/// first `append`.
///
/// Invariant: `head <= elements.count`; the live elements are `elements[head...]`, and
/// `count == elements.count - head`; when the last one is popped, the array is emptied
/// (keeping its capacity) and `head` is reset to 0. ``checkInvariants()`` asserts them after
/// every mutation when built with `-DARBOREAL_INTERNAL_CHECKS`.
struct ActionQueue<Element> {
  private var elements: [Element] = []
  private var head = 0
  /// `elements.count - head`, kept apart so that `isEmpty` reads a plain integer: in the
  /// store's unspecialised generic code, asking the array would look up generic metadata.
  private(set) var count = 0

  /// Whether no element is waiting.
  @inline(__always) var isEmpty: Bool { count == 0 }

  /// The waiting elements, front first.
  var waiting: ArraySlice<Element> { elements[head...] }

  /// Adds an element at the back.
  mutating func append(_ element: Element) {
    elements.append(element)
    count += 1
    checkInvariants()
  }

  /// Removes and returns the front element, or nil when the queue is empty.
  mutating func popFirst() -> Element? {
    guard head < elements.count else { return nil }
    let element = elements[head]
    head += 1
    count -= 1
    if head == elements.count {
      elements.removeAll(keepingCapacity: true)
      head = 0
    }
    checkInvariants()
    return element
  }

  #if ARBOREAL_INTERNAL_CHECKS
    /// Asserts the invariants when built with `-DARBOREAL_INTERNAL_CHECKS`; does nothing
    /// otherwise. O(1).
    @inline(never)
    func checkInvariants() {
      precondition(head <= elements.count, "ActionQueue: the head is past the end")
      precondition(count == elements.count - head, "ActionQueue: the count is off")
      precondition(
        head == 0 || head < elements.count, "ActionQueue: a drained queue kept its head")
    }
  #else
    /// Does nothing: the checks are built with `-DARBOREAL_INTERNAL_CHECKS`.
    @inline(__always)
    func checkInvariants() {}
  #endif
}

extension ActionQueue: Sendable where Element: Sendable {}
