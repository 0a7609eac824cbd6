/// An observer's registration with one registrar.
///
/// The reference is unowned, so that observers never keep a released model's registrar alive
/// and copying a registration costs nothing (a weak reference would give every registrar a
/// side table and make each of its retains and releases several times slower). It is safe
/// because a registration only lives in its observer's state, is only used under the
/// observer's lock, and a registrar's `deinit` removes it from there (under that lock) before
/// its memory goes.
struct Registration {
  /// Unmanaged rather than `unowned(unsafe)`: the same reference, but a trivial field, so
  /// that copying a registration is a plain copy instead of a call into the runtime's
  /// generic value witnesses.
  private let unmanagedCore: Unmanaged<RegistrarCore>
  let ids: SmallList<UInt64>

  init(core: RegistrarCore, ids: SmallList<UInt64>) {
    unmanagedCore = Unmanaged.passUnretained(core)
    self.ids = ids
  }

  init(core: Unmanaged<RegistrarCore>, ids: SmallList<UInt64>) {
    unmanagedCore = core
    self.ids = ids
  }

  /// Calls `body` with the registrar, without retaining it: valid wherever ``core`` is (under
  /// the observer's lock, before the registrar's `deinit` has removed the registration).
  @inline(__always)
  func withCore<Result>(_ body: (RegistrarCore) -> Result) -> Result {
    unmanagedCore._withUnsafeGuaranteedRef(body)
  }

  var core: RegistrarCore { unmanagedCore.takeUnretainedValue() }

  /// The registrar's address, read without making a reference (it may be gone).
  var address: UInt { UInt(bitPattern: unmanagedCore.toOpaque()) }
}

/// An observer's registrations with registrars.
///
/// Three shapes: none; `one`, the usual case, an observer that read one property of one
/// model (trivial values, so that storing, comparing and dropping it copies and retains
/// nothing); and `many`, one ``Registration`` per registrar.
///
/// A struct of plain fields, not an enumeration with payloads: Swift keeps the case of an
/// enumeration whose payloads hold references in those references' unused high bits, so the
/// `many` list's buffer would be stored as a value that is no address. A leak checker
/// (LeakSanitizer) then cannot follow it, and an observer still registered when a program
/// ends (a store kept to the end) is reported as a leak. Here every reference is stored as
/// itself: `list` is an `Optional` of a struct, which marks `nil` with a value no reference
/// takes, leaving the references of a present list untouched.
///
/// Invariants: `list` is nil unless the shape is `many`, and then holds at least one
/// registration; `oneCore` is nil unless the shape is `one`; `oneID` means nothing then.
struct Registrations {
  /// The registrar of the lone registration (shape `one`).
  private var oneCore: Unmanaged<RegistrarCore>?
  /// The property of the lone registration (shape `one`).
  private var oneID: UInt64 = 0
  /// The registrations, one per registrar (shape `many`).
  private var list: SmallList<Registration>?

  /// No registration.
  static var none: Registrations { Registrations() }

  /// One property of one registrar.
  static func one(core: Unmanaged<RegistrarCore>, id: UInt64) -> Registrations {
    var registrations = Registrations()
    registrations.oneCore = core
    registrations.oneID = id
    return registrations
  }

  /// One registration per registrar; none when `list` is empty.
  static func many(_ list: SmallList<Registration>) -> Registrations {
    var registrations = Registrations()
    if !list.isEmpty { registrations.list = list }
    return registrations
  }

  /// Whether there is no registration.
  var isNone: Bool { oneCore == nil && list == nil }

  /// The lone registration, when the shape is `one`.
  var one: (core: Unmanaged<RegistrarCore>, id: UInt64)? {
    oneCore.map { ($0, oneID) }
  }

  /// The registrations, when the shape is `many`.
  var many: SmallList<Registration>? { list }

  /// Removes the observer from every registrar it is registered with.
  ///
  /// - Parameters:
  ///   - firing: The registrar whose write fired a one-shot observer, if any; that write
  ///     already took the observer out of the entry of property `id`, so a registration for
  ///     that property alone needs no trip through that registrar's lock.
  ///   - id: The property that write changed.
  func unregister(_ observer: ObserverCore, firedBy firing: RegistrarCore?, id firedID: UInt64) {
    if let core = oneCore {
      if let firing, core.toOpaque() == Unmanaged.passUnretained(firing).toOpaque(),
        oneID == firedID
      {
        return
      }
      core._withUnsafeGuaranteedRef { $0.unregister(observer, id: oneID) }
    } else if let registrations = list {
      for registration in registrations {
        if let firing, registration.address == UInt(bitPattern: ObjectIdentifier(firing)),
          registration.ids.count == 1, registration.ids[0] == firedID
        {
          continue
        }
        registration.withCore { $0.unregister(observer, ids: registration.ids) }
      }
    }
  }

  /// The registrations without those with the registrar `identity`.
  func removing(_ identity: ObjectIdentifier) -> Registrations {
    if let core = oneCore {
      // Compared by address: the registrar may be in its deinit, so no reference is made.
      return UInt(bitPattern: core.toOpaque()) == UInt(bitPattern: identity) ? .none : self
    }
    guard var registrations = list else { return .none }
    registrations.removeAll { ObjectIdentifier($0.core) == identity }
    return .many(registrations)
  }

  /// The registrations without those with the registrars at `addresses`, in one pass.
  /// Compared by address only: those registrars are gone, and no reference to them is made.
  ///
  /// - Complexity: O(*n*), *n* the number of registrations.
  func removing(addresses: Set<UInt>) -> Registrations {
    if let core = oneCore {
      return addresses.contains(UInt(bitPattern: core.toOpaque())) ? .none : self
    }
    guard var registrations = list else { return .none }
    registrations.removeAll { addresses.contains($0.address) }
    return .many(registrations)
  }
}
