#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Runs `body` on a new thread and waits for it, blocking the caller: the caller's actor (the
/// main actor, say) stays busy meanwhile, so nothing queued on it can run.
///
/// - Parameter stackSize: The new thread's stack size in bytes; the system's default when nil.
func onAnotherThread(stackSize: Int? = nil, _ body: @escaping @Sendable () -> Void) {
  final class Box {
    let body: @Sendable () -> Void
    init(_ body: @escaping @Sendable () -> Void) { self.body = body }
  }
  let context = Unmanaged.passRetained(Box(body)).toOpaque()
  #if canImport(Darwin)
    var thread: pthread_t?
  #else
    var thread = pthread_t()
  #endif
  var attributes = pthread_attr_t()
  pthread_attr_init(&attributes)
  defer { pthread_attr_destroy(&attributes) }
  if let stackSize { pthread_attr_setstacksize(&attributes, stackSize) }
  let status = pthread_create(
    &thread, &attributes,
    { context in
      #if canImport(Darwin)
        let box = Unmanaged<Box>.fromOpaque(context).takeRetainedValue()
      #else
        let box = Unmanaged<Box>.fromOpaque(context!).takeRetainedValue()
      #endif
      box.body()
      return nil
    }, context)
  precondition(status == 0, "pthread_create failed (\(status))")
  #if canImport(Darwin)
    pthread_join(thread!, nil)
  #else
    pthread_join(thread, nil)
  #endif
}
