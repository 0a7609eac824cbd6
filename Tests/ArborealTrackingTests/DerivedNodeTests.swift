import Synchronization
import Testing

@testable import ArborealTracking

// The current engine's node, which the new engine (ARBOREAL_NEW_DERIVED) replaces.
#if !ARBOREAL_NEW_DERIVED
  /// The derived-value state machine, by its phases, versions and edges (see
  /// `DerivedNodeBase`): what a read, an input's change and a source's change do to it.
  @Suite struct DerivedNodeTests {
    private func phase<Value>(_ derived: Derived<Value>) -> DerivedNodeBase.Phase {
      derived.node.withState { $0.phase }
    }

    private func version<Value>(_ derived: Derived<Value>) -> UInt64 {
      derived.node.withState { $0.version }
    }

    @Test func aNodeIsUncomputedUntilReadThenClean() {
      let shared = SharedCounter()
      let doubled = Derived("doubled") { shared.value * 2 }
      #expect(phase(doubled) == .uncomputed)
      _ = doubled.value
      #expect(phase(doubled) == .clean)
      #expect(version(doubled) == 1)
    }

    @Test func anInputChangeMarksTheNodeAndItsDependentsCheck() {
      let shared = SharedCounter()
      let first = Derived("first") { shared.value % 2 }
      let second = Derived("second") { first.value + 1 }
      _ = second.value
      #expect(first.node.withState { $0.dependents.count } == 1)
      shared.value = 2
      // The input link marks `check`: the refresh tells a real change from one already seen.
      #expect(phase(first) == .check)
      #expect(phase(second) == .check)
      // Checking finds the source's result unchanged: the dependent is clean, not recomputed.
      #expect(second.value == 1)
      #expect(phase(second) == .clean)
      #expect(version(first) == 1)
      #expect(version(second) == 1)
    }

    @Test func anEqualResultKeepsTheVersionAndADifferentOneMovesIt() {
      let shared = SharedCounter()
      let parity = Derived("parity") { shared.value % 2 }
      _ = parity.value
      shared.value = 2
      _ = parity.value
      #expect(version(parity) == 1)
      shared.value = 3
      _ = parity.value
      #expect(version(parity) == 2)
    }

    @Test func aNonEquatableResultMovesTheVersionOnEveryComputation() {
      let shared = SharedCounter()
      let boxed = Derived("boxed") { Summary(count: shared.value % 2) }
      _ = boxed.value
      shared.value = 2
      _ = boxed.value
      #expect(version(boxed) == 2)
    }

    @Test func theNodeRecordsItsInputsAndStampsTheirRegistrars() {
      let shared = SharedCounter()
      let first = Derived("first") { shared.value }
      let second = Derived("second") { first.value + shared.other }
      _ = second.value
      let (plain, derived, stamps) = second.node.withState {
        ($0.runs.count, $0.derivedSources.count, $0.stamps.count)
      }
      #expect(plain == 1)
      #expect(derived == 1)
      // `first` and `second` both read `shared`: one stamp for its registrar.
      #expect(stamps == 1)
    }

    @Test func aWriteInsideATransactionInvalidatesAReadByEpochBeforeAnyNotification() {
      let shared = SharedCounter()
      let doubled = Derived("doubled") { shared.value * 2 }
      _ = doubled.value
      withTransaction {
        shared.value = 4
        // The input observer has not fired yet (transactions deliver at the end) ...
        #expect(phase(doubled) == .clean)
        // ... but the registrar's epoch moved, so the read recomputes.
        #expect(doubled.value == 8)
      }
      #expect(doubled.value == 8)
      #expect(version(doubled) == 2)
    }

    @Test func recomputingKeepsOneInputLinkRegisteredForTheNewReads() {
      let shared = SharedCounter()
      let choice = Derived("choice") { shared.value == 0 ? shared.value : shared.other }
      _ = choice.value
      let link = choice.node.withState { $0.inputLink }
      #expect(link != nil)
      shared.value = 1
      #expect(choice.value == 0)
      // The same link, relinked for `value` and `other`; one registration per property.
      #expect(choice.node.withState { $0.inputLink } === link)
      #expect(shared.registrar.registrationCount == 2)
      withTransaction {
        shared.value = 0
        _ = choice.value
      }
      #expect(choice.node.withState { $0.inputLink } === link)
      #expect(shared.registrar.registrationCount == 1)
      // The transaction's notification found the write already seen by the recomputation.
      #expect(choice.value == 0)
      #expect(phase(choice) == .clean)
      #expect(version(choice) == 1)
      shared.other = 5
      // No longer read: the link was taken out of `other`'s entry, so the value stays clean.
      #expect(phase(choice) == .clean)
    }

    @Test func anUnreadNodeKeepsNoRegistration() {
      let shared = SharedCounter()
      let doubled = Derived("doubled") { shared.value * 2 }
      shared.value = 1
      #expect(shared.registrar.registrationCount == 0)
      _ = doubled.value
      #expect(shared.registrar.registrationCount == 1)
    }

    @Test func aNodeThatReadsNothingTrackedIsComputedOnce() {
      let tally = Tally()
      let constant = Derived("constant") {
        tally.add()
        return 42
      }
      #expect(constant.value == 42)
      #expect(constant.value == 42)
      #expect(tally.value == 1)
      #expect(constant.node.withState { $0.inputLink } == nil)
    }
  }
#endif
