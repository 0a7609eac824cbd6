import Testing

@testable import ArborealTracking

/// `NetWrites`, the net change shared by transactions and change recordings, driven directly.
@Suite struct NetWritesTests {
  private let registrar = ObjectIdentifier(NetWritesTests.self)

  private func property(_ id: UInt64) -> NetWrites.Property {
    NetWrites.Property(registrar: registrar, id: id)
  }

  private func write(_ before: Int, _ after: Int) -> WriteValues {
    TrackedWriteValues(before: before, after: after, isDuplicate: { $0 == $1 })
  }

  @Test func aPropertySetAndSetBackIsUnchanged() {
    var writes = NetWrites()
    #expect(writes.add(property(1), write: write(0, 5)) == (0, true))
    #expect(writes.add(property(1), write: write(5, 0)) == (0, false))
    #expect(writes.isUnchanged(at: 0))
    #expect(writes.unchangedProperties() == [property(1)])
  }

  @Test func theFirstWritesOldValueMeetsTheLastWritesNewOne() {
    var writes = NetWrites()
    writes.add(property(1), write: write(0, 5))
    writes.add(property(1), write: write(5, 7))
    #expect(!writes.isUnchanged(at: 0))
    // Back to the first value, through a third write.
    writes.add(property(1), write: write(7, 0))
    #expect(writes.isUnchanged(at: 0))
  }

  @Test func aWriteThatKeptNoValuesMakesThePropertyChangedForTheRestOfTheSpan() {
    var writes = NetWrites()
    writes.add(property(1), write: write(0, 5))
    writes.add(property(1), write: nil)
    writes.add(property(1), write: write(5, 0))
    #expect(!writes.isUnchanged(at: 0))
    #expect(writes.unchangedProperties().isEmpty)
  }

  @Test func propertiesKeepTheirFirstWriteOrderAndTheirOwnEnds() {
    var writes = NetWrites()
    writes.add(property(2), write: write(0, 1))
    writes.add(property(1), write: write(0, 1))
    writes.add(property(2), write: write(1, 0))
    #expect(writes.entries.map(\.property.id) == [2, 1])
    #expect(writes.unchangedProperties() == [property(2)])
    let other = NetWrites.Property(registrar: ObjectIdentifier(Int.self), id: 2)
    #expect(writes.add(other, write: write(0, 1)) == (2, true))
  }

  @Test func manyPropertiesAreFoundThroughTheIndex() {
    var writes = NetWrites()
    for id in 0..<100 as Range<UInt64> { writes.add(property(id), write: write(0, 1)) }
    for id in 0..<100 as Range<UInt64> where id.isMultiple(of: 2) {
      #expect(writes.add(property(id), write: write(1, 0)) == (Int(id), false))
    }
    #expect(writes.entries.count == 100)
    #expect(writes.unchangedProperties().count == 50)
    writes.removeAll()
    #expect(writes.isEmpty)
    #expect(writes.add(property(7), write: write(0, 1)) == (0, true))
  }
}
