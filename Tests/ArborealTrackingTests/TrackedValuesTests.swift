import ArborealTracking
import Testing

@Suite struct TrackedValuesTests {
  @Test func yieldsTheCurrentValueThenOnePerTransaction() async {
    let shared = SharedCounter()
    var iterator = values(of: { shared.value }).makeAsyncIterator()
    #expect(await iterator.next() == 0)
    shared.value = 1
    withTransaction {
      shared.value = 2
      shared.value = 3
    }
    shared.value = 3  // equal: no element
    shared.value = 4
    #expect(await iterator.next() == 1)
    #expect(await iterator.next() == 3)
    #expect(await iterator.next() == 4)
  }

  @Test func derivedValuesSkipRepeats() async {
    let shared = SharedCounter()
    var iterator = values(of: { shared.value >= 2 }).makeAsyncIterator()
    #expect(await iterator.next() == false)
    shared.value = 1
    shared.value = 2
    shared.value = 3
    #expect(await iterator.next() == true)
  }

  @Test func theSequenceIsSendableAndFeedsATask() async {
    let shared = SharedCounter()
    let sequence = values(of: { shared.value })
    let task = Task.detached {
      var seen: [Int] = []
      for await value in sequence {
        seen.append(value)
        if value == 3 { break }
      }
      return seen
    }
    // Wait until the consumer observes, then change the value.
    while shared.registrar.registrationCount == 0 { await Task.yield() }
    shared.value = 3
    #expect(await task.value.last == 3)
  }

  @Test func releasingTheIteratorEndsItsObservation() async {
    let shared = SharedCounter()
    do {
      var iterator = values(of: { shared.value }).makeAsyncIterator()
      _ = await iterator.next()
      #expect(shared.registrar.registrationCount == 1)
    }
    #expect(shared.registrar.registrationCount == 0)
  }
}
