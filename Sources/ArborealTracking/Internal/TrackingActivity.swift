import Synchronization

/// What makes reads and writes take their slow paths, in one word that every registrar can
/// reach: the process-wide counts of running tracking scopes and change recordings, and, for
/// registrars mirrored to another system, bits that pin both paths slow.
///
/// A read or a write checks it with one relaxed load and a mask (``ActivityWord``). It lives in
/// an object that each registrar points to, rather than in a global, so that the inlined read
/// path reaches it through plain loads: a global from another module is reached through an
/// accessor call, and an opaque call makes the caller retain the model around every read.
/// Almost every registrar points to ``shared``; a mirrored one (see ``TrackingMirror``) to an
/// activity of its own (``mirrored(to:)``), whose word has the pinning bits set, so other
/// registrars' fast paths do not test for a mirror at all, and which holds the mirror, so that
/// registrars without one do not store it.
@usableFromInline
final class TrackingActivity: Sendable {
  @usableFromInline static let shared = TrackingActivity(0, mirror: nil)

  /// The bits described by ``ActivityWord``.
  @usableFromInline let word: Atomic<UInt64>
  /// Told of every read and change of a mirrored registrar's properties; nil in ``shared``.
  let mirror: (any TrackingMirror)?

  private init(_ initial: UInt64, mirror: (any TrackingMirror)?) {
    word = Atomic(initial)
    self.mirror = mirror
  }

  /// The activity of a registrar mirrored to `mirror`: every read and write takes the slow
  /// path, where the mirror is called.
  static func mirrored(to mirror: any TrackingMirror) -> TrackingActivity {
    TrackingActivity(ActivityWord.mirroredReads | ActivityWord.mirroredWrites, mirror: mirror)
  }

  /// Whether reads must be recorded: a tracking scope runs somewhere, or the registrar is
  /// mirrored.
  @inlinable @inline(__always)
  var readsTakeSlowPath: Bool { word.load(ordering: .relaxed) & ActivityWord.readMask != 0 }

  /// Whether every write must be reported, observed or not: a change recording runs
  /// somewhere, or the registrar is mirrored.
  @inlinable @inline(__always)
  var writesTakeSlowPath: Bool { word.load(ordering: .relaxed) & ActivityWord.writeMask != 0 }

  /// Whether a tracking scope runs on some thread (ignores the mirror bits).
  var hasScopes: Bool { word.load(ordering: .relaxed) & ActivityWord.scopeCount != 0 }

  /// Counts a tracking scope in (`true`) or out (`false`).
  func countScope(_ entering: Bool) { count(ActivityWord.scopeUnit, in: entering) }

  /// Whether a change recording runs on some thread (ignores the mirror bits).
  var hasRecordings: Bool { word.load(ordering: .relaxed) & ActivityWord.recorderCount != 0 }

  /// Counts a change recording in (`true`) or out (`false`).
  func countRecording(_ entering: Bool) { count(ActivityWord.recorderUnit, in: entering) }

  /// Adds `unit` to the word (`entering`) or takes it away.
  private func count(_ unit: UInt64, in entering: Bool) {
    if entering {
      word.wrappingAdd(unit, ordering: .relaxed)
    } else {
      word.wrappingSubtract(unit, ordering: .relaxed)
    }
  }
}

/// The named bits of ``TrackingActivity/word``.
///
/// - bits 0–30: how many tracking scopes run, on all threads;
/// - bit 31: every read is slow (a mirrored registrar);
/// - bits 32–62: how many change recordings (``withChangeRecording(keepingValues:_:)``) run;
/// - bit 63: every write is slow (a mirrored registrar).
///
/// Computed constants, so that the inlined paths fold them into their masks.
@usableFromInline
enum ActivityWord {
  @inlinable static var scopeUnit: UInt64 { 1 }
  @inlinable static var scopeCount: UInt64 { 0x7FFF_FFFF }
  @inlinable static var mirroredReads: UInt64 { 1 &<< 31 }
  @inlinable static var recorderUnit: UInt64 { 1 &<< 32 }
  @inlinable static var recorderCount: UInt64 { 0x7FFF_FFFF &<< 32 }
  @inlinable static var mirroredWrites: UInt64 { 1 &<< 63 }
  @inlinable static var readMask: UInt64 { scopeCount | mirroredReads }
  @inlinable static var writeMask: UInt64 { recorderCount | mirroredWrites }
}

/// Records a read of property `id` of `core` in the calling thread's innermost tracking
/// scope, if any. The caller keeps `core` alive.
///
/// A free function: a static method would load the class's metadata at every call site.
@usableFromInline
func recordTrackedAccess(_ core: Unmanaged<RegistrarCore>, id: UInt64) {
  core._withUnsafeGuaranteedRef { $0.recordAccess(id: id) }
}
