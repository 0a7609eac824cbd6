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

  var core: RegistrarCore { unmanagedCore.takeUnretainedValue() }
}

/// An observer's registrations with registrars.
///
/// `one` is the usual case, an observer that read one property of one model: trivial values,
/// so that storing, comparing and dropping it copies and retains nothing. `many` holds the
/// rest, one ``Registration`` per registrar.
enum Registrations {
  case none
  case one(core: Unmanaged<RegistrarCore>, id: UInt64)
  case many(SmallList<Registration>)

  /// Removes the observer from every registrar it is registered with.
  ///
  /// - Parameters:
  ///   - firing: The registrar whose write fired a one-shot observer, if any; that write
  ///     already took the observer out of the entry of property `id`, so a registration for
  ///     that property alone needs no trip through that registrar's lock.
  ///   - id: The property that write changed.
  func unregister(_ observer: ObserverCore, firedBy firing: RegistrarCore?, id firedID: UInt64) {
    switch self {
    case .none:
      break
    case .one(let core, let id):
      if let firing, core.toOpaque() == Unmanaged.passUnretained(firing).toOpaque(),
        id == firedID
      {
        return
      }
      core._withUnsafeGuaranteedRef { $0.unregister(observer, id: id) }
    case .many(let registrations):
      for registration in registrations {
        if let firing, registration.core === firing, registration.ids.count == 1,
          registration.ids[0] == firedID
        {
          continue
        }
        registration.core.unregister(observer, ids: registration.ids)
      }
    }
  }

  /// The registrations without those with the registrar `identity`.
  func removing(_ identity: ObjectIdentifier) -> Registrations {
    switch self {
    case .none:
      return .none
    case .one(let core, _):
      // Compared by address: the registrar may be in its deinit, so no reference is made.
      return UInt(bitPattern: core.toOpaque()) == UInt(bitPattern: identity) ? .none : self
    case .many(var registrations):
      registrations.removeAll { ObjectIdentifier($0.core) == identity }
      return registrations.isEmpty ? .none : .many(registrations)
    }
  }
}
