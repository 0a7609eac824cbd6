import Testing

@testable import ArborealTracking

/// What an idle model pays for tracking, per property and per registrar: the benchmarks'
/// `memory:` row measures it, these keep it from growing unnoticed.
@Suite struct MemoryFootprintTests {
  @Test func aTrackedPropertyIsItsValueAnIdAndAnEqualityCheck() {
    // No name (a given one travels in the id), no registrar reference.
    #expect(MemoryLayout<Tracked<Int>>.size == 32)
  }

  #if canImport(Glibc)
    @Test func aRegistrarCoreFitsTheAllocatorsNinetySixByteClass() {
      // No mirror field: a mirrored registrar keeps its mirror in an activity of its own.
      let registrar = TrackingRegistrar()
      let usable = mallocUsableSize(Unmanaged.passUnretained(registrar.core).toOpaque())
      #expect(usable <= 88, "\(usable) bytes")
    }
  #endif
}

#if canImport(Glibc)
  /// glibc's `malloc_usable_size`, which its module map does not export.
  @_silgen_name("malloc_usable_size")
  private func mallocUsableSize(_ pointer: UnsafeMutableRawPointer) -> Int
#endif
