import ArborealTracking
import Testing

/// Every change names its owner, so that two rows' `title`s can be told apart.
@MainActor @Suite struct OwnerTests {
  final class Row: Trackable, Identifiable {
    let registrar = TrackingRegistrar()
    let id: Int
    @Tracked var title: String
    init(id: Int, title: String) {
      self.id = id
      self.title = title
    }
  }

  final class Note: Trackable {
    let registrar = TrackingRegistrar()
    @Tracked var text = ""
  }

  @Test func anIdentifiableModelIsNamedByItsID() {
    let rows = [Row(id: 1, title: "un"), Row(id: 2, title: "deux")]
    var seen: [[String]] = []
    let token = observe { changes in
      for row in rows { _ = row.title }
      if !changes.isEmpty { seen.append(changes.qualifiedNames) }
    }
    withTransaction {
      rows[1].title = "two"
      rows[0].title = "one"
    }
    #expect(seen == [["Row#2.title", "Row#1.title"]])
    #expect(rows[1].$title.qualifiedName == "Row#2.title")
    token.cancel()
  }

  @Test func otherModelsAreNumberedPerTypeInTheOrderTheyFirstChange() {
    let first = Note()
    let second = Note()
    var owners: [TrackingOwner] = []
    let token = observe { changes in
      _ = (first.text, second.text)
      owners += changes.compactMap(\.owner)
    }
    second.text = "b"
    first.text = "a"
    second.text = "c"
    #expect(owners.count == 3)
    #expect(owners[0].typeName == "Note")
    #expect(owners[0] === owners[2])
    #expect(owners[0] != owners[1])
    #expect(Int(owners[1].label)! == Int(owners[0].label)! + 1)
    token.cancel()
  }

  @Test func aHandWrittenKeyHasNoOwnerAndPrintsItsName() {
    let thermometer = Thermometer()
    var names: [[String]] = []
    let token = observe { changes in
      _ = thermometer.celsius
      if !changes.isEmpty { names.append(changes.qualifiedNames) }
    }
    thermometer.celsius = 30
    #expect(names == [["celsius"]])
    token.cancel()
  }
}
