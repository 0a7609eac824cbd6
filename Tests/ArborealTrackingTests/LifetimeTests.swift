import ArborealTestSupport
import ArborealTracking
import Testing

@MainActor @Suite struct LifetimeTests {
  @Test func releasingAModelFreesItsRegistrations() {
    weak var weakCounter: Counter?
    let log = Log<Int>()
    var token: TrackingToken?
    do {
      let counter = Counter()
      weakCounter = counter
      withTracking {
        counter.count
      } onChange: { _ in
        log.append(1)
      }
      let captured = counter
      token = observe { [weak captured] _ in _ = captured?.count }
    }
    #expect(weakCounter == nil)
    #expect(log.count == 0)
    token?.cancel()
  }

  @Test func releasingATokenFreesTheObserverAndWhatItCaptured() {
    final class Payload {}
    weak var weakPayload: Payload?
    let counter = Counter()
    do {
      let payload = Payload()
      weakPayload = payload
      let token = observe { _ in _ = (payload, counter.count) }
      #expect(counter.registrar.registrationCount == 1)
      _ = token
    }
    #expect(weakPayload == nil)
    #expect(counter.registrar.registrationCount == 0)
  }

  @Test func aFiredOneShotLeavesNothingInAnyRegistrar() {
    final class Payload {}
    weak var weakPayload: Payload?
    let first = Counter()
    let second = Counter()
    do {
      let payload = Payload()
      weakPayload = payload
      withTracking {
        (first.count, second.count)
      } onChange: { _ in
        _ = payload
      }
    }
    #expect(weakPayload != nil)
    first.count = 1
    #expect(weakPayload == nil)
    #expect(first.registrar.registrationCount == 0)
    #expect(second.registrar.registrationCount == 0)
  }

  @Test func cancellingRemovesEntriesFromEveryRegistrar() {
    let models = (0..<10).map { _ in Counter() }
    let token = observe { _ in for model in models { _ = model.count } }
    #expect(models.allSatisfy { $0.registrar.registrationCount == 1 })
    token.cancel()
    #expect(models.allSatisfy { $0.registrar.registrationCount == 0 })
  }
}
