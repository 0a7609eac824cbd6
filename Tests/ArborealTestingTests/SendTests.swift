import Arboreal
import ArborealTesting
import Testing

@Suite actor SendTests {
  @Test func passesWhenTheAssertionReadsEveryChange() async {
    let store = TestStore(state: Loader(), environment: LoaderEnvironment())
    await store.send(.bump) { model in
      #expect(model.count == 1)
      #expect(model.step == 2)
    }
    #expect(store.state.count == 1)
  }

  @Test func passesWithoutAssertionWhenNothingChanges() async {
    let store = TestStore(state: Loader(), environment: LoaderEnvironment())
    await store.send(.touch)
    await store.send(.stopTimer)
  }

  @MainActor
  @Test func failsOnAChangeTheAssertionDidNotRead() async {
    let store = TestStore(state: Loader(), environment: LoaderEnvironment())
    let owner = "\(store.state.$count.owner!)"
    await withKnownIssue {
      await store.send(.bump) { model in
        #expect(model.count == 1)
      }
    } matching: { issue in
      issue.description.contains("send(bump) changed 1 tracked property")
        && issue.description.contains("\(owner).step = 2")
        && !issue.description.contains("\(owner).count")
    }
  }

  @MainActor
  @Test func failsOnEveryChangeWhenThereIsNoAssertion() async {
    let store = TestStore(state: Loader(), environment: LoaderEnvironment())
    let owner = "\(store.state.$count.owner!)"
    await withKnownIssue {
      await store.send(.bump)
    } matching: { issue in
      issue.description.contains("changed 2 tracked properties")
        && issue.description.contains("\(owner).count = 1")
        && issue.description.contains("\(owner).step = 2")
    }
  }

  @MainActor
  @Test func countsChangesOfChildModels() async {
    let store = TestStore(state: Parent())
    let owner = "\(store.state.child.$count.owner!)"
    await withKnownIssue {
      await store.send(.child(.increment)) { model in
        #expect(model.title == "parent")
      }
    } matching: { issue in
      issue.description.contains("\(owner).count = 1")
    }
    await store.send(.child(.increment)) { model in
      #expect(model.child.count == 2)
    }
  }

  @MainActor
  @Test func reportsAnErrorTheAssertionThrows() async {
    struct Boom: Error {}
    let store = TestStore(state: Loader(), environment: LoaderEnvironment())
    await withKnownIssue {
      await store.send(.increment) { model in
        #expect(model.count == 1)
        throw Boom()
      }
    } matching: { issue in
      issue.description.contains("send(increment): the assertion threw Boom()")
    }
  }

  @MainActor
  @Test func reportsAtTheCallersLocation() async {
    let store = TestStore(state: Loader(), environment: LoaderEnvironment())
    let line = #line + 2
    await withKnownIssue {
      await store.send(.increment)
    } matching: { issue in
      issue.sourceLocation?.line == line
        && issue.sourceLocation?.fileID == #fileID
    }
  }
}
