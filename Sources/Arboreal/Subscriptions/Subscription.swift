/// A long-lived source of actions that a model asks for as a function of its state: a timer, an
/// `AsyncSequence` of events. See ``SubscribingModel``.
///
/// ```swift
/// func subscriptions(environment: Environment) -> [Subscription<Action>] {
///   isRunning ? [.every(.seconds(1), clock: environment.clock, id: "tick") { .tick }] : []
/// }
/// ```
///
/// The store starts the subscription's effects when its `id` first appears in the list and
/// cancels them when it disappears; while the `id` stays, they run on, undisturbed by the new
/// values a later list holds.
///
/// Invariant (why `@unchecked Sendable` holds): `fx` may capture the model's state, and is
/// called only by the store whose model listed the subscription, in that store's isolation,
/// where the list was made. A subscription is `Sendable` so that an ``Fx`` can carry a child's
/// subscriptions to its parent's store.
public struct Subscription<Action: Sendable>: @unchecked Sendable {
  /// What the store compares from one list to the next.
  let id: CancelID
  /// Makes the effects to run while the subscription is asked for; called once, when the
  /// store starts the subscription.
  let fx: () -> Fx<Action>

  /// A subscription that runs `fx` while a model asks for `id`.
  ///
  /// ```swift
  /// Subscription(id: "messages", .run { send in
  ///   for await message in environment.messages() { await send(.received(message)) }
  /// })
  /// ```
  ///
  /// `fx` is evaluated only when the store starts the subscription, not each time the model
  /// lists it: a list that names a running subscription again builds nothing.
  ///
  /// - Parameters:
  ///   - id: The subscription's identity among the model's subscriptions.
  ///   - fx: The effects to start; usually one long-running effect.
  public init(
    id: some Hashable & Sendable, _ fx: @autoclosure @escaping () -> Fx<Action>
  ) {
    self.id = CancelID(id)
    self.fx = fx
  }

  /// A timer: sends `action()` every `interval` on `clock`, the first time `interval` after the
  /// subscription starts.
  ///
  /// Each tick is scheduled from the previous tick's deadline, so the ticks do not drift. On
  /// `ArborealTesting`'s `TestClock`, advancing by three intervals delivers three ticks, in
  /// order.
  ///
  /// - Parameters:
  ///   - interval: The time between ticks; more than zero.
  ///   - clock: The clock to tick on; take it from the environment.
  ///   - id: The subscription's identity among the model's subscriptions.
  ///   - action: Makes the action of each tick.
  /// - Returns: The subscription.
  public static func every(
    _ interval: Duration,
    clock: any Clock<Duration>,
    id: some Hashable & Sendable,
    action: @escaping @Sendable () -> Action
  ) -> Subscription {
    precondition(interval > .zero, "Subscription.every needs an interval of more than zero.")
    // The first wait is the work's delay, booked when the store starts it; each later one is
    // booked before the tick before it is sent, so a manual clock sees it before it moves on.
    let work = FxEntry<Action>.Work(
      operation: { send in
        var previous: Sleep?
        while !Task.isCancelled {
          let next = Sleep(for: interval, on: clock)
          await send(action())
          previous?.settle()
          do {
            try await next()
          } catch {
            next.settle()
            return
          }
          previous = next
        }
      },
      delays: [DelayStep(duration: interval, clock: clock)])
    let fx = Fx(work: work)
    return Subscription(id: id, fx)
  }

  /// No longer available: a child's subscriptions start by themselves once its parent forwards
  /// its actions with ``ArborealModel/forward(_:to:id:environment:)`` or one of its
  /// siblings.
  ///
  /// A parent that listed its children's subscriptions in its own scoped them by the child's
  /// key, not by the child instance, and had to repeat the child's rules. Make the child a
  /// ``SubscribingModel`` instead: every `forward` evaluates its subscriptions after each of
  /// its actions and ends them when it leaves the state, and
  /// ``ArborealModel/present(_:at:environment:)`` and
  /// ``ArborealModel/push(_:on:environment:)`` start them as soon as it appears.
  ///
  /// - Parameters:
  ///   - key: The child's identity among its siblings.
  ///   - transform: Turns a child action into a parent action.
  /// - Returns: The parent's subscription.
  @available(
    *, unavailable,
    message:
      "Make the child a SubscribingModel and forward its actions with forward(_:to:id:environment:) (or its siblings): its subscriptions then start, and end, with the child instance"
  )
  public func tag<Parent: Sendable>(
    key: some Hashable & Sendable, _ transform: @escaping @Sendable (Action) -> Parent
  ) -> Subscription<Parent> {
    tagged(transform, scope: EffectScope(Action.self, key: key), link: nil)
  }

  /// The same subscription as the parent of the child `scope` sees it (see `FxEntry.tag`):
  /// how `forward` hands a subscribing child's subscriptions up.
  @usableFromInline
  func tagged<Parent: Sendable>(
    _ transform: @escaping @Sendable (Action) -> Parent, scope: EffectScope, link: ChildLink?
  ) -> Subscription<Parent> {
    let fx = self.fx
    return Subscription<Parent>(
      id: id.scoped(in: scope),
      fx: {
        Fx<Parent>(
          effects: fx().effects.map {
            $0.tag(transform, scope: scope, link: link)
          })
      })
  }

  private init(id: CancelID, fx: @escaping () -> Fx<Action>) {
    self.id = id
    self.fx = fx
  }
}
