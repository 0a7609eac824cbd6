import Testing

@testable import Arboreal

/// The store's queue of actions received while it was busy.
@Suite struct ActionQueueTests {
  @Test func elementsComeOutFirstInFirstOut() {
    var queue = ActionQueue<Int>()
    #expect(queue.isEmpty)
    queue.append(1)
    queue.append(2)
    #expect(queue.popFirst() == 1)
    queue.append(3)
    #expect(queue.count == 2)
    #expect(queue.popFirst() == 2)
    #expect(queue.popFirst() == 3)
    #expect(queue.popFirst() == nil)
    #expect(queue.isEmpty)
  }
}
