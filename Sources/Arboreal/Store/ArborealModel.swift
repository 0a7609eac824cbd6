/// A class that holds state and changes it only in response to actions.
///
/// A model is a `Trackable` class: its `@Tracked` properties are the state that observers
/// (views, command-line prompts, tests) read and react to. Everything that changes them goes
/// through ``update(action:environment:)``, which runs synchronously in its store's isolation
/// (the main actor, an actor of yours) and returns the side effects to run next as an
/// ``Fx``. The same actions in the same order
/// therefore always give the same state.
///
/// ```swift
/// final class Counter: ArborealModel {
///   enum Action: Sendable {
///     case increment
///     case incrementLater
///   }
///
///   let registrar = TrackingRegistrar()
///   @Tracked private(set) var count = 0
///
///   func update(action: Action, environment: Clock) -> Fx<Action> {
///     switch action {
///     case .increment:
///       count += 1
///       return .none
///     case .incrementLater:
///       return Fx {
///         await environment.sleep()
///         return .increment
///       }
///     }
///   }
/// }
/// ```
///
/// Mark the tracked properties `private(set)` so that only `update` can change them. A model
/// may hold child models in tracked properties, declare a route to each place once (a
/// ``ChildRoute``), and forward their actions to them through it with
/// ``forward(_:to:environment:)``, which makes the child's effects its own:
///
/// ```swift
/// static let editor = ChildRoute.child(
///   \Parent.editor, environment: { $0.editor }, tag: Action.editor)
///
/// case .editor(let action):
///   return forward(action, to: Self.editor, environment: environment)
/// ```
///
/// The model's type (not its instances) must be usable from any thread (`SendableMetatype`):
/// the store's effect tasks refer to it to deliver actions. Any class qualifies unless its
/// conformance to `ArborealModel` is itself isolated to an actor.
public protocol ArborealModel: Trackable, SendableMetatype, StackScreen {
  /// What can happen to the model: user intents and effect results. Actions cross from
  /// effects (off the store's isolation) to the store, so they are `Sendable`.
  associatedtype Action: Sendable

  /// The services effects use: an API client, a clock, a database. Effects capture it, so it
  /// is `Sendable`; use `Void` when there is none.
  associatedtype Environment: Sendable

  /// Changes the model in response to `action` and returns the effects to run next.
  ///
  /// Runs synchronously in the isolation of the store that calls it (the main actor, an actor
  /// of yours, a nonisolated test), inside one transaction: observers are notified once,
  /// after it returns, with every property it changed. Return ``Fx/none`` when there is no
  /// side effect.
  ///
  /// It has no isolation of its own, and neither do the helpers it calls (`forward` among
  /// them): a helper is a plain method (see <doc:ComposingFeatures#Helpers-of-update>). Do
  /// not mark it `@MainActor`: the conformance would then be isolated, which the compiler
  /// rejects.
  ///
  /// - Parameters:
  ///   - action: What happened.
  ///   - environment: The services effects may use.
  /// - Returns: The effects to run; their actions come back through the store.
  func update(action: Action, environment: Environment) -> Fx<Action>

  /// How the store reads the model's subscriptions: nil, the default, for a model without any.
  ///
  /// Conform to ``SubscribingModel`` rather than implementing this: its default answers with
  /// ``SubscribingModel/subscriptions(environment:)``. A subscribing model that declares it
  /// anyway, answering nil, is reported in debug builds (see ``ArborealDiagnostics``). Being a
  /// static requirement, it is known without a cast or an instance, so that `forward` to a
  /// child without subscriptions costs nothing for them.
  static var subscriptionReader: SubscriptionReader<Self>? { get }

  /// Where the model holds child models, each route declared once: the store follows them so
  /// that a ``SubscribingModel`` child's subscriptions start when it enters the state, by any
  /// means, and end when it leaves, with no action sent to it. The default has none.
  ///
  /// ```swift
  /// static let path = ChildRoute.stack(\MeetingList.path, tag: Action.path)
  /// static let routes: [ChildRoute<MeetingList>] = [path]
  /// ```
  ///
  /// The same route values are what ``forward(_:to:environment:)`` and the view stores take.
  /// Write the array's type: `static let routes = [path]` is an array of ``ModelRoute``, another
  /// property than this one, and the model would follow nothing (in debug builds, a `forward`
  /// through a route missing here reports it, when the route's children subscribe).
  /// See ``ChildRoute``.
  static var routes: [ChildRoute<Self>] { get }
}

extension ArborealModel {
  /// None: a model has no subscriptions unless it is a ``SubscribingModel``.
  public static var subscriptionReader: SubscriptionReader<Self>? { nil }

  /// Whether the model has subscriptions (it is a ``SubscribingModel``); folded to a constant
  /// where the model's type is known.
  @usableFromInline static var subscribes: Bool { subscriptionReader != nil }

  /// The subscriptions the model wants now; nil for a model without any. The one place that
  /// reads them, for a store's own model and for a forwarded child alike.
  @usableFromInline
  func currentSubscriptions(environment: Environment) -> [Subscription<Action>]? {
    Self.subscriptionReader?.read(self, environment)
  }

  /// None: a model follows no child unless it declares routes.
  public static var routes: [ChildRoute<Self>] { [] }

  /// Applies several actions in order and returns all their effects, merged.
  ///
  /// Useful to express one action as a sequence of others:
  ///
  /// ```swift
  /// case .reset:
  ///   return update(actions: [.clearQuery, .clearResults, .refresh], environment: environment)
  /// ```
  ///
  /// - Parameters:
  ///   - actions: The actions, applied first to last.
  ///   - environment: The services effects may use.
  /// - Returns: The effects of every action, in the order of the actions.
  /// - Complexity: O(*n*) updates for *n* actions.
  public func update(actions: some Sequence<Action>, environment: Environment) -> Fx<Action> {
    var merged: [FxEntry<Action>] = []
    for action in actions {
      merged.append(contentsOf: update(action: action, environment: environment).effects)
    }
    return Fx(effects: merged)
  }
}
