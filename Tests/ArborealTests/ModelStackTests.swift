import Testing

@testable import Arboreal

/// A plain screen for a stack.
private final class Screen: ArborealModel {
  let registrar = TrackingRegistrar()
  let number: Int
  init(_ number: Int) { self.number = number }
  func update(action: Void, environment: Void) -> Fx<Void> { .none }
}

/// `ModelStack` finds a screen by its identifier after any pushes and pops: its identifiers
/// stay ascending, which its search by halves relies on.
@Suite struct ModelStackTests {
  @Test(arguments: [1, 2, 1_000])
  func everyScreenIsFoundByItsIdentifierAndNoPoppedOne(count: Int) {
    var stack = ModelStack((0..<count).map(Screen.init))
    for (position, id) in stack.elementIDs.enumerated() {
      #expect(stack[id: id]?.number == position)
    }
    // Pop the upper half, push three more: new identifiers continue after the popped ones.
    let half = count / 2
    let popped = Array(stack.elementIDs[half...])
    let poppedFrom = stack.pop(from: popped[0])
    #expect(poppedFrom)
    let pushed = (0..<3).map { stack.push(Screen(count + $0)) }
    for id in popped { #expect(stack[id: id] == nil) }
    #expect(pushed.map { stack[id: $0]?.number } == [count, count + 1, count + 2])
    #expect(pushed[0].rawValue == count)
    for (position, id) in stack.elementIDs.prefix(half).enumerated() {
      #expect(stack[id: id]?.number == position)
    }
    #expect(stack[id: StackElementID(rawValue: -1)] == nil)
    #expect(stack[id: StackElementID(rawValue: count + 3)] == nil)
    // Pop down to the first screen, then everything.
    if let first = stack.elementIDs.first {
      let bottom = stack[0].number  // 0, or the first pushed when the whole stack was popped
      let poppedTo = stack.pop(to: first)
      #expect(poppedTo)
      #expect(stack.count == 1 && stack[id: first]?.number == bottom)
    }
    stack.removeAll()
    #expect(stack[id: pushed[0]] == nil)
  }
}
