import ArborealTracking

#if DEBUG
  /// Finds, in debug builds and once per model type, a ``SubscribingModel`` whose
  /// ``ArborealModel/subscriptionReader`` answers nil: its `subscriptions(environment:)` would
  /// never be read, and its subscriptions would never start, silently. Asked where a model type
  /// meets a store: a store's own model, a forwarded child, a child a route follows.
  @usableFromInline
  enum SubscriptionCheck {
    /// Reports `model` (through ``ArborealDiagnostics/droppedActionHandler``) the first time
    /// it is asked about, when it is a subscribing model without a reader.
    @usableFromInline
    static func check<Model: ArborealModel>(_ model: Model.Type) {
      guard ArborealDiagnostics.isFirstAsk("subscriptionReader", about: model) else { return }
      guard model.subscriptionReader == nil, model is any SubscribingModel.Type else { return }
      ArborealDiagnostics.reportDroppedAction(
        "Arboreal: \(model) is a SubscribingModel whose `subscriptionReader` answers nil, so its "
          + "subscriptions(environment:) is never read and its subscriptions never start. "
          + "Remove the `subscriptionReader` it declares: SubscribingModel provides it.")
    }
  }
#endif
