/// A model with long-lived sources of actions that depend on its state: Elm's subscriptions.
///
/// After every action (and when the store is created) the store asks the model for its
/// ``subscriptions(environment:)``, starts those whose id is new and cancels those whose id is
/// gone. A timer runs while `isRunning` is true, and stops when an action sets it to false:
///
/// ```swift
/// final class Stopwatch: SubscribingModel {
///   // ... Action, Environment, update(action:environment:) ...
///
///   func subscriptions(environment: Environment) -> [Subscription<Action>] {
///     isRunning ? [.every(.seconds(1), clock: environment.clock, id: "tick") { .tick }] : []
///   }
/// }
/// ```
///
/// A subscription's effects belong to no ``SendHandle``: awaiting the send that started one
/// does not wait for it. ``Store/finish()`` does, so stop subscriptions (through the state)
/// before waiting for the store to be idle. A subscription whose effects end by themselves is
/// not restarted while its id stays in the list.
public protocol SubscribingModel: ArborealModel {
  /// The subscriptions the model wants now, each identified by its id.
  ///
  /// Called in the store's isolation after every action the store handles: keep it cheap. A
  /// subscription's effects are built only when the store starts it (see
  /// ``Subscription/init(id:_:)``).
  ///
  /// - Parameter environment: The services the subscriptions' effects use.
  /// - Returns: The subscriptions; ids must be unique.
  func subscriptions(environment: Environment) -> [Subscription<Action>]
}

extension SubscribingModel {
  /// Reads ``subscriptions(environment:)``.
  public static var subscriptionReader: SubscriptionReader<Self>? {
    SubscriptionReader { model, environment in model.subscriptions(environment: environment) }
  }
}

/// How a store reads a model's subscriptions: the model's ``ArborealModel/subscriptionReader``.
///
/// Only ``SubscribingModel`` makes one (its initialiser is not public), so a model has
/// subscriptions exactly when it conforms to that protocol.
public struct SubscriptionReader<Model: ArborealModel>: Sendable {
  /// Reads the subscriptions a model wants now.
  typealias Read = @Sendable (Model, Model.Environment) -> [Subscription<Model.Action>]

  /// Reads the subscriptions `model` wants now.
  let read: Read

  /// Makes a reader of `read`.
  init(_ read: @escaping Read) {
    self.read = read
  }
}
